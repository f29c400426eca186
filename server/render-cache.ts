/**
 * One render cache for every public page (docs/decisions/018-one-render-cache.md).
 *
 * A GET or HEAD of a route whose `handle` is `cachedPage(...)`
 * (app/utils/render-cache.ts) is rendered once, by React Router, from a
 * request that carries nothing of the visitor (no cookie, no header, only
 * the path and the query parameters the route declares), then answered from
 * memory: its brotli and gzip bodies made once, a weak `ETag` (304 on
 * `If-None-Match`), the CSP hashes of its inline scripts. The entry goes
 * when what it shows changes:
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
 * evicted beyond `maxBytes`.
 */
import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import type { Logger } from "pino";
import { createRequestHandler, type ServerBuild } from "react-router";
import { parseSitemap } from "sitemap";
import { Readable } from "node:stream";
import {
  RENDER_TAGS,
  SITE_WIDE_TAG,
  renderCachePolicy,
  type RenderCachePolicy,
  type RenderHints,
} from "../app/utils/render-cache.ts";
import { requestContext, type CacheRenderValues } from "../app/context.server.ts";
import { errorFields } from "../app/db/errors.server.ts";
import { matchesOf, routeTree, type RouteNode } from "./doors.ts";
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

/** One answer of a page, as rendered for the cache. */
export interface RenderedPage {
  status: number;
  /** The answer's own headers (Content-Type, …), without those the cache sets. */
  headers: [string, string][];
  body: Buffer;
  /** Made only for a kept page. */
  brotli?: Buffer;
  gzip?: Buffer;
  etag?: string;
  /** CSP `script-src` hash sources of its inline scripts ("" when it has none or is not HTML). */
  scriptSources: string;
  tags: ReadonlySet<string>;
  /** When it stops being true by time alone (ms since the epoch; Infinity: never). */
  expiresAt: number;
  /** Whether it is kept (served with the public cache headers). */
  kept: boolean;
  /** The values of each declared query parameter that make a page of their own (`RenderHints.queryChoices`). */
  queryChoices?: ReadonlyMap<string, ReadonlySet<string>>;
}

const sizeOf = (page: RenderedPage) => page.body.length + (page.brotli?.length ?? 0) + (page.gzip?.length ?? 0);

/**
 * The cache's memory: entries by key, least recently used first, their
 * tags, a generation that every change bumps, and whether the process
 * hears the database's announcements (`listening`: nothing is kept
 * otherwise).
 */
export class RenderCache {
  readonly #entries = new Map<string, RenderedPage>();
  #bytes = 0;
  #generation = 0;
  #listening = false;
  readonly maxBytes: number;
  readonly #now: () => number;

  /** @param maxBytes bodies kept at most (identity, brotli and gzip counted), in bytes */
  constructor({ maxBytes, now = Date.now }: { maxBytes: number; now?: () => number }) {
    this.maxBytes = maxBytes;
    this.#now = now;
  }

  /** A number that changes with every invalidation: a render started under another one is not kept. */
  get generation(): number {
    return this.#generation;
  }

