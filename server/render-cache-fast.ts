/**
 * The render cache's fast path (docs/decisions/054-render-cache-fast-path.md):
 * a kept answer (a page or its single-fetch data) sent by the HTTP
 * server's first handler, before Express, with headers made once per entry.
 *
 * `renderCacheFastPath(options)` returns `(req, res) => boolean`: true when
 * it answered. It answers only a GET or HEAD in origin form (`/path`), with
 * no body declared, without any of the desk's cookies, while the server is
 * not stopping, whose answer is kept right now (`PageRenderer.kept`), of a
 * path `PageRenderer.pageOf` keys as a 200 page, or as the site's 404 page
 * when the path is plain (`PLAIN_PATH`: no percent-escape, no `.`, `..` or
 * empty segment) and no handler Express places before the 404 page may
 * answer it (`claimedBeforeNotFound`: the public files, `/healthz`, the
 * webhooks, `/assets`). Everything else (a miss, a render, any other
 * method or request) returns false and goes through the whole Express
 * chain (server/app.ts) as before: the door guards, the request log, the
 * security headers, React Router.
 *
 * What it sends is what the Express chain sends for the same kept entry:
 * the same status and security headers (`securityHeaderList`, from the
 * same helmet policies; Strict-Transport-Security over HTTPS as Express's
 * `req.secure` decides it, with its `trust proxy` function), the entry's
 * own headers, `Cache-Control`, `Vary`, `ETag`, the encoding the visitor
 * prefers (`preferredEncoding`) with its `Content-Length`; 304 when
 * `If-None-Match` names the ETag of a 200 (never of the 404, as Express's
 * `req.fresh`); no body for HEAD. One request-log line per answer, as
 * pino-http writes it (method, path without query nor token, status,
 * response time; at "warn" for the 404).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import type { Logger } from "pino";
import { isDeskCookie } from "../app/desk/auth.server.ts";
import { loggedPath } from "./log-fields.ts";
import { preferredEncoding, type Encoding } from "./accept-encoding.ts";
import { PUBLIC_PAGE_CACHE_CONTROL, type PageRenderer } from "./render-cache.ts";
import type { RenderedPage } from "./render-cache-store.ts";
import { encodedBody, encodedLength } from "./render-cache-bodies.ts";
import { securityHeaderList } from "./security.ts";

/** How an answer of an entry is sent: its body's encoding, or a 304 (no body). */
type Variant = Encoding | "304";

/** Each kept entry's header lines per variant (`secure` first), made the first time one is sent. */
const prepared = new WeakMap<RenderedPage, Map<string, string[]>>();

/**
 * The headers of `page` sent as `variant`, over HTTPS or not: a flat
 * `[name, value, …]` list for `writeHead`, made once per entry and variant.
 */
export function preparedHeaders(page: RenderedPage, secure: boolean, variant: Variant): string[] {
  let variants = prepared.get(page);
  if (!variants) prepared.set(page, (variants = new Map()));
  const name = `${secure ? "s" : ""}${variant}`;
  let headers = variants.get(name);
  if (!headers) {
    const pairs: [string, string][] = [
      ...securityHeaderList(secure, page.scriptSources),
      ...page.headers,
      ["Cache-Control", PUBLIC_PAGE_CACHE_CONTROL],
      ["Vary", "Accept-Encoding"],
      ["ETag", page.etag!],
    ];
    if (variant === "br" || variant === "gzip") pairs.push(["Content-Encoding", variant]);
    if (variant !== "304") pairs.push(["Content-Length", String(encodedLength(page, variant))]);
    variants.set(name, (headers = pairs.flat()));
  }
  return headers;
}

/**
 * Whether the visitor's copy is current (RFC 9110 section 13.1.2, as the
 * `fresh` package that Express's `req.fresh` uses): `If-None-Match` is `*`
 * or lists `etag` (weak comparison), and the request does not ask for a
 * fresh copy (`Cache-Control: no-cache`).
 */
export function isCurrent(headers: IncomingMessage["headers"], etag: string): boolean {
  const match = headers["if-none-match"];
  if (!match) return false;
  const cacheControl = headers["cache-control"];
  if (cacheControl && /(?:^|,)\s*no-cache\s*(?:,|$)/.test(cacheControl)) return false;
  if (match.trim() === "*") return true;
  const opaque = (tag: string) => (tag.startsWith("W/") ? tag.slice(2) : tag);
  return match.split(",").some((tag) => opaque(tag.trim()) === opaque(etag));
}

