/**
 * One render cache for every public page (docs/decisions/018-one-render-cache.md).
 *
 * A GET or HEAD of a route whose `handle` is `cachedPage(...)`
 * (app/utils/render-cache.ts) is rendered once, by React Router, from a
 * request that carries nothing of the visitor (no cookie, no header, only
 * the path and the query parameters the route declares), then answered from
 * memory: its brotli and gzip bodies made once, a weak `ETag` (304 on
 * `If-None-Match`), the CSP hashes of its inline scripts. A click's
 * single-fetch data request of such a page (`/blog.data?_routes=…`,
 * server/render-cache-key.ts) is kept the same way beside it, under the same
 * tags. A kept answer is usually sent before Express
 * (server/render-cache-fast.ts); the handler here serves the rest (a miss,
 * the owner's requests, the 404). A kept entry holds its brotli and gzip
 * bodies only (decision 062): the page as rendered is inflated from the gzip
 * one for the rare visitor who accepts neither (`identityOf`), and the
 * cache's bound counts the bytes each entry really holds (`sizeOf`). The
 * entry goes when what it shows changes:
 *
 * - a change in the database: the transaction that makes it announces the
 *   page tags it touches (`NOTIFY render_cache`, migration 0008), delivered
 *   at commit to every server process (`RenderCache.invalidate`);
 * - a moment a loader named (`renderHints.validUntil`: a session starts);
 * - a lost listening connection: the cache is emptied and bypassed until it
 *   listens again (notifications may have been missed meanwhile).
 *
 * A render that was running when its tags changed answers its request but is
 * not kept, nor shared with later requests. Concurrent misses of one page
 * share one render. Answers other than 200, and those a loader marked
 * `noStore`, are served once, not kept. Least recently used entries are
 * evicted beyond `maxBytes`, to disk (server/render-cache-store.ts and
 * render-cache-spill.ts, decision 077), from where they are read back.
 */
import crypto from "node:crypto";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import type { Logger } from "pino";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { RenderHints } from "../app/utils/render-cache.ts";
import { requestContext, type CacheRenderValues } from "../app/context.server.ts";
import { preferredEncoding } from "./accept-encoding.ts";
import { routeTree } from "./doors.ts";
import { cacheablePage, type CacheablePage } from "./render-cache-key.ts";
import { compressedBodies, encodedBody, encodedLength, identityOf } from "./render-cache-bodies.ts";
import type { RenderCache, RenderedPage } from "./render-cache-store.ts";
import { inlineScriptHashes } from "./security.ts";

/**
 * `Cache-Control` of a kept page. Browsers ask each time (`max-age=0,
 * must-revalidate`: a 304 when nothing changed); a CDN may keep it 10 s and
 * answer a stale copy 20 s more while it asks again (docs/deploy.md, "A CDN
 * in front"): a full course shows as open 30 s at worst behind a CDN,
 * 1 s at worst from the site itself.
 */
export const PUBLIC_PAGE_CACHE_CONTROL = "public, max-age=0, must-revalidate, s-maxage=10, stale-while-revalidate=20";

/** `Cache-Control` of a page answered once and not kept (a 404, a `noStore` answer). */
const ANSWERED_ONCE_CACHE_CONTROL = "private, no-cache";

/** The channel the database announces page tags on (migration 0008). */
export const RENDER_CACHE_CHANNEL = "render_cache";

/** Headers the cache sets itself, or that must not be replayed to another visitor. */
const OWN_HEADERS = new Set([
  "cache-control",
  "content-encoding",
  "content-length",
  "etag",
  "set-cookie",
  "transfer-encoding",
  "vary",
]);

/**
 * Builds the answer of a render: kept only when `keep` (status 200, no
 * cookie set, no `noStore`), then compressed (brotli at `BROTLI_QUALITY`,
 * gzip level 9: done once per change), given its ETag, and left with its
 * compressed bodies only.
 */
