/** The rate limiter's shape, as the request context carries it (its implementation: server/rate-limit.ts). */

/** Who a limit counts: the client's address, an account (its e-mail, or its id), or both (each counted on its own). */
export interface LimitKeys {
  address?: string;
  account?: string;
}

/**
 * What the server gives actions to count attempts (server/rate-limit.ts, in
 * the database). An attempt is counted before it is checked, never after:
 * "is it blocked?" then "count this failure" lets attempts sent at once
 * all pass the question before any of them is counted.
 */
export interface RateLimiter {
  /**
   * Adds one point to each key of `action`, atomically (one upsert per
   * key); `limited` when any key has now passed the action's allowance.
   */
  consume(action: string, keys: LimitKeys): Promise<{ limited: boolean }>;
  /**
   * Gives back the point `consume` took on each key (an attempt that was
   * not a failure), never below zero and never into a later window.
   */
  reward(action: string, keys: LimitKeys): Promise<void>;
}
