/**
 * The blog's RSS 2.0 feed, made with the `feed` library: the articles given
 * (the newest `FEED_ARTICLES`, newest first), each with its summary and a
 * link to its page (not its body: the feed stays small however long the
 * archive), absolute links built on `siteUrl` (the `SITE_URL` setting, an
 * origin without trailing slash).
 */
import { Feed } from "feed";
import { blogSection } from "~/content/home";
import { siteName } from "~/content/site-name";
import type { ArticleSummary } from "./types";

/** How many articles the feed carries: the newest (issue 34: ≤ 500 KB whatever the archive). */
export const FEED_ARTICLES = 20;

/** The RSS XML of `articles` (their first `FEED_ARTICLES`). */
export function buildRssFeed(articles: readonly ArticleSummary[], siteUrl: string): string {
  const newest = articles[0];
  const feed = new Feed({
    title: `${blogSection.title} | ${siteName}`,
    description: blogSection.intro,
    id: `${siteUrl}/blog`,
    link: `${siteUrl}/blog`,
    language: "fr-CH",
    copyright: siteName,
    updated: newest ? new Date(`${newest.date}T00:00:00Z`) : undefined,
    generator: siteName,
    feedLinks: { rss: `${siteUrl}/blog/rss.xml` },
  });
  for (const article of articles.slice(0, FEED_ARTICLES)) {
    const link = `${siteUrl}/blog/${article.slug}`;
    feed.addItem({
      title: article.title,
      id: link,
      link,
      date: new Date(`${article.date}T00:00:00Z`),
      description: article.excerpt,
      category: [{ name: article.category }],
      author: [{ name: article.author }],
    });
  }
  return feed.rss2();
}
