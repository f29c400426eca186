/** What the Express server passes to every loader and action (`context`). */
import type { Logger } from "pino";
import type { Settings } from "./config/settings.server";
import type { Database } from "./db/client.server";
import type { RateLimiter } from "./guards/public-action.server";
import type { DeskAuth } from "./desk/auth.server";
import type { DeskLive } from "./desk/live.server";
import type { RenderHints } from "./utils/render-cache";

declare module "react-router" {
  interface AppLoadContext {
    /** Validated settings; absent while prerendering at build time. */
    settings?: Settings;
    /** The open database; absent while prerendering. */
    db?: Database;
    logger?: Logger;
    /** Asks the outbox worker to run now (after a mail was queued, e.g. by a new contact request). */
    wakeOutbox?: () => void;
    /** The client's address (the proxy's `X-Forwarded-For` when the proxy is on loopback). */
    clientAddress?: string;
    /** Counts public actions and failed sign-ins, in the database (server/rate-limit.ts). */
    rateLimit?: RateLimiter;
    /** The owner's sign-in (app/desk/auth.server.ts); absent while prerendering. */
    auth?: DeskAuth;
    /** The desk's event streams of this process (app/desk/live.server.ts); absent while prerendering. */
    deskLive?: DeskLive;
    /** True for a single-fetch data request (path ending in `.data`). */
    dataRequest?: boolean;
    /** This request's Content-Security-Policy nonce (server/security.ts); absent while prerendering. */
    cspNonce?: string;
    /**
     * Present only when the page is rendered for the render cache (server/render-cache.ts): then
     * the request carries no cookie nor visitor header, and the loader may say when its answer
     * expires or that it must not be kept (app/utils/render-cache.ts).
     */
    renderHints?: RenderHints;
  }
}

export {};
