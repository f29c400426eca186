/**
 * What every loader, action and middleware reads from `context`: typed
 * values through React Router's `createContext`, set by the Express server
 * (`server/app.ts`, `getLoadContext`) in a `RouterContextProvider`, read
 * with `context.get(dbContext)`. None is optional: reading a value that was
 * not set throws ("No value found for context"), so a page rendered for the
 * render cache, which gets only what carries nothing of a visitor
 * (`CacheRenderValues`), fails loudly if it reads a visitor's address.
 * The one optional value is `renderHintsContext` (null unless the page is
 * rendered for the cache). `ownerContext` is set by the desk's guard
 * middleware (app/desk/guard.server.ts). Decision 032.
 *
 * The keys are made once per process and kept on `globalThis`: the
 * compiled Express server (build/start) and React Router's build each
 * bundle their own copy of this module, and Vite reloads it in development;
 * every copy must read and write the same keys.
 */
import type { Logger } from "pino";
import { createContext, RouterContextProvider, type RouterContext } from "react-router";
import type { Settings } from "./config/settings.server";
import type { Database } from "./db/client.server";
import type { DeskAuth } from "./desk/auth.server";
import type { DeskLive } from "./desk/live.server";
import type { RateLimiter } from "./guards/rate-limiter";
import type { RenderHints } from "./utils/render-cache";

/** A loader's or action's context. */
export type RequestContext = Readonly<RouterContextProvider>;

/** The clock every business decision reads ("is this session past?", "when was it sent?"). */
export interface Clock {
  /** The current moment. */
  now(): Date;
}

/** The system's clock. */
export const systemClock: Clock = { now: () => new Date() };

/** The signed-in owner, as desk pages see it (set by the desk's guard middleware). */
export interface Owner {
  userId: string;
  email: string;
  name: string;
  sessionId: string;
}

/** Every value of a request's context, by name. */
export interface RequestValues {
  /** Validated environment settings (app/config/settings.server.ts). */
  settings: Settings;
  /** The open database. */
  db: Database;
  logger: Logger;
  /** Asks the outbox worker to run now (after a mail was queued). */
  wakeOutbox: () => void;
  clock: Clock;
  /** The owner's sign-in (app/desk/auth.server.ts). */
  auth: DeskAuth;
  /** The desk's event streams of this process (app/desk/live.server.ts). */
  deskLive: DeskLive;
  /** Counts public actions and failed sign-ins, in the database (server/rate-limit.ts). */
  rateLimit: RateLimiter;
  /** The client's address (the proxy's `X-Forwarded-For` when the proxy is on loopback). */
  clientAddress: string;
  /** This request's Content-Security-Policy nonce (server/security.ts). */
  cspNonce: string;
  /** True for a single-fetch data request (path ending in `.data`). */
  dataRequest: boolean;
}

/**
 * What a page rendered for the render cache gets (server/render-cache.ts):
 * nothing of a visitor, and the hints by which a loader says when its
 * answer expires or that it must not be kept (app/utils/render-cache.ts).
 */
export type CacheRenderValues = Pick<RequestValues, "settings" | "db" | "logger" | "clock"> & {
  renderHints: RenderHints;
};

type Keys = { [K in keyof RequestValues]: RouterContext<RequestValues[K]> } & {
  renderHints: RouterContext<RenderHints | null>;
  owner: RouterContext<Owner>;
};

const KEYS = Symbol.for("formation-assistance-informatique.request-context");
const keys: Keys = ((globalThis as { [KEYS]?: Keys })[KEYS] ??= {
  settings: createContext<Settings>(),
  db: createContext<Database>(),
  logger: createContext<Logger>(),
  wakeOutbox: createContext<() => void>(),
  clock: createContext<Clock>(),
  auth: createContext<DeskAuth>(),
  deskLive: createContext<DeskLive>(),
  rateLimit: createContext<RateLimiter>(),
  clientAddress: createContext<string>(),
  cspNonce: createContext<string>(),
  dataRequest: createContext<boolean>(),
  // A default of `undefined` would count as none (`get` would throw): null, when not rendering for the cache.
  renderHints: createContext<RenderHints | null>(null),
  owner: createContext<Owner>(),
});

export const settingsContext = keys.settings;
export const dbContext = keys.db;
export const loggerContext = keys.logger;
export const wakeOutboxContext = keys.wakeOutbox;
export const clockContext = keys.clock;
export const authContext = keys.auth;
export const deskLiveContext = keys.deskLive;
export const rateLimitContext = keys.rateLimit;
export const clientAddressContext = keys.clientAddress;
export const cspNonceContext = keys.cspNonce;
export const dataRequestContext = keys.dataRequest;
/** Present only when the page is rendered for the render cache (server/render-cache.ts). */
export const renderHintsContext = keys.renderHints;
/** The signed-in owner: set by the desk's guard middleware, read by desk actions that audit. */
export const ownerContext = keys.owner;

/**
 * A request's context holding `values` (each given one set under its key).
 * The Express server gives every `RequestValues`; the render cache
 * `CacheRenderValues`; a test what the code under test reads.
 */
export function requestContext(values: Partial<RequestValues> & { renderHints?: RenderHints }): RouterContextProvider {
  const context = new RouterContextProvider();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) context.set(keys[name as keyof Keys] as RouterContext<unknown>, value);
  }
  return context;
}
