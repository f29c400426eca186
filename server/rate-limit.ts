/**
 * The rate limits of the public actions (`app/guards/public-action.server.ts`
 * asks through `context.rateLimit`): for each action, at most `limit`
 * requests per `windowMs` per client address, counted by express-rate-limit's
 * store (an IPv6 address counts by its /56 network, the library's
 * `ipKeyGenerator`, so that one host cannot rotate addresses).
 *
 * `createRateLimiter({ contact: { limit, windowMs } })` returns a
 * `RateLimiter` whose `hit(action, address)` resolves to `{ limited }`; an
 * action it does not know is never limited. `shutdown()` stops the stores'
 * timers.
 */
import { ipKeyGenerator, MemoryStore, type Options } from "express-rate-limit";
import type { RateLimiter } from "../app/guards/public-action.server.ts";

export interface ActionLimit {
  limit: number;
  windowMs: number;
}

export function createRateLimiter(limits: Record<string, ActionLimit>): RateLimiter & { shutdown(): void } {
  const stores = new Map(
    Object.entries(limits).map(([action, { limit, windowMs }]) => {
      const store = new MemoryStore();
      store.init({ windowMs } as Options);
      return [action, { store, limit }] as const;
    }),
  );
  return {
    async hit(action, clientAddress) {
      const entry = stores.get(action);
      if (!entry) return { limited: false };
      const { totalHits } = await entry.store.increment(`${action}:${ipKeyGenerator(clientAddress)}`);
      return { limited: totalHits > entry.limit };
    },
    shutdown() {
      for (const { store } of stores.values()) store.shutdown();
    },
  };
}
