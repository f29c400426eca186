/**
 * `/sitemap.xml`: the sitemap of the indexable pages, made on request (the
 * letters of the newsletter are sent after the build), with the server's
 * SITE_URL.
 */
import { readArticles, sitemapArticles } from "~/blog/store.server";
import { sentLetters } from "~/newsletter/letters.server";
import { buildSitemap, sitemapPages } from "~/seo/sitemap.server";
import type { Route } from "./+types/sitemap";
import { cachedPage } from "~/utils/render-cache";
import { settingsContext, dbContext } from "~/context.server";

export async function loader({ context }: Route.LoaderArgs) {
  const letters = await sentLetters(context.get(dbContext));
  const pages = sitemapPages(await readArticles(context, "sitemap", sitemapArticles), letters);
  const xml = await buildSitemap(pages, context.get(settingsContext).SITE_URL);
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8" },
  });
}

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: ["letters", "articles"] });
