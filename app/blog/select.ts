/**
 * Which articles to show where: pure functions over lists of cards, newest
 * first (as `app/blog/store.server.ts` reads them), and the blog's pages.
 */
import { pageCount as pagesOf } from "~/components/pages";
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

/** Number of index pages for `total` articles (at least 1): the pager's `pageCount` at 12 a page. */
export function pageCount(total: number, perPage = ARTICLES_PER_PAGE): number {
  return pagesOf(total, perPage);
}
