/**
 * Which requests the render cache answers, under which key
 * (`cacheablePage`): the routes that opt in (their `handle`'s policy,
 * app/utils/render-cache.ts), each spelling React Router treats alike
 * sharing one key, the declared query parameters, the one kept 404.
 */
import type { ServerBuild } from "react-router";
import { renderCachePolicy, type RenderCachePolicy } from "../app/utils/render-cache.ts";
import { matchesOf, type RouteNode } from "./doors.ts";

/** What a cacheable path is: its key (the canonical path and declared query) and the route's policy. */
export interface CacheablePage {
  key: string;
  tags: ReadonlySet<string>;
  /** The key without its query, when it has one (the page a value it does not know is answered). */
  bare?: string;
  /** The declared query parameters of the key, with their value. */
  query?: [string, string][];
  /** The status the page is kept with: 404 for the site's « page introuvable », else 200. */
  status: 200 | 404;
}

/** Characters of a canonical page path: the site's addresses are lowercase ASCII slugs. */
const CANONICAL_PATH = /^\/[a-z0-9\-/._]*$/;

/**
 * The cache key of a request, when its deepest route opts in: the path
 * percent-decoded, in lowercase, without a trailing slash (every spelling
 * React Router treats alike shares one entry and one render), then the
 * route's declared query parameters in its order (first value each).
 * Null for anything else: another route, a single-fetch `.data` request, a
 * path with characters no page of the site has, an encoded slash, a path
 * whose canonical form reaches another route.
 */
export function cacheablePage(
  tree: RouteNode[],
  build: Pick<ServerBuild, "routes"> & Partial<Pick<ServerBuild, "routeDiscovery">>,
  originalUrl: string,
): CacheablePage | null {
  const matches = matchesOf(tree, originalUrl);
  const leaf = matches?.at(-1)?.route;
  if (!matches || !leaf) return null;
  const policy = renderCachePolicy(build.routes[leaf.id!]?.module.handle);
  if (!policy) return null;
  let url: URL;
  let pathname: string;
  try {
    url = new URL(`http://localhost${originalUrl}`);
    // An encoded slash stays inside its segment for React Router (`/cours/..%2fcontact` is the course
    // "../contact"), but decoded it would make a key that a render resolves to another page.
    if (/%2f/i.test(url.pathname)) return null;
    pathname = decodeURIComponent(url.pathname).toLowerCase();
  } catch {
    return null;
  }
  if (pathname.endsWith(".data")) return null;
  const tags = new Set<string>();
  for (const match of matches) {
    for (const tag of renderCachePolicy(build.routes[match.route.id!]?.module.handle)?.tags ?? []) tags.add(tag);
  }
  // The site's 404: one page for every path this route matches, rendered at its own path (which must reach it),
  // but React Router's own answer to the browser's route discovery (`/__manifest`), which this route matches too.
  if (policy.notFoundPath) {
    if (pathname === (build.routeDiscovery?.manifestPath ?? "/__manifest").toLowerCase()) return null;
    return matchesOf(tree, policy.notFoundPath)?.at(-1)?.route.id === leaf.id
      ? { key: policy.notFoundPath, tags, status: 404 }
      : null;
  }
  if (!CANONICAL_PATH.test(pathname)) return null;
  if (pathname.length > 1 && pathname.endsWith("/")) pathname = pathname.slice(0, -1);
  // The canonical path is what gets rendered: it must reach the very route that opted in (a safety net
  // for any decoding that would lead elsewhere, beside the encoded slash refused above).
  if (matchesOf(tree, pathname)?.at(-1)?.route.id !== leaf.id) return null;
  const query = declaredQuery(url, policy);
  if (query.length === 0) return { key: pathname, tags, status: 200 };
  return { key: `${pathname}?${new URLSearchParams(query).toString()}`, tags, bare: pathname, query, status: 200 };
}

/** The route's declared query parameters present in `url`, in the route's order, first value each. */
function declaredQuery(url: URL, policy: RenderCachePolicy): [string, string][] {
  const query: [string, string][] = [];
  for (const name of policy.searchParams ?? []) {
    const value = url.searchParams.get(name);
    if (value !== null) query.push([name, value]);
  }
  return query;
}
