import { describe, expect, it } from "vitest";
import { backoffMilliseconds, MAX_RETRY_INTERVAL_MS } from "./outbox-delivery.server";

describe("backoffMilliseconds", () => {
  it("starts at a minute, doubles, and stops at 30 minutes (a mail leaves at most 30 minutes after its provider is back)", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 40].map((attempts) => backoffMilliseconds(attempts) / 60_000)).toEqual([
      1, 2, 4, 8, 16, 30, 30, 30,
    ]);
    expect(MAX_RETRY_INTERVAL_MS).toBe(30 * 60_000);
  });

  it("keeps a mail tried for about 18 hours over the 40 attempts of OUTBOX_MAX_ATTEMPTS' default", () => {
    const waits = Array.from({ length: 39 }, (_, index) => backoffMilliseconds(index + 1));
    expect(waits.reduce((sum, wait) => sum + wait, 0) / 3_600_000).toBeCloseTo(18, 0);
  });
});
