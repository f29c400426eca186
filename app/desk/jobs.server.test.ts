/**
 * The timed jobs' timer (app/desk/jobs.server.ts): a job runs once shortly
 * after start, at the moment the injected clock gives (what fell due while
 * the server was down is then done), the jobs' first runs one after the
 * other, never twice at once in one process, and `stop()` waits for a run in
 * progress.
 */
import { describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { silentLogger } from "../../tests/support/harness";
import { scheduleJobs, type TimedJob } from "./jobs.server";

const FIXED = new Date("2027-03-01T08:00:00Z");

describe("scheduleJobs", () => {
  it("runs a job at start with the injected clock's moment, one run at a time, and stop() waits for it", async () => {
    const seen: Date[] = [];
    let scheduled!: ReturnType<typeof scheduleJobs>;
    let release!: () => void;
    const started = new Promise<void>((resolve) => {
      const job: TimedJob = {
        name: "test",
        // Due again at once: a second run must wait for the first to end.
        intervalMs: 5,
        run: async ({ now }) => {
          seen.push(now);
          resolve();
          await new Promise<void>((done) => (release = done));
          return { done: 1 };
        },
      };
      scheduled = scheduleJobs([job], {
        db: {} as Database,
        logger: silentLogger,
        clock: { now: () => FIXED },
        siteUrl: "https://www.example.ch",
        firstDelayMs: 0,
      });
    });
    await started;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([FIXED]);
    let stopped = false;
    const stopping = scheduled.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(seen).toEqual([FIXED]);
  });

  it("runs the jobs' first runs one after the other, not all at once", async () => {
    const events: string[] = [];
    let release!: () => void;
    const job = (name: string, wait: boolean): TimedJob => ({
      name,
      intervalMs: 60_000,
      run: async () => {
        events.push(`${name} starts`);
        if (wait) await new Promise<void>((done) => (release = done));
        events.push(`${name} ends`);
        return {};
      },
    });
    const scheduled = scheduleJobs([job("a", true), job("b", false)], {
      db: {} as Database,
      logger: silentLogger,
      clock: { now: () => FIXED },
      siteUrl: "https://www.example.ch",
      firstDelayMs: 0,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(["a starts"]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(["a starts", "a ends", "b starts", "b ends"]);
    await scheduled.stop();
  });
});
