/**
 * Every URL the build prerenders: the blog index and its
 * further pages (`ARTICLES_PER_PAGE` from app/blog/select.ts), each article
 * (one per Markdown file of `blogDirectory`), the legal pages, the feed and
 * robots.txt. The home page is rendered on request (its course cards show
 * the places left, decision 017), and so is the sitemap: it lists the
 * newsletter's letters, sent after the build.
 */
import fs from "node:fs";
import path from "node:path";
import { ARTICLES_PER_PAGE } from "../app/blog/select";

export function publicPaths(blogDirectory = process.env.BLOG_CONTENT_DIR ?? path.join("app", "content", "blog")) {
  const slugs = fs
    .readdirSync(blogDirectory)
    .filter((name) => name.endsWith(".md"))
    .map((name) => name.slice(0, -3));
  const pages = Math.max(1, Math.ceil(slugs.length / ARTICLES_PER_PAGE));
  return [
    "/blog",
    ...Array.from({ length: pages - 1 }, (_, index) => `/blog/page/${index + 2}`),
    ...slugs.map((slug) => `/blog/${slug}`),
    "/mentions-legales",
    "/confidentialite",
    "/blog/rss.xml",
    "/robots.txt",
  ];
}
