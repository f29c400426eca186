import { describe, expect, it } from "vitest";
import { backoffMilliseconds } from "./outbox.server";

describe("backoffMilliseconds", () => {
  it("starts at a minute, doubles, and stops at an hour", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((attempts) => backoffMilliseconds(attempts) / 60_000)).toEqual([
      1, 2, 4, 8, 16, 32, 60, 60,
    ]);
  });
});
