/**
 * Which articles to show where: pure functions over the list, newest first
 * (as `getArticles()` returns it).
 */
import type { ArticleSummary } from "./types";

/** Articles per page of the blog index (spec: grid "Tous les articles"). */
export const ARTICLES_PER_PAGE = 12;

/** Only the card fields of an article (drops the body). */
export function summarize<T extends ArticleSummary>(article: T): ArticleSummary {
  const { slug, title, excerpt, category, date, dateLabel, updated, updatedLabel } = article;
  const { readTime, author, icon, color, featured, video } = article;
  return {
    slug,
    title,
    excerpt,
    category,
    date,
    dateLabel,
    ...(updated && updatedLabel ? { updated, updatedLabel } : {}),
    readTime,
    author,
    icon,
    color,
    featured,
    ...(video ? { video } : {}),
  };
}

/**
 * Up to `count` other articles (spec: 2): the same category first, then the
 * most recent others; each group newest first.
 */
export function relatedArticles<T extends ArticleSummary>(article: ArticleSummary, all: readonly T[], count = 2): T[] {
  const others = all.filter((other) => other.slug !== article.slug);
  const sameCategory = others.filter((other) => other.category === article.category);
  const rest = others.filter((other) => other.category !== article.category);
  return [...sameCategory, ...rest].slice(0, count);
}

/** The featured article (the newest featured one), if any. */
export function featuredArticle<T extends ArticleSummary>(all: readonly T[]): T | undefined {
  return all.find((article) => article.featured);
}

/** The home page's cards: the featured article first, then the most recent. */
export function homeArticles<T extends ArticleSummary>(all: readonly T[], count = 3): T[] {
  const featured = featuredArticle(all);
  return (featured ? [featured, ...all.filter((article) => article !== featured)] : [...all]).slice(0, count);
}

/** Number of index pages for `total` articles (at least 1). */
export function pageCount(total: number, perPage = ARTICLES_PER_PAGE): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** The articles of index page `page` (1-based), or null when the page does not exist. */
export function pageOf<T>(all: readonly T[], page: number, perPage = ARTICLES_PER_PAGE): T[] | null {
  if (!Number.isInteger(page) || page < 1 || page > pageCount(all.length, perPage)) return null;
  return all.slice((page - 1) * perPage, page * perPage);
}
