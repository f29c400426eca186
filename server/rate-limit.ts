/**
 * The rate limits of the public actions and of the desk's sign-in, counted
 * in the database (rate-limiter-flexible's Drizzle store, table
 * `rate_limits`), so that several server processes on one PostgreSQL share
 * them, and a restart forgets nothing.
 *
 * `createRateLimiter(db, limits)` returns the `RateLimiter` of
 * `app/guards/public-action.server.ts`; `limits` gives, for each action
 * name, at most `limit` points per `windowMs`. An attempt is counted
 * before it is checked (`consume`: one atomic upsert per key, so that
 * attempts sent at once cannot all slip under the limit); a point may be
 * given back afterwards (`reward`, for an attempt that turned out not to
 * be a failure). An address counts by its /56 network when it is IPv6
 * (express-rate-limit's `ipKeyGenerator`, so that one host cannot rotate
 * addresses); an account counts by its lower-cased e-mail (or its id);
 * both are stored hashed (SHA-256): the table holds neither an IP address
 * nor an e-mail. An action it does not know is never limited. When the
 * database does not answer, the limit lets the request through (logged once
 * for the whole outage: app/db/outage.server.ts): the action then fails on
 * its own write, with its own message (never a 500 because of a counter).
 */
import { createHash } from "node:crypto";
import { ipKeyGenerator } from "express-rate-limit";
import type { Logger } from "pino";
import { and, eq, gt, sql } from "drizzle-orm";
import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { Database } from "../app/db/client.server.ts";
import { rateLimits } from "../app/db/schema.ts";
import type { LimitKeys, RateLimiter } from "../app/guards/public-action.server.ts";
import { errorFields } from "../app/db/errors.server.ts";
import { databaseDown } from "../app/db/outage.server.ts";

export interface ActionLimit {
  /** Points (requests, or failures) allowed per window. */
  limit: number;
  windowMs: number;
}

const digest = (value: string) => createHash("sha256").update(value).digest("base64url");

/** The stored keys of `keys`: `address:…` and `account:…`, hashed (the table holds no address). */
function storedKeys({ address, account }: LimitKeys): string[] {
  return [
    ...(address ? [`address:${digest(ipKeyGenerator(address))}`] : []),
    ...(account ? [`account:${digest(account.trim().toLowerCase())}`] : []),
  ];
}

/**
 * The site's `RateLimiter` on `db`, for the actions of `limits`; `logger`
 * receives the error line when the database does not answer.
 */
export function createRateLimiter(db: Database, limits: Record<string, ActionLimit>, logger?: Logger): RateLimiter {
  const limiters = new Map(
    Object.entries(limits).map(([action, { limit, windowMs }]) => [
      action,
      new RateLimiterDrizzle({
        storeClient: db,
        schema: rateLimits,
        keyPrefix: action,
        points: limit,
        duration: Math.max(1, Math.round(windowMs / 1000)),
        // Expired rows are deleted by the daily maintenance job (app/desk/retention.server.ts).
        clearExpiredByTimeout: false,
      }),
    ]),
  );

  /** Adds one point to `key`; true when the allowance is passed. Throws the store's error. */
  async function consume(limiter: RateLimiterDrizzle, key: string): Promise<boolean> {
    try {
      await limiter.consume(key);
      return false;
    } catch (error) {
      if (error instanceof RateLimiterRes) return true;
      throw error;
    }
  }

  /**
   * Takes one point off `key`, within its current window and never below
   * zero. (rate-limiter-flexible's own `reward` upserts minus one: on a
   * row whose window has ended it would start the next window with a
   * point to spare.)
   */
  async function giveBack(limiter: RateLimiterDrizzle, key: string): Promise<void> {
    await db
      .update(rateLimits)
      .set({ points: sql`${rateLimits.points} - 1` })
      .where(and(eq(rateLimits.key, limiter.getKey(key)), gt(rateLimits.points, 0), gt(rateLimits.expire, new Date())));
  }

  /** Lets the request through; logged, but once for a whole outage (app/db/outage.server.ts). */
  async function failOpen(action: string, error: unknown): Promise<false> {
    if (logger && (await databaseDown(db, logger, error))) return false;
    logger?.error({ action, err: errorFields(error) }, "rate limit: the database did not answer, request let through");
    return false;
  }

  return {
    async consume(action, keys) {
      const limiter = limiters.get(action);
      if (!limiter) return { limited: false };
      try {
        const passed = await Promise.all(storedKeys(keys).map((key) => consume(limiter, key)));
        return { limited: passed.some(Boolean) };
      } catch (error) {
        return { limited: await failOpen(action, error) };
      }
    },
    async reward(action, keys) {
      const limiter = limiters.get(action);
      if (!limiter) return;
      try {
        await Promise.all(storedKeys(keys).map((key) => giveBack(limiter, key)));
      } catch (error) {
        await failOpen(action, error);
      }
    },
  };
}
