/**
 * The sitemap (https://www.sitemaps.org/protocol.html, written with the
 * `sitemap` library) and robots.txt (RFC 9309) of the site.
 *
 * The sitemap lists every public page a search engine should index: `/`,
 * `/contact`, `/rappel`, `/questions`, `/confiance`, `/cours` and each course's `/cours/{slug}` (rendered on
 * request: their seats change), `/blog` and its pages `/blog/page/{n}`, and
 * each article with `<lastmod>` = its `updated` date, else its date;
 * `/newsletter`, its archive and each letter sent (with its date). Left out
 * on purpose: the pages marked `noindex` (the legal notice, the privacy
 * notice, `/coordonnees`, the newsletter's link pages), the owner's desk,
 * the feed, and anything answering 404.
 */
import { Readable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { ErrorLevel, SitemapStream, streamToPromise, type SitemapItemLoose } from "sitemap";
import { pageCount } from "~/blog/select";
import { courses } from "~/content/courses";
import type { ArticleSummary } from "~/blog/types";
import { absoluteUrl } from "~/seo/meta";

/** A page of the sitemap: its path, and for an article the ISO date it was last changed. */
export interface SitemapPage {
  path: string;
  lastmod?: string;
}

/**
 * The indexable pages, given every article (newest first, as `sitemapArticles`
 * gives them) and the letters sent (their archive slug and ISO send time).
 */
export function sitemapPages(
  articles: readonly Pick<ArticleSummary, "slug" | "date" | "updated">[],
  letters: readonly { slug: string; sentAt: string }[] = [],
): SitemapPage[] {
  const pages = pageCount(articles.length);
  return [
    { path: "/" },
    { path: "/contact" },
    { path: "/rappel" },
    { path: "/questions" },
    { path: "/confiance" },
    { path: "/cours" },
    ...courses.map((course) => ({ path: `/cours/${course.id}` })),
    { path: "/blog" },
    ...Array.from({ length: pages - 1 }, (_, index) => ({ path: `/blog/page/${index + 2}` })),
    ...articles.map((article) => ({ path: `/blog/${article.slug}`, lastmod: article.updated ?? article.date })),
    { path: "/newsletter" },
    { path: "/newsletter/archives" },
    ...letters.map((letter) => ({ path: `/newsletter/archives/${letter.slug}`, lastmod: letter.sentAt.slice(0, 10) })),
  ];
}

/**
 * The sitemap XML of `pages`, with absolute URLs on `siteUrl` (the `SITE_URL` setting).
 * @throws Error from the `sitemap` library when an entry is invalid (a bad URL or date).
 */
export async function buildSitemap(pages: readonly SitemapPage[], siteUrl: string): Promise<string> {
  const items: SitemapItemLoose[] = pages.map((page) => ({
    url: absoluteUrl(siteUrl, page.path),
    ...(page.lastmod ? { lastmod: page.lastmod } : {}),
  }));
  const stream = new SitemapStream({
    level: ErrorLevel.THROW,
    lastmodDateOnly: true,
    xmlns: { news: false, video: false, image: false, xhtml: false },
  });
  return (await streamToPromise(Readable.from(inTurns(items)).pipe(stream))).toString("utf8");
}

/** Entries the sitemap writes in one turn of the event loop (5,000 entries: about 50–100 ms of CPU in all). */
const ENTRIES_A_TURN = 250;

/**
 * `items` one by one, a turn of the event loop (`setImmediate`) after every
 * `ENTRIES_A_TURN`: the stream would otherwise write them all in one task,
 * and every request arriving meanwhile would wait for the whole sitemap.
 */
async function* inTurns<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const [index, item] of items.entries()) {
    if (index > 0 && index % ENTRIES_A_TURN === 0) await nextTurn();
    yield item;
  }
}

/** robots.txt: every crawler may read every page but the owner's desk (`/admin`), and learns where the sitemap is. */
export function buildRobotsTxt(siteUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "",
    `Sitemap: ${absoluteUrl(siteUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
}
