/**
 * Which requests the render cache answers, under which key
 * (`cacheablePage`): the routes that opt in (their `handle`'s policy,
 * app/utils/render-cache.ts), each spelling React Router treats alike
 * sharing one key, the declared query parameters, the one kept 404, and
 * the single-fetch data requests (`/blog.data?_routes=blog-index`) of the
 * same pages, their `_routes` in a canonical form.
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
  /** A single-fetch data request (`/_root.data`, `/blog.data?_routes=…`): React Router's JSON for a click. */
  data?: boolean;
}

/** The query parameter of a data request naming the routes whose loaders run (React Router's single fetch). */
const ROUTES_PARAM = "_routes";

/** Characters of a canonical page path: the site's addresses are lowercase ASCII slugs. */
const CANONICAL_PATH = /^\/[a-z0-9\-/._]*$/;

/**
 * The cache key of a request, when its deepest route opts in: the path
 * percent-decoded, in lowercase, without a trailing slash (every spelling
 * React Router treats alike shares one entry and one render), then the
 * route's declared query parameters in its order (first value each).
 *
 * A single-fetch data request of such a page (a route with a component,
 * not a resource route nor the 404) is keyed the same way with React
 * Router's data path (`/_root.data` for `/`, else `{path}.data`), then its
 * `_routes` (React Router reads the first value): the ids sorted, each
 * once; absent or empty, every loader runs and the key has none. An id that
 * is not one of the path's routes makes it null (React Router would ignore
 * it: not worth an entry of its own). The declared query parameters count
 * only when the deepest route's loader runs (they are its own).
 *
 * Null for anything else: another route, a path with characters no page of
 * the site has, an encoded slash, a path whose canonical form reaches
 * another route.
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
  // React Router reads the suffix as written: `/blog.DATA` or `/blog%2Edata` is a page path (a 404), not data.
  const data = url.pathname.endsWith(".data");
  if (!data && pathname.endsWith(".data")) return null;
  if (data) pathname = pathname === "/_root.data" ? "/" : pathname.slice(0, -".data".length);
  const tags = new Set<string>();
  for (const match of matches) {
    for (const tag of renderCachePolicy(build.routes[match.route.id!]?.module.handle)?.tags ?? []) tags.add(tag);
  }
  // The site's 404: one page for every path this route matches, rendered at its own path (which must reach it),
  // but React Router's own answer to the browser's route discovery (`/__manifest`), which this route matches too.
  if (policy.notFoundPath) {
    if (data) return null;
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
  if (!data) {
    const query = declaredQuery(url, policy);
    if (query.length === 0) return { key: pathname, tags, status: 200 };
    return { key: withQuery(pathname, query), tags, bare: pathname, query, status: 200 };
  }
  // A resource route (robots.txt, the feed) is no page a click loads.
  if (!build.routes[leaf.id!]?.module.default) return null;
  const routes = loadedRoutes(
    url,
    matches.map((match) => match.route.id!),
  );
  if (routes === null) return null;
  const dataPath = pathname === "/" ? "/_root.data" : `${pathname}.data`;
  const loaded: [string, string][] = routes.length > 0 ? [[ROUTES_PARAM, routes.join(",")]] : [];
  const query = routes.length === 0 || routes.includes(leaf.id!) ? declaredQuery(url, policy) : [];
  const key = withQuery(dataPath, [...query, ...loaded]);
  if (query.length === 0) return { key, tags, status: 200, data };
  return { key, tags, bare: withQuery(dataPath, loaded), query, status: 200, data };
}

/** `path` with `query` as its query string (none when empty). */
const withQuery = (path: string, query: [string, string][]) =>
  query.length === 0 ? path : `${path}?${new URLSearchParams(query).toString()}`;

/**
 * A data request's `_routes`, canonical: the ids of its first value sorted, each once; [] when absent or
 * empty (every loader runs); null when one is not among `matched` (the ids of the path's routes).
 */
function loadedRoutes(url: URL, matched: readonly string[]): string[] | null {
  const value = url.searchParams.get(ROUTES_PARAM);
  if (!value) return [];
  const ids = [...new Set(value.split(","))].sort();
  return ids.every((id) => matched.includes(id)) ? ids : null;
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
