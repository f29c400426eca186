/**
 * Which articles to show where: pure functions over lists of cards, newest
 * first (as `app/blog/store.server.ts` reads them), and the blog's pages.
 */
import type { ArticleSummary } from "./types";

/** Articles per page of the blog index (spec: grid "Tous les articles"). */
export const ARTICLES_PER_PAGE = 12;

/** The featured article (the newest featured one), if any. */
export function featuredArticle<T extends ArticleSummary>(all: readonly T[]): T | undefined {
  return all.find((article) => article.featured);
}

/** How many cards the home page shows. */
export const HOME_ARTICLES = 3;

/**
 * The home page's cards: the featured article first, then the most recent
 * (`all` newest first; an article listed twice, by the same slug, counts once).
 */
export function homeArticles<T extends ArticleSummary>(all: readonly T[], count = HOME_ARTICLES): T[] {
  const featured = featuredArticle(all);
  const ordered = featured ? [featured, ...all.filter((article) => article.slug !== featured.slug)] : [...all];
  return ordered
    .filter((article, index) => ordered.findIndex((other) => other.slug === article.slug) === index)
    .slice(0, count);
}

/** Number of index pages for `total` articles (at least 1). */
export function pageCount(total: number, perPage = ARTICLES_PER_PAGE): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/**
 * The page numbers the blog's navigation links to from `page` of `pages`:
 * the first, the last, and those within `around` of the current one; null
 * where numbers are left out (shown as « … »). E.g. page 5 of 9:
 * `[1, null, 4, 5, 6, null, 9]`; a gap of one number shows the number.
 */
export function pagesAround(page: number, pages: number, around = 1): (number | null)[] {
  const shown: (number | null)[] = [];
  for (let number = 1; number <= pages; number++) {
    const near = Math.abs(number - page) <= around;
    const edge = number === 1 || number === pages;
    // A gap of a single number: the number itself is shorter than « … ».
    const lone = Math.abs(number - page) === around + 1 && (number === 2 || number === pages - 1);
    if (near || edge || lone) shown.push(number);
    else if (shown.at(-1) !== null) shown.push(null);
  }
  return shown;
}
