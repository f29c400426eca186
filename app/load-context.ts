/** What the Express server passes to every loader and action (`context`). */
import type { Settings } from "../server/env";

declare module "react-router" {
  interface AppLoadContext {
    /** Validated settings; absent while prerendering at build time. */
    settings?: Settings;
  }
}

export {};