export interface FastPathOptions {
  renderer: PageRenderer;
  logger: Logger;
  /** True once the server stops: the Express chain answers 503 then. */
  isClosing: () => boolean;
  /** Express's compiled `trust proxy` (`app.get("trust proxy fn")`): whether `X-Forwarded-Proto` is believed. */
  trustProxy: (address: string, hop: number) => boolean;
  /**
   * Whether a handler of the Express chain placed before the site's 404 page may answer a plain path
   * (`claimedBeforeNotFound`, server/app.ts). Without it, the 404 page is left to Express.
   */
  claimedBeforeNotFound?: (pathname: string) => boolean;
}

/**
 * A path the fast path may answer with the kept 404 page: segments of letters, digits and `-_.~`, none
 * empty nor starting with a dot (no `.`/`..` segment a file lookup would resolve, no hidden file), an
 * optional trailing slash. Any other spelling (percent-escapes, `//`, backslashes) goes to Express.
 */
const PLAIN_PATH = /^(?:\/[\w~-][\w.~-]*)+\/?$/;

/** Whether `trust proxy` believes each connection's peer (its address does not change). */
const trustedPeers = new WeakMap<Socket, boolean>();

/**
 * Whether the request came over HTTPS, as Express's `req.secure` says it: without `X-Forwarded-Proto`,
 * only an encrypted connection; with it, the header's first value when `trust proxy` believes the peer
 * (asked once per connection).
 */
function overHttps(req: IncomingMessage, trustProxy: FastPathOptions["trustProxy"]): boolean {
  const { socket } = req;
  if ((socket as TLSSocket).encrypted) return true;
  const forwarded = req.headers["x-forwarded-proto"];
  if (typeof forwarded !== "string") return false;
  let trusted = trustedPeers.get(socket);
  if (trusted === undefined) trustedPeers.set(socket, (trusted = trustProxy(socket.remoteAddress ?? "", 0)));
  if (!trusted) return false;
  const comma = forwarded.indexOf(",");
  return (comma === -1 ? forwarded : forwarded.slice(0, comma)).trim() === "https";
}

/** The kept answer the fast path may send for `req`, or undefined (the Express chain answers). */
function keptAnswer(
  req: IncomingMessage,
  { renderer, isClosing, claimedBeforeNotFound }: FastPathOptions,
): RenderedPage | undefined {
  if (req.method !== "GET" && req.method !== "HEAD") return undefined;
  const url = req.url ?? "";
  if (!url.startsWith("/") || isClosing()) return undefined;
  const { headers } = req;
  // A declared body (the door guards refuse a large one), a desk session (the owner gets the Express chain).
  if ((headers["content-length"] !== undefined && headers["content-length"] !== "0") || headers["transfer-encoding"])
    return undefined;
  if (headers.cookie && isDeskCookie(headers.cookie)) return undefined;
  const page = renderer.pageOf(url);
  if (!page) return undefined;
  if (page.status !== 200) {
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);
    if (!claimedBeforeNotFound || !PLAIN_PATH.test(pathname) || claimedBeforeNotFound(pathname)) return undefined;
  }
  const kept = renderer.kept(page);
  return kept?.kept && kept.etag ? kept : undefined;
}

/** The fast path: `(req, res) => boolean`, true when it answered from the cache (see the module's header). */
export function renderCacheFastPath(options: FastPathOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { logger, trustProxy } = options;
  return (req, res) => {
    const started = performance.now();
    const page = keptAnswer(req, options);
    if (!page) return false;
    const secure = overHttps(req, trustProxy);
    // Express's `req.fresh` is false for any status but 2xx and 304: the 404 page is sent in full each time.
    const variant: Variant =
      page.status === 200 && isCurrent(req.headers, page.etag!)
        ? "304"
        : preferredEncoding(req.headers["accept-encoding"]);
    const status = variant === "304" ? 304 : page.status;
    res.writeHead(status, preparedHeaders(page, secure, variant));
    if (variant === "304" || req.method === "HEAD") res.end();
    else res.end(encodedBody(page, variant));
    // The level pino-http gives it (server/app.ts): "warn" for a 4xx.
    logger[status >= 400 ? "warn" : "info"](
      {
        req: { method: req.method, url: loggedPath(req.url!) },
        res: { statusCode: status },
        responseTime: Math.round(performance.now() - started),
      },
      "request completed",
    );
    return true;
  };
}
