/** `/robots.txt`: lets every crawler in and names the sitemap (prerendered at build, with that build's SITE_URL). */
import { buildRobotsTxt } from "~/seo/sitemap.server";
import type { Route } from "./+types/robots";
import { cachedPage } from "~/utils/render-cache";
import { settingsContext } from "~/context.server";

export function loader({ context }: Route.LoaderArgs) {
  return new Response(buildRobotsTxt(context.get(settingsContext).SITE_URL), {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: [] });
