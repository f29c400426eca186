/** What the Express server passes to every loader and action (`context`). */
import type { Logger } from "pino";
import type { Settings } from "../server/env";
import type { Database } from "./db/client.server";

declare module "react-router" {
  interface AppLoadContext {
    /** Validated settings; absent while prerendering at build time. */
    settings?: Settings;
    /** The open database; absent while prerendering. */
    db?: Database;
    logger?: Logger;
    /** Asks the outbox worker to run now (after a new request). */
    wakeOutbox?: () => void;
    /** True when this visitor went past the contact form's rate limit. */
    rateLimited?: boolean;
    /** This request's Content-Security-Policy nonce (server/security.ts); absent while prerendering. */
    cspNonce?: string;
  }
}

export {};