  get listening(): boolean {
    return this.#listening;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Whether the process hears the database's announcements; any change of this empties the cache. */
  setListening(up: boolean): void {
    if (up === this.#listening) return;
    this.#listening = up;
    this.clear();
  }

  /** The entry of `key`, if kept and not expired (then it becomes the most recently used). */
  get(key: string): RenderedPage | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#now()) {
      this.#bytes -= sizeOf(entry);
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry;
  }

  /**
   * Keeps `entry` under `key` when the process listens and nothing changed
   * since the render started (`generation` read then). Returns whether it was kept.
   */
  set(key: string, entry: RenderedPage, generation: number): boolean {
    if (!this.#listening || generation !== this.#generation || sizeOf(entry) > this.maxBytes) return false;
    this.#remove(key);
    this.#entries.set(key, entry);
    this.#bytes += sizeOf(entry);
    for (const [oldest, page] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= sizeOf(page);
    }
    return true;
  }

  /**
   * Drops every entry showing `tag`. A site-wide tag ("settings": the owner's name and telephone are
   * on every page) and an unknown one drop everything.
   */
  invalidate(tag: string): void {
    if (tag === SITE_WIDE_TAG || !(RENDER_TAGS as readonly string[]).includes(tag)) return this.clear();
    this.#generation += 1;
    for (const [key, entry] of this.#entries) if (entry.tags.has(tag)) this.#remove(key);
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
    this.#bytes = 0;
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= sizeOf(entry);
  }
}

/** What a cacheable path is: its key (the canonical path and declared query) and the route's policy. */
interface CacheablePage {
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

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Builds the answer of a render: kept only when `keep` (status 200, no
 * cookie set, no `noStore`), then compressed (brotli at its highest quality,
 * gzip level 9: done once per change) and given its ETag.
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
  const page: RenderedPage = {
    status: response.status,
    headers,
    body,
    scriptSources: html ? inlineScriptHashes(body.toString("utf8")).join(" ") : "",
    tags,
    expiresAt,
    kept,
  };
  if (page.kept) {
    [page.brotli, page.gzip] = await Promise.all([
      brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip(body, { level: 9 }),
    ]);
    page.etag = `W/"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  }
  return page;
}

/**
 * The body to send for an `Accept-Encoding` header: brotli when the visitor
 * accepts it at least as much as gzip, else gzip when accepted, else the
 * page as is (also when no header says anything). The order the visitor
 * lists them in does not count: browsers send `gzip, deflate, br, zstd`,
 * all of equal weight, and get brotli, as the compression middleware gives
 * other answers.
 */
export function preferredEncoding(header: string | undefined): "br" | "gzip" | "identity" {
  const weights = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get("*") ?? 0;
  const [br, gzip] = [weightOf("br"), weightOf("gzip")];
  if (br > 0 && br >= gzip) return "br";
  return gzip > 0 ? "gzip" : "identity";
}

/** Sends `page` to one visitor: 304 when their copy is current, else the best encoding they accept. */
function send(req: ExpressRequest, res: ExpressResponse, page: RenderedPage): void {
  res.status(page.status);
  for (const [name, value] of page.headers) res.setHeader(name, value);
  // The policy allows this page's own inline scripts by hash (server/security.ts reads it as headers go).
  if (page.scriptSources) res.locals.cspScriptSources = page.scriptSources;
  if (!page.kept) {
    if (!res.hasHeader("Cache-Control")) res.setHeader("Cache-Control", ANSWERED_ONCE_CACHE_CONTROL);
    // Compressed on the fly by the compression middleware, if at all.
    if (req.method === "HEAD") res.end();
    else res.end(page.body);
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
  const body = encoding === "br" ? page.brotli! : encoding === "gzip" ? page.gzip! : page.body;
  if (encoding === "br" || encoding === "gzip") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  if (req.method === "HEAD") res.end();
  else res.end(body);
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
  /** The cacheable page `originalUrl` names (see `cacheablePage`), or null. */
  pageOf(originalUrl: string): CacheablePage | null;
  /**
   * The page's kept answer, or a render of it shared by every request asking meanwhile. A page
   * with a query value that its bare page's kept answer does not name among its choices
   * (`RenderHints.queryChoices`) gets that bare answer, without a render.
   */
  answer(page: CacheablePage): Promise<RenderedPage>;
  /** The cache it fills (the warm-up stops before it is full). */
  cache: RenderCache;
  logger: Logger;
}

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
    });
    pending.set(page.key, { generation, rendering });
    return rendering;
  }

  return {
    logger,
    cache,
    pageOf: (originalUrl) => cacheablePage(tree, build, originalUrl),
    async answer(page) {
      if (!page.bare || !page.query) return answerKey(page);
      // A query value that names nothing (`?seance=x123`, a session past or of another course) is the bare page:
      // answered from it, so that a flood of new values costs no render each.
      const bare = await answerKey({ key: page.bare, tags: page.tags, status: page.status });
      const unknown = page.query.some(([name, value]) => {
        const choices = bare.queryChoices?.get(name);
        return choices !== undefined && !choices.has(value);
      });
      return bare.kept && unknown ? bare : answerKey(page);
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

/** Paths the sitemap leaves out (noindex) that visitors still open. */
const UNLISTED_PAGES = ["/mentions-legales", "/confidentialite", "/coordonnees", "/blog/rss.xml", "/robots.txt"];

/** The pages visited most, rendered first: before the sitemap is even read. */
const FIRST_PAGES = ["/", "/cours", "/blog"];

/**
 * The order of the warm-up: `FIRST_PAGES`, the sitemap, then the sitemap's
 * paths by depth, in its order within one depth (the site's own pages; the
 * courses and the articles, newest first; the blog's further pages and the
 * letters), each once, then the unlisted pages.
 */
export function warmUpOrder(sitemapPaths: readonly string[]): string[] {
  const depth = (path: string) => path.split("/").filter(Boolean).length;
  const listed = sitemapPaths
    .map((path, index) => ({ path, index }))
    .sort((a, b) => depth(a.path) - depth(b.path) || a.index - b.index)
    .map(({ path }) => path);
  return [...new Set([...FIRST_PAGES, "/sitemap.xml", ...listed, ...UNLISTED_PAGES])];
}

/** Lets the requests that arrived meanwhile run (the warm-up gives way between two pages). */
const giveWay = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Renders the pages visited most first (`warmUpOrder`: `/`, `/cours`,
 * `/blog`, the sitemap, then what it lists), one after the other, giving
 * way to requests between two pages, so that the first visitors find them
 * ready and the site answers meanwhile: what the build's prerendering used
 * to do. Stops before the cache would evict a page it kept (when the room
 * left is less than twice the largest page kept so far). Failures are
 * logged (no data) and skipped. Resolves with the number of pages kept.
 */
export async function warmRenderCache(renderer: PageRenderer): Promise<number> {
  const { cache } = renderer;
  let kept = 0;
  let largest = 0;
  const render = async (path: string) => {
    await giveWay();
    const page = renderer.pageOf(path);
    const answer = page ? await renderer.answer(page) : undefined;
    if (answer?.kept) {
      kept += 1;
      largest = Math.max(largest, sizeOf(answer));
    }
    return answer;
  };
  const full = () => cache.bytes + 2 * largest > cache.maxBytes;
  try {
    for (const path of FIRST_PAGES) await render(path);
    const sitemap = await render("/sitemap.xml");
    const items = sitemap?.status === 200 ? await parseSitemap(Readable.from([sitemap.body])) : [];
    const paths = warmUpOrder(items.map((item) => new URL(item.url).pathname)).slice(FIRST_PAGES.length + 1);
    for (const path of paths) {
      if (full()) {
        renderer.logger.info(`render cache: warm-up stopped with the cache near its bound (${kept} pages kept)`);
        break;
      }
      await render(path);
    }
  } catch (error) {
    renderer.logger.warn({ err: errorFields(error) }, "render cache: warm-up stopped");
  }
  return kept;
}