async function toPage(
  response: Response,
  tags: ReadonlySet<string>,
  expiresAt: number,
  keep: boolean,
): Promise<RenderedPage> {
  const body = Buffer.from(await response.arrayBuffer());
  const kept = keep && !response.headers.has("set-cookie");
  const headers = [...response.headers].filter(([name]) => !OWN_HEADERS.has(name.toLowerCase()));
  const ownCacheControl = response.headers.get("cache-control");
  // An answer served once keeps the route's own cache policy; a kept one gets the cache's.
  if (ownCacheControl && !kept) headers.push(["Cache-Control", ownCacheControl]);
  const html = (response.headers.get("content-type") ?? "").startsWith("text/html");
  const page = {
    status: response.status,
    headers,
    length: body.length,
    scriptSources: html ? inlineScriptHashes(body.toString("utf8")).join(" ") : "",
    tags,
    expiresAt,
    kept,
  };
  if (!kept) return { ...page, body };
  const { brotli, gzip } = await compressedBodies(body);
  return {
    ...page,
    brotli,
    gzip,
    etag: `W/"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
  };
}

/** Sends `page` to one visitor: 304 when their copy is current, else the best encoding they accept. */
function send(req: ExpressRequest, res: ExpressResponse, page: RenderedPage): void {
  res.status(page.status);
  for (const [name, value] of page.headers) res.setHeader(name, value);
  // The policy allows this page's own inline scripts by hash (server/security.ts reads it as headers go);
  // a kept answer without any (data, XML, text) names no nonce either: the same policy for every visitor.
  if (page.scriptSources) res.locals.cspScriptSources = page.scriptSources;
  else if (page.kept) res.locals.cspNonce = undefined;
  if (!page.kept) {
    if (!res.hasHeader("Cache-Control")) res.setHeader("Cache-Control", ANSWERED_ONCE_CACHE_CONTROL);
    // Compressed on the fly by the compression middleware, if at all.
    if (req.method === "HEAD") res.end();
    else res.end(identityOf(page));
    return;
  }
  res.setHeader("Cache-Control", PUBLIC_PAGE_CACHE_CONTROL);
  res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("ETag", page.etag!);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  const encoding = preferredEncoding(req.headers["accept-encoding"]);
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", encodedLength(page, encoding));
  if (req.method === "HEAD") res.end();
  else res.end(encodedBody(page, encoding));
}

export interface RenderCacheOptions {
  build: ServerBuild;
  mode: string;
  cache: RenderCache;
  /** The public origin (`SITE_URL`): a render's URL, never the visitor's `Host`. */
  siteUrl: string;
  /** What every render's loaders get (settings, database, logger, clock): nothing of a visitor. */
  loadContext: () => Omit<CacheRenderValues, "renderHints">;
  logger: Logger;
}

/** Finds and renders the pages of the cache: one per process, shared by the request handler and the warm-up. */
export interface PageRenderer {
  /** The cacheable page `originalUrl` names (see `cacheablePage`), or null; the same object for the same target. */
  pageOf(originalUrl: string): CacheablePage | null;
  /**
   * The page's kept answer, if there is one, without rendering: its own, or for a query value that its
   * bare page's kept answer does not name among its choices, that bare answer (as `answer` gives).
   */
  kept(page: CacheablePage): RenderedPage | undefined;
  /**
   * The page's kept answer, or a render of it shared by every request asking meanwhile. A page
   * with a query value that its bare page's kept answer does not name among its choices
   * (`RenderHints.queryChoices`) gets that bare answer, without a render.
   */
  answer(page: CacheablePage): Promise<RenderedPage>;
  /**
   * Resolves once no render is in progress (at once when none is): the warm-up waits for it before
   * each page, so that a visitor's render does not share the event loop with the warm-up's
   * (decision 075).
   */
  idle(): Promise<void>;
  /** The cache it fills (the warm-up stops before it is full). */
  cache: RenderCache;
  logger: Logger;
}

/** How many request targets' cache keys `pageOf` remembers, and the longest it remembers (characters). */
const PAGES_REMEMBERED = 1000;
const REMEMBERED_URL_LENGTH = 256;

export function createPageRenderer({
  build,
  mode,
  cache,
  siteUrl,
  loadContext,
  logger,
}: RenderCacheOptions): PageRenderer {
  const handle = createRequestHandler(build, mode);
  const tree = routeTree(build.routes);
  /** Renders in progress by key, with the generation they started under. */
  const pending = new Map<string, { generation: number; rendering: Promise<RenderedPage> }>();
  /** Who waits for `pending` to empty (`idle`). */
  let idleWaiters: (() => void)[] = [];

  async function renderOnce({ key, tags, status }: CacheablePage, generation: number): Promise<RenderedPage> {
    let expiresAt = Infinity;
    let noStore = false;
    const queryChoices = new Map<string, ReadonlySet<string>>();
    const renderHints: RenderHints = {
      validUntil(moment) {
        expiresAt = Math.min(expiresAt, new Date(moment).getTime());
      },
      noStore() {
        noStore = true;
      },
      queryChoices(name, values) {
        queryChoices.set(name, new Set(values));
      },
    };
    const request = new Request(new URL(key, siteUrl), { headers: { Accept: "text/html" } });
    const response = await handle(request, requestContext({ ...loadContext(), renderHints }));
    const page = await toPage(response, tags, expiresAt, response.status === status && !noStore && cache.listening);
    if (queryChoices.size > 0) page.queryChoices = queryChoices;
    if (page.kept && !cache.set(key, page, generation)) {
      // What it shows changed while it rendered (or the process stopped listening): this answer only.
      return { ...page, expiresAt: 0 };
    }
    return page;
  }

  function answerKey(page: CacheablePage): Promise<RenderedPage> {
    const kept = cache.get(page.key);
    if (kept) return Promise.resolve(kept);
    // A render that started before the last change may show the data before it: a request that
    // comes after the change does not share it, but starts its own.
    const generation = cache.generation;
    const current = pending.get(page.key);
    if (current?.generation === generation) return current.rendering;
    const rendering = renderOnce(page, generation).finally(() => {
      if (pending.get(page.key)?.rendering === rendering) pending.delete(page.key);
      if (pending.size === 0 && idleWaiters.length > 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const resume of waiters) resume();
      }
    });
    pending.set(page.key, { generation, rendering });
    return rendering;
  }

  /** Whether `page`'s query names a value its bare page's answer does not list among its choices. */
  const namesNothing = (page: CacheablePage, bare: RenderedPage) =>
    page.query!.some(([name, value]) => {
      const choices = bare.queryChoices?.get(name);
      return choices !== undefined && !choices.has(value);
    });

  /**
   * The keys of the last `PAGES_REMEMBERED` targets of 200 pages without a declared query value (forgotten all at
   * once beyond): a kept page is asked for again and again.
   */
  const known = new Map<string, CacheablePage | null>();

  return {
    logger,
    cache,
    idle() {
      return pending.size === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
    },
    pageOf(originalUrl) {
      let page = known.get(originalUrl);
      if (page === undefined) {
        page = cacheablePage(tree, build, originalUrl);
        // Not what a flood of new addresses makes (unknown paths, `?seance=` values): kept in memory, each
        // would outlive the young generation and cost the garbage collector more than its key costs.
        if (!page || page.status !== 200 || page.query || originalUrl.length > REMEMBERED_URL_LENGTH) return page;
        if (known.size >= PAGES_REMEMBERED) known.clear();
        known.set(originalUrl, page);
      }
      return page;
    },
    kept(page) {
      if (page.bare && page.query) {
        const bare = cache.get(page.bare);
        if (bare && namesNothing(page, bare)) return bare;
      }
      return cache.get(page.key);
    },
    async answer(page) {
      if (!page.bare || !page.query) return answerKey(page);
      // A query value that names nothing (`?seance=x123`, a session past or of another course) is the bare page:
      // answered from it, so that a flood of new values costs no render each.
      const bare = await answerKey({ key: page.bare, tags: page.tags, status: page.status });
      return bare.kept && namesNothing(page, bare) ? bare : answerKey(page);
    },
  };
}

/**
 * The Express handler: public pages from the cache; anything else goes on
 * to React Router. `notFound`: only the site's 404 page (the handler placed
 * after the public files, which it must not hide); otherwise every other page.
 */
export function renderCachePages(renderer: PageRenderer, { notFound = false } = {}): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const page = renderer.pageOf(req.originalUrl);
    if (!page || (page.status === 404) !== notFound) return next();
    renderer.answer(page).then((rendered) => send(req, res, rendered), next);
  };
}
