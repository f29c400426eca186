/** `/blog/rss.xml`: the RSS 2.0 feed of every published article, with the server's SITE_URL (kept in the render cache until an article changes). */
import { getArticles } from "~/blog/store.server";
import { buildRssFeed } from "~/blog/feed.server";
import type { Route } from "./+types/blog-rss";
import { cachedPage } from "~/utils/render-cache";
import { settingsContext } from "~/context.server";

export async function loader({ context }: Route.LoaderArgs) {
  const xml = buildRssFeed(await getArticles(context), context.get(settingsContext).SITE_URL);
  return new Response(xml, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8" },
  });
}

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: ["articles"] });
