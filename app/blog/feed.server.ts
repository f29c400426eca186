/**
 * The blog's RSS 2.0 feed, made with the `feed` library: every article,
 * newest first, with absolute links built on `siteUrl` (the `SITE_URL`
 * setting, an origin without trailing slash).
 */
import { Feed } from "feed";
import { blogSection } from "~/content/home";
import { siteName } from "~/content/site-name";
import type { Article } from "./types";

export function buildRssFeed(articles: readonly Article[], siteUrl: string): string {
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
  for (const article of articles) {
    const link = `${siteUrl}/blog/${article.slug}`;
    feed.addItem({
      title: article.title,
      id: link,
      link,
      date: new Date(`${article.date}T00:00:00Z`),
      description: article.excerpt,
      content: article.html,
      category: [{ name: article.category }],
      author: [{ name: article.author }],
    });
  }
  return feed.rss2();
}
