/**
 * Every path no other route matches. Its loader answers 404, so that the
 * root loader runs first and the root error boundary shows the 404 page
 * with the site's header and footer (an unmatched path would run no loader).
 * That page is the same for every path: the render cache keeps it once and
 * answers it to all of them (a flood of new addresses renders nothing).
 */
import { NotFound } from "~/root";
import { notFound } from "~/seo/page-meta.server";
import { cachedPage } from "~/utils/render-cache";
import type { Route } from "./+types/not-found";

/** Kept in the render cache (app/utils/render-cache.ts) under one path, answered to every path of this route. */
export const handle = cachedPage({ tags: [], notFoundPath: "/page-introuvable" });

export function loader({ context, request }: Route.LoaderArgs): never {
  throw notFound(context, request, {
    title: "Page introuvable",
    description: "Cette page n’existe pas ou n’existe plus.",
  });
}

/** Never shown (the loader always throws); a component keeps this a page route, not a resource route. */
export default function NotFoundRoute() {
  return <NotFound />;
}
