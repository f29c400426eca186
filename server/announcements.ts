/**
 * The one listener of the database's announcements in a server process
 * (docs/decisions/018-one-render-cache.md, 025-live-desk.md). Every change
 * the site shows while it runs is announced on one channel
 * (`RENDER_CACHE_CHANNEL`, migrations 0008 and 0016), by the transaction
 * that makes it, over one listening connection per process
 * (`OpenDatabase.listen`). The payload says what changed:
 *
 * - `DESK_CHANGE_TAG` ("desk"): something the desk's badges count (a
 *   request, a registration, a subscription, the owner opened a list):
 *   the live desk reads its counts again (`DeskLive.changed`);
 * - anything else is a page tag for the render cache (`RenderCache.invalidate`;
 *   an unknown tag empties it);
 * - every payload reaches the values kept until announced
 *   (app/utils/kept-until-announced.ts), before the cache.
 *
 * A lost connection (notifications may be lost with it) stops the cache
 * from keeping pages until it listens again; once back, the desk reads
 * its counts again, as for a change it may have missed.
 */
import type { Logger } from "pino";
import type { ChannelListener } from "../app/db/client.server.ts";
import { DESK_CHANGE_TAG, type DeskLive } from "../app/desk/live.server.ts";
import { heardAnnouncement, hearingAnnouncements } from "../app/utils/kept-until-announced.ts";
import type { RenderCache } from "./render-cache-store.ts";

export function announcementListener({
  cache,
  desk,
  logger,
}: {
  /** Production only: development renders every page. */
  cache?: RenderCache;
  desk: Pick<DeskLive, "changed">;
  logger: Logger;
}): ChannelListener {
  return {
    message(payload) {
      // Values kept until announced first: a page rendered once the cache dropped it reads them again.
      heardAnnouncement(payload);
      if (payload === DESK_CHANGE_TAG) void desk.changed();
      else cache?.invalidate(payload);
    },
    connected(up) {
      hearingAnnouncements(up);
      if (cache) {
        if (!up) logger.warn("render cache: lost the database's announcements, pages are rendered on each request");
        else if (cache.size === 0 && cache.generation > 0) logger.info("render cache: listening again");
        cache.setListening(up);
      }
      if (up) void desk.changed();
    },
  };
}
