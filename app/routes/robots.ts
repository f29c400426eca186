/** `/robots.txt`: lets every crawler in and names the sitemap (prerendered at build, with that build's SITE_URL). */
import { settingsFrom } from "~/config/settings.server";
import { buildRobotsTxt } from "~/seo/sitemap.server";
import type { Route } from "./+types/robots";
import { cachedPage } from "~/utils/render-cache";

export function loader({ context }: Route.LoaderArgs) {
  return new Response(buildRobotsTxt(settingsFrom(context).SITE_URL), {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: [] });
