/** `/blog/rss.xml`: the RSS 2.0 feed of every article (prerendered at build, with that build's SITE_URL). */
import { getArticles } from "~/blog/articles.server";
import { buildRssFeed } from "~/blog/feed.server";
import { settingsFrom } from "~/config/settings.server";
import type { Route } from "./+types/blog-rss";
import { cachedPage } from "~/utils/render-cache";

export function loader({ context }: Route.LoaderArgs) {
  const xml = buildRssFeed(getArticles(), settingsFrom(context).SITE_URL);
  return new Response(xml, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8" },
  });
}

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: [] });
