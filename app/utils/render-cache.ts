/**
 * What a public page tells the render cache (`server/render-cache.ts`,
 * docs/decisions/018-one-render-cache.md), without depending on it.
 *
 * - A route opts in with its `handle`: `export const handle = cachedPage({
 *   tags: ["courses"] })`. Only a route whose own (deepest) module says so is
 *   kept; desk pages, token pages and anything personal never do. The tags
 *   name what the page shows that changes while the site runs; the database
 *   announces each change of a tag in the transaction that makes it
 *   (migration 0008's triggers), and every server process drops the pages
 *   carrying it. `searchParams` lists the query parameters the page reads;
 *   every other one is ignored (it never reaches the loader of a cached
 *   page, so `?fbclid=…` shares one entry with the bare address).
 * - A loader may say, through `renderHintsContext` (app/context.server.ts), when its page changes
 *   by time alone (`validUntil`: a session starts, the year turns), that
 *   this answer must not be kept (`noStore`: a query value that names
 *   nothing), and which query values name something (`queryChoices`).
 *   `renderHints` is absent when the answer is not for the cache.
 */

/** What a cached page may show that changes while the site runs, each announced by the database. */
export const RENDER_TAGS = ["courses", "letters", "articles", "pictures"] as const;
export type RenderTag = (typeof RENDER_TAGS)[number];

/**
 * Announced when the owner's settings change (Réglages, migration 0015): every page shows them (the
 * footer's name, the header's telephone), so every process drops its whole cache; no page declares it.
 */
export const SITE_WIDE_TAG = "settings";

/** The render-cache part of a route's `handle`. */
export interface RenderCachePolicy {
  tags: readonly RenderTag[];
  /**
   * Query parameters the page reads (their first value is part of the cache key). A value the
   * loader did not name among its `queryChoices` is answered the page without it.
   */
  searchParams?: readonly string[];
  /**
   * The route answers one 404 page whatever the path (the site's « page introuvable »): rendered
   * once at this path, which only this route matches, kept, and answered to every path it matches.
   */
  notFoundPath?: string;
}

/** The `handle` of a public route whose answer is kept in the render cache. */
export function cachedPage(policy: RenderCachePolicy = { tags: [] }): { renderCache: RenderCachePolicy } {
  return { renderCache: policy };
}

/** The render cache policy of a route's `handle`, if it has one. */
export function renderCachePolicy(handle: unknown): RenderCachePolicy | undefined {
  return (handle as { renderCache?: RenderCachePolicy } | undefined)?.renderCache;
}

/** Given to the loaders of a page rendered for the cache (`renderHintsContext`). */
export interface RenderHints {
  /** The page shows something that changes at `moment` with no database change (the earliest one wins). */
  validUntil(moment: Date | string | number): void;
  /** This answer must not be kept (it is still served). */
  noStore(): void;
  /**
   * The values of the declared query parameter `name` that make a page of their own (the course
   * page's upcoming sessions); given by the page rendered without it, whose kept answer then serves
   * any other value without a render. Not given: every value is rendered.
   */
  queryChoices?(name: string, values: readonly string[]): void;
}
