/**
 * `getSiteSettings` over a stand-in database that counts its reads: a
 * render for the render cache reads the settings once for all its loaders
 * (decision 063), a request without the cache's hints (an action, then
 * the loaders after it) reads them each time, so a page answered after
 * the owner saves shows what she saved.
 */
import pino from "pino";
import { describe, expect, it } from "vitest";
import { requestContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import type { RenderHints } from "~/utils/render-cache";
import { defaultSettings, getSiteSettings } from "./site.server";

/** A database whose `site_settings` holds the owner's name `name()` at each read; `reads` counts them. */
function settingsDatabase(name: () => string) {
  const counter = { reads: 0 };
  const db = {
    select: () => ({
      from: async () => {
        counter.reads += 1;
        return [{ section: "identity", value: { ...defaultIdentity, name: name() } }];
      },
    }),
  } as unknown as Database;
  return { db, counter };
}

const hints = (): RenderHints => ({ validUntil() {}, noStore() {} });
const logger = pino({ level: "silent" });
const defaultIdentity = defaultSettings().identity;

describe("getSiteSettings", () => {
  it("reads the settings once for every loader of one render for the cache, again for the next render", async () => {
    let name = "Marie Dupont";
    const { db, counter } = settingsDatabase(() => name);
    const render = requestContext({ db, logger, renderHints: hints() });
    const [root, page] = await Promise.all([getSiteSettings(render), getSiteSettings(render)]);
    expect(counter.reads).toBe(1);
    expect(page).toBe(root);
    name = "Marie Dupont-Rochat";
    expect((await getSiteSettings(requestContext({ db, logger, renderHints: hints() }))).identity.name).toBe(
      "Marie Dupont-Rochat",
    );
    expect(counter.reads).toBe(2);
  });

  it("reads them at each call of a request without the cache's hints: what an action saved shows at once", async () => {
    let name = "Marie Dupont";
    const { db, counter } = settingsDatabase(() => name);
    const request = requestContext({ db, logger });
    expect((await getSiteSettings(request)).identity.name).toBe("Marie Dupont");
    name = "Marie Dupont-Rochat";
    expect((await getSiteSettings(request)).identity.name).toBe("Marie Dupont-Rochat");
    expect(counter.reads).toBe(2);
  });
});
