/**
 * `/blog/rss.xml`: the RSS 2.0 feed of the newest published articles (`FEED_ARTICLES`, their summaries), with the
 * server's SITE_URL (kept in the render cache until an article changes).
 */
import { articleCards, readArticles } from "~/blog/store.server";
import { buildRssFeed, FEED_ARTICLES } from "~/blog/feed.server";
import type { Route } from "./+types/blog-rss";
import { cachedPage } from "~/utils/render-cache";
import { settingsContext } from "~/context.server";

export async function loader({ context }: Route.LoaderArgs) {
  const newest = await readArticles(context, "feed", (db, now) => articleCards(db, now, { limit: FEED_ARTICLES }));
  const xml = buildRssFeed(newest, context.get(settingsContext).SITE_URL);
  return new Response(xml, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8" },
  });
}

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: ["articles"] });
