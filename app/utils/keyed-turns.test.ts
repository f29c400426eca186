/** Turns by key: a series' bookings one at a time in a process, other series beside them, a failure blocking no one. */
import { describe, expect, it } from "vitest";
import { KeyedTurns } from "./keyed-turns";

describe("KeyedTurns", () => {
  it("runs one key's tasks one at a time in the order given, other keys beside them, and goes on after a failure", async () => {
    const turns = new KeyedTurns();
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = turns.run("series:1", async () => {
      events.push("a starts");
      await gate;
      events.push("a ends");
      throw new Error("a failed");
    });
    const second = turns.run("series:1", async () => {
      events.push("b runs");
      return "b";
    });
    const other = turns.run("series:2", async () => {
      events.push("other runs");
      return "other";
    });
    expect(await other).toBe("other");
    expect(turns.waiting("series:1")).toBe(2);
    expect(events).toEqual(["a starts", "other runs"]);
    release();
    await expect(first).rejects.toThrow("a failed");
    expect(await second).toBe("b");
    expect(events).toEqual(["a starts", "other runs", "a ends", "b runs"]);
    await Promise.resolve();
    expect(turns.waiting("series:1")).toBe(0);
  });
});
