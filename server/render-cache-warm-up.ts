/**
 * The render cache's warm-up at start: before the server listens, the
 * pages visited most and the first page of each kind (`warmUpHead`, decision
 * 075); then, in the background, what the sitemap lists, giving way to
 * requests between two pages and stopping before the cache's bound
 * (`warmUpRest`, decision 043). `warmRenderCache` runs both.
 */
// The warm-up gives way between two pages: one turn of the event loop, for the requests that arrived meanwhile.
import { setImmediate as giveWay } from "node:timers/promises";
import { errorFields } from "../app/db/errors.server.ts";
import type { PageRenderer } from "./render-cache.ts";
import { sizeOf } from "./render-cache-store.ts";
import { identityOf } from "./render-cache-bodies.ts";

/** Paths the sitemap leaves out (noindex) that visitors still open. */
const UNLISTED_PAGES = ["/mentions-legales", "/confidentialite", "/coordonnees", "/blog/rss.xml", "/robots.txt"];

/** The pages visited most, rendered first: before the sitemap is even read. */
const FIRST_PAGES = ["/", "/cours", "/blog"];

/**
 * A path no page has: the site's one 404 page (kept once for every unknown path), rendered with the
 * warm-up's head, since robots ask for unknown paths from the first minute.
 */
const UNKNOWN_PATH = "/~";

/**
 * The order of the warm-up: `FIRST_PAGES`, the sitemap, then the sitemap's
 * paths by depth, in its order within one depth (the site's own pages; the
 * courses and the articles, newest first; the blog's further pages and the
 * letters), each once, then the unlisted pages.
 */
export function warmUpOrder(sitemapPaths: readonly string[]): string[] {
  const depth = (path: string) => path.split("/").filter(Boolean).length;
  const listed = sitemapPaths
    .map((path, index) => ({ path, index }))
    .sort((a, b) => depth(a.path) - depth(b.path) || a.index - b.index)
    .map(({ path }) => path);
  return [...new Set([...FIRST_PAGES, "/sitemap.xml", ...listed, ...UNLISTED_PAGES])];
}

/**
 * The paths of a sitemap's `<loc>` addresses, in its order. The site's own
 * sitemap (app/seo/sitemap.server.ts) is read with one regular expression,
 * not an XML parser: `parseSitemap` held the event loop 40–140 ms of CPU in
 * one task for 1,000 to 5,000 entries, this 1–9 ms. Its addresses escape
 * only `&` (`&amp;`), which no path of the site holds.
 */
export function pathsOfSitemap(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!.replaceAll("&amp;", "&")).pathname);
}

/**
 * A path's kind for the warm-up's head: its first segment, its depth and its last segment's file
 * extension (`/blog/un-article` and `/blog/un-autre` alike, `/blog/rss.xml` apart).
 */
const kindOf = (path: string) => {
  const segments = path.split("/").filter(Boolean);
  return `${segments[0] ?? ""}/${segments.length}${/\.[a-z]+$/.exec(segments.at(-1) ?? "")?.[0] ?? ""}`;
};

/**
 * The paths the warm-up renders before the server listens: of `order` (`warmUpOrder`'s, which
 * starts with `FIRST_PAGES` and the sitemap, each a kind of its own) the first path of each kind
 * (every page one segment deep, which has a route of its own; a course, the newest article, the
 * blog's second page, a letter, the feed), and the 404 page: the pages of one kind share their
 * route's code, whose first render is the costly one.
 */
export function headOf(order: readonly string[]): string[] {
  const seen = new Set<string>();
  const firsts = order.filter((path) => {
    const kind = kindOf(path);
    if (seen.has(kind)) return false;
    seen.add(kind);
    return true;
  });
  return [...firsts, UNKNOWN_PATH];
}

/** What `warmUpHead` did, for `warmUpRest`: the pages kept so far and the whole order. */
export interface WarmUpState {
  kept: number;
  largest: number;
  order: string[];
  rendered: Set<string>;
}

/**
 * Renders `path` for the cache after one turn of the event loop and once no other render is in
 * progress (a visitor's goes first: `PageRenderer.idle`); counts it in `state` when kept.
 */
async function warm(renderer: PageRenderer, state: WarmUpState, path: string) {
  await giveWay();
  await renderer.idle();
  state.rendered.add(path);
  const page = renderer.pageOf(path);
  const answer = page ? await renderer.answer(page) : undefined;
  if (answer?.kept) {
    state.kept += 1;
    state.largest = Math.max(state.largest, sizeOf(answer));
  }
  return answer;
}

/**
 * The warm-up's head, awaited before the server listens (decision 075): `/`, `/cours`, `/blog`, the
 * sitemap and the first page of each kind it lists (`headOf`). A process's first render of a route
 * runs its code for the first time, uncompiled by V8 (`/` about 200 ms of CPU, a course's page about
 * 100, where a later render takes under 50): rendered here, no visitor and no static file waits
 * behind them, and the background's renders are of warm code. Failures are logged (no data) and end
 * the head; the rest still runs. Resolves with the state `warmUpRest` continues from.
 */
export async function warmUpHead(renderer: PageRenderer): Promise<WarmUpState> {
  const state: WarmUpState = { kept: 0, largest: 0, order: [...FIRST_PAGES, "/sitemap.xml"], rendered: new Set() };
  try {
    for (const path of FIRST_PAGES) await warm(renderer, state, path);
    const sitemap = await warm(renderer, state, "/sitemap.xml");
    state.order = warmUpOrder(sitemap?.status === 200 ? pathsOfSitemap(identityOf(sitemap).toString("utf8")) : []);
    for (const path of headOf(state.order)) if (!state.rendered.has(path)) await warm(renderer, state, path);
  } catch (error) {
    renderer.logger.warn({ err: errorFields(error) }, "render cache: warm-up stopped");
  }
  return state;
}

/**
 * The rest of the warm-up, in the background (decision 043): every path of `state.order` not
 * rendered yet, one after the other, giving way to requests between two pages, so that the first
 * visitors find them ready and the site answers meanwhile. Stops before the cache would drop a page
 * it kept (when the room left in memory and on disk is less than twice the largest page kept so far). Failures are logged
 * (no data) and stop it. Resolves with the number of pages kept in all.
 */
export async function warmUpRest(renderer: PageRenderer, state: WarmUpState): Promise<number> {
  const { cache } = renderer;
  const full = () => cache.nearlyFull(2 * state.largest);
  try {
    for (const path of state.order) {
      if (state.rendered.has(path)) continue;
      if (full()) {
        renderer.logger.info(`render cache: warm-up stopped with the cache near its bound (${state.kept} pages kept)`);
        break;
      }
      await warm(renderer, state, path);
    }
  } catch (error) {
    renderer.logger.warn({ err: errorFields(error) }, "render cache: warm-up stopped");
  }
  return state.kept;
}

/**
 * The whole warm-up in one call (`warmUpHead` then `warmUpRest`): the pages visited most first
 * (`warmUpOrder`), then what the sitemap lists. Resolves with the number of pages kept.
 */
export async function warmRenderCache(renderer: PageRenderer): Promise<number> {
  return warmUpRest(renderer, await warmUpHead(renderer));
}
