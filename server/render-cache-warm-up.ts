/**
 * The render cache's warm-up at start (`warmRenderCache`): the pages
 * visited most first, then what the sitemap lists, giving way to requests
 * between two pages and stopping before the cache's bound (decision 043).
 */
// The warm-up gives way between two pages: one turn of the event loop, for the requests that arrived meanwhile.
import { setImmediate as giveWay } from "node:timers/promises";
import { errorFields } from "../app/db/errors.server.ts";
import { sizeOf, type PageRenderer } from "./render-cache.ts";
import { identityOf } from "./render-cache-bodies.ts";

/** Paths the sitemap leaves out (noindex) that visitors still open. */
const UNLISTED_PAGES = ["/mentions-legales", "/confidentialite", "/coordonnees", "/blog/rss.xml", "/robots.txt"];

/** The pages visited most, rendered first: before the sitemap is even read. */
const FIRST_PAGES = ["/", "/cours", "/blog"];

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
 * Renders the pages visited most first (`warmUpOrder`: `/`, `/cours`,
 * `/blog`, the sitemap, then what it lists), one after the other, giving
 * way to requests between two pages, so that the first visitors find them
 * ready and the site answers meanwhile: what the build's prerendering used
 * to do. Stops before the cache would evict a page it kept (when the room
 * left is less than twice the largest page kept so far). Failures are
 * logged (no data) and skipped. Resolves with the number of pages kept.
 */
export async function warmRenderCache(renderer: PageRenderer): Promise<number> {
  const { cache } = renderer;
  let kept = 0;
  let largest = 0;
  const render = async (path: string) => {
    await giveWay();
    const page = renderer.pageOf(path);
    const answer = page ? await renderer.answer(page) : undefined;
    if (answer?.kept) {
      kept += 1;
      largest = Math.max(largest, sizeOf(answer));
    }
    return answer;
  };
  const full = () => cache.bytes + 2 * largest > cache.maxBytes;
  try {
    for (const path of FIRST_PAGES) await render(path);
    const sitemap = await render("/sitemap.xml");
    const paths = warmUpOrder(
      sitemap?.status === 200 ? pathsOfSitemap(identityOf(sitemap).toString("utf8")) : [],
    ).slice(FIRST_PAGES.length + 1);
    for (const path of paths) {
      if (full()) {
        renderer.logger.info(`render cache: warm-up stopped with the cache near its bound (${kept} pages kept)`);
        break;
      }
      await render(path);
    }
  } catch (error) {
    renderer.logger.warn({ err: errorFields(error) }, "render cache: warm-up stopped");
  }
  return kept;
}
