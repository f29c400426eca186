/** `/sitemap.xml`: the sitemap of the indexable pages (prerendered at build, with that build's SITE_URL). */
import { getArticles } from "~/blog/articles.server";
import { settingsFrom } from "~/config/settings.server";
import { buildSitemap, sitemapPages } from "~/seo/sitemap.server";
import type { Route } from "./+types/sitemap";

export async function loader({ context }: Route.LoaderArgs) {
  const xml = await buildSitemap(sitemapPages(getArticles()), settingsFrom(context).SITE_URL);
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}
