/**
 * The database-backed rate limits (server/rate-limit.ts) on a real embedded
 * database: attempts sent at once are counted before any passes (no more
 * pass than the allowance), a point given back lets one more attempt
 * through, and giving back never creates a spare point (below zero, or
 * into a window that began after the point was taken).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../tests/support/harness";
import { createRateLimiter } from "./rate-limit";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

/** How many of `count` attempts sent at once on `keys` pass `action`'s limit. */
async function passing(
  limiter: ReturnType<typeof createRateLimiter>,
  action: string,
  keys: { address?: string; account?: string },
  count: number,
): Promise<number> {
  const answers = await Promise.all(Array.from({ length: count }, () => limiter.consume(action, keys)));
  return answers.filter(({ limited }) => !limited).length;
}

describe("createRateLimiter", () => {
  it("lets exactly the allowance through when 40 attempts come at once, per key", async () => {
    const limiter = createRateLimiter(database.db, { burst: { limit: 5, windowMs: 60_000 } });
    expect(await passing(limiter, "burst", { address: "203.0.113.1" }, 40)).toBe(5);
    expect(await passing(limiter, "burst", { account: "Owner@Example.ch" }, 40)).toBe(5);
    // The e-mail counts lower-cased; another address has its own allowance.
    expect(await passing(limiter, "burst", { account: "owner@example.ch" }, 1)).toBe(0);
    expect(await passing(limiter, "burst", { address: "203.0.113.2" }, 1)).toBe(1);
  });

  it("gives back a point: one more attempt passes, and no more", async () => {
    const limiter = createRateLimiter(database.db, { reward: { limit: 2, windowMs: 60_000 } });
    const keys = { address: "203.0.113.3" };
    expect(await passing(limiter, "reward", keys, 2)).toBe(2);
    // 3 refused attempts give back their points: the count is back at 2.
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await limiter.consume("reward", keys)).limited).toBe(true);
      await limiter.reward("reward", keys);
    }
    await limiter.reward("reward", keys);
    expect(await passing(limiter, "reward", keys, 5)).toBe(1);
  });

  it("never gives a spare point: not below zero, not into a later window", async () => {
    const limiter = createRateLimiter(database.db, { spare: { limit: 2, windowMs: 1000 } });
    const fresh = { address: "203.0.113.4" };
    await limiter.reward("spare", fresh);
    await limiter.reward("spare", fresh);
    expect(await passing(limiter, "spare", fresh, 5)).toBe(2);

    const late = { address: "203.0.113.5" };
    expect(await passing(limiter, "spare", late, 1)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // The point was taken in a window that has ended: giving it back now changes nothing.
    await limiter.reward("spare", late);
    expect(await passing(limiter, "spare", late, 5)).toBe(2);
  });

  it("an action it does not know is never limited, and its points are never given back", async () => {
    const limiter = createRateLimiter(database.db, {});
    expect(await passing(limiter, "unknown", { address: "203.0.113.6" }, 10)).toBe(10);
    await expect(limiter.reward("unknown", { address: "203.0.113.6" })).resolves.toBeUndefined();
  });
});
