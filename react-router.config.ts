import fs from "node:fs";
import path from "node:path";
import type { Config } from "@react-router/dev/config";
import { checkPrerenderedPages, htmlFiles } from "./scripts/page-metadata";
import { precompressAssets, precompressFiles } from "./scripts/precompress";
import { writeBuildSiteUrl } from "./server/build-info";
import { loadSettings } from "./server/env";

// Prerendered pages carry SITE_URL (canonical URLs, share tags, sitemap, feed): read `.env` as the server does
// (variables already set in the environment win).
if (fs.existsSync(".env")) process.loadEnvFile(".env");

/** The SITE_URL a build made now would use (environment, then `.env`, then the default). */
export function builtSiteUrl(): string {
  return loadSettings().SITE_URL;
}

/** Articles per index page; keep equal to ARTICLES_PER_PAGE in app/blog/select.ts (a test checks). */
export const ARTICLES_PER_PAGE = 12;

/**
 * Every prerendered URL: the home page, the blog index and its pages, each
 * article, the legal pages, the feed, the sitemap and robots.txt.
 */
export function publicPaths(blogDirectory = process.env.BLOG_CONTENT_DIR ?? path.join("app", "content", "blog")) {
  const slugs = fs
    .readdirSync(blogDirectory)
    .filter((name) => name.endsWith(".md"))
    .map((name) => name.slice(0, -3));
  const pages = Math.max(1, Math.ceil(slugs.length / ARTICLES_PER_PAGE));
  return [
    "/",
    "/blog",
    ...Array.from({ length: pages - 1 }, (_, index) => `/blog/page/${index + 2}`),
    ...slugs.map((slug) => `/blog/${slug}`),
    "/mentions-legales",
    "/confidentialite",
    "/blog/rss.xml",
    "/sitemap.xml",
    "/robots.txt",
  ];
}

/**
 * React Router framework configuration.
 * SSR stays on (route actions, the 404 page, the server-rendered contact
 * details view); every public page is also prerendered to static HTML at
 * build time and served as a file by Express. `BUILD_DIR` and
 * `BLOG_CONTENT_DIR` let tests build elsewhere with other articles.
 * After the build, every prerendered page must have its title, description
 * and (unless noindex) canonical URL, or the build fails
 * (scripts/page-metadata.ts).
 */
export default {
  appDirectory: "app",
  buildDirectory: process.env.BUILD_DIR ?? "build",
  ssr: true,
  async prerender() {
    return publicPaths();
  },
  buildEnd({ reactRouterConfig }) {
    const clientDirectory = path.join(reactRouterConfig.buildDirectory, "client");
    const pages = checkPrerenderedPages(clientDirectory);
    console.log(`Metadata checked on ${pages} prerendered pages.`);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const assets = precompressAssets(path.join(clientDirectory, "assets"));
    console.log(`Precompressed ${assets.files} assets: ${kb(assets.bytes)}, ${kb(assets.brotliBytes)} with brotli.`);
    const html = precompressFiles(htmlFiles(clientDirectory));
    console.log(`Precompressed ${html.files} pages: ${kb(html.bytes)}, ${kb(html.brotliBytes)} with brotli.`);
    // scripts/ensure-build.ts rebuilds, and the server refuses to start, when SITE_URL differs.
    writeBuildSiteUrl(reactRouterConfig.buildDirectory, builtSiteUrl());
  },
} satisfies Config;
