/**
 * The doors of the server, checked before anything reads a request:
 *
 * - a stopping server (`isClosing()`) answers 503 with `Connection: close`
 *   to requests still arriving on open connections: nothing is accepted
 *   once the listener has closed;
 * - a declared body over `MAX_REQUEST_BODY_BYTES` (`MAX_UPLOAD_BODY_BYTES`
 *   on the desk's picture uploads) is refused (413, connection closed)
 *   before it is read, on every method and path spelling; bodies
 *   without a declared length are limited where they are read (the actions:
 *   `app/guards/body.server.ts`);
 * - the site serves GET, HEAD and POST only: OPTIONS answers 204 with
 *   `Allow`, any other method (PUT, PATCH, DELETE, TRACE, ...) 405 with
 *   `Allow` (RFC 9110 section 15.5.6), whatever the path;
 * - POST on a page without an action answers 405 with `Allow: GET, HEAD`
 *   (`actionlessPost`, placed before React Router);
 * - an absolute-form request target (`GET http://host/x`, RFC 9112 section
 *   3.2.2) is served as its origin form (`/x`) when it names the request's
 *   own host, and refused (400) otherwise: the site is no proxy.
 *
 * Which route a path reaches is found as React Router finds it
 * (`routeOf`: the URL parsed by WHATWG rules, so `.`/`..` segments and
 * `%2e` resolve, the single-fetch `.data` suffix and a trailing slash
 * dropped, then `matchRoutes`, which decodes percent-encoding and ignores
 * case). It only chooses the `Allow` header, the body limit and the desk's
 * `no-store` headers, and refuses early; it never decides who may see a
 * page. The guards that protect data run inside React Router: the desk's
 * guard middleware (`ownerGuard`, app/desk/guard.server.ts, decision 032)
 * and the public actions' guards (app/guards/).
 */
import type { ErrorRequestHandler, RequestHandler } from "express";
import onHeaders from "on-headers";
import type { Logger } from "pino";
import { matchRoutes, type RouteMatch, type RouteObject, type ServerBuild } from "react-router";
import { ACTION_ROUTE_METHODS } from "../app/guards/public-action.server.ts";
import { errorFields } from "../app/db/errors.server.ts";

/** Largest body the server lets any request declare: no form of the site comes near it. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
/**
 * Largest body a picture upload of the desk may declare (a 15 MB photo and
 * the form around it, app/pictures/pictures.server.ts), on its routes only
 * (`UPLOAD_ROUTE_IDS`); their actions check the owner's session before
 * reading it, and read no more than their own limit.
 */
export const MAX_UPLOAD_BODY_BYTES = 16 * 1024 * 1024;
const UPLOAD_ROUTE_IDS = new Set(["routes/admin/images", "routes/admin/article"]);

const SERVED_METHODS = new Set(["GET", "HEAD", "POST"]);
const READ_ONLY = "GET, HEAD";

export type RouteNode = RouteObject & { hasAction: boolean };

const trees = new WeakMap<ServerBuild["routes"], RouteNode[]>();

/**
 * The build's routes as a tree that `matchRoutes` reads, each knowing
 * whether it has an action; one tree per build, so that the door guards and
 * the render cache share it and the matches `matchesOf` remembers for it.
 */
export function routeTree(routes: ServerBuild["routes"]): RouteNode[] {
  let tree = trees.get(routes);
  if (!tree) trees.set(routes, (tree = buildTree(routes)));
  return tree;
}

function buildTree(routes: ServerBuild["routes"]): RouteNode[] {
  const children = (parentId: string | undefined): RouteNode[] =>
    Object.values(routes)
      .filter((route) => route!.parentId === parentId)
      .map((route) => {
        const node = {
          id: route!.id,
          path: route!.path,
          caseSensitive: route!.caseSensitive,
          hasAction: typeof route!.module.action === "function",
        };
        return (route!.index ? { ...node, index: true } : { ...node, children: children(route!.id) }) as RouteNode;
      });
  return children(undefined);
}

/**
 * The route React Router would run for `originalUrl`, or null when none
 * matches (React Router answers 404 then).
 */
export function routeOf(tree: RouteNode[], originalUrl: string): RouteNode | null {
  return (matchesOf(tree, originalUrl)?.at(-1)?.route as RouteNode | undefined) ?? null;
}

/** Paths whose matches are remembered, per tree: `matchRoutes` ranks every route at each call. */
const MATCHES_REMEMBERED = 1000;
const rememberedMatches = new WeakMap<RouteNode[], Map<string, RouteMatch<string, RouteNode>[] | null>>();

/**
 * Every route React Router would run for `originalUrl`, root first, or null
 * when none matches. The last `MATCHES_REMEMBERED` paths' answers are kept
 * (forgotten all at once beyond): every request asks twice or more.
 */
export function matchesOf(tree: RouteNode[], originalUrl: string): RouteMatch<string, RouteNode>[] | null {
  let remembered = rememberedMatches.get(tree);
  if (!remembered) rememberedMatches.set(tree, (remembered = new Map()));
  const path = originalUrl.split("?", 1)[0]!;
  const known = remembered.get(path);
  if (known !== undefined) return known;
  const matches = matchPath(tree, originalUrl);
  if (remembered.size >= MATCHES_REMEMBERED) remembered.clear();
  remembered.set(path, matches);
  return matches;
}

function matchPath(tree: RouteNode[], originalUrl: string): RouteMatch<string, RouteNode>[] | null {
  const pathname = routerPathname(originalUrl);
  if (pathname === null) return null;
  // `matchRoutes` flattens and ranks every route it is given at each call: a path is matched against
  // the routes its first segment can reach and the catch-all alone (1.9 ms a new path with every
  // route, at 1,000 articles), and a path no route but the catch-all can match (a flood of unknown
  // addresses, each new) against the catch-all's branch alone.
  const outside = catchAllOf(tree);
  if (outside) {
    const slash = pathname.indexOf("/", 1);
    const first = decodeURIComponent(slash === -1 ? pathname.slice(1) : pathname.slice(1, slash)).toLowerCase();
    return matchRoutes(outside.bySegment.get(first) ?? outside.branch, pathname);
  }
  return matchRoutes(tree, pathname);
}

/**
 * A tree's catch-all route (`*`) as a tree of its own branch, and for the first segment of every
 * other route the tree of the routes whose full path starts with it, with the catch-all.
 */
interface CatchAll {
  branch: RouteNode[];
  /** By first segment, lowercase as `matchRoutes` compares them ("" for the routes of `/`): the routes that can match a path starting with it, and the catch-all. */
  bySegment: ReadonlyMap<string, RouteNode[]>;
}

/** A route's full path: its ancestors' paths and its own, without empty segments. */
const fullPathOf = (parentPath: string, node: RouteNode) =>
  [...parentPath.split("/"), ...(node.path ?? "").split("/")].filter(Boolean).join("/");

/**
 * `nodes` without the routes whose full path `keep` refuses and that keep no descendant: what
 * `matchRoutes` can still match among them is what it matched among all of them, for any path that
 * only the kept routes can match.
 */
function pruned(nodes: RouteNode[], keep: (fullPath: string) => boolean, parentPath = ""): RouteNode[] {
  const kept: RouteNode[] = [];
  for (const node of nodes) {
    const fullPath = fullPathOf(parentPath, node);
    const children = node.children ? pruned(node.children as RouteNode[], keep, fullPath) : undefined;
    if (children?.length || keep(fullPath)) kept.push(children ? ({ ...node, children } as RouteNode) : node);
  }
  return kept;
}

const catchAlls = new WeakMap<RouteNode[], CatchAll | null>();

/**
 * `tree`'s `CatchAll`, or null when the shortcut would not be exact: no
 * catch-all, or a route whose full path starts with a parameter, an
 * optional segment or another splat (it could match any first segment).
 */
export function catchAllOf(tree: RouteNode[]): CatchAll | null {
  if (catchAlls.has(tree)) return catchAlls.get(tree)!;
  const firstSegments = new Set<string>();
  let catchAll = false;
  let exact = true;
  const walk = (nodes: RouteNode[], parentPath: string) => {
    for (const node of nodes) {
      const fullPath = fullPathOf(parentPath, node);
      if (fullPath === "*" && !node.children?.length) catchAll = true;
      else {
        const first = fullPath.split("/")[0]!;
        if (/[:*?]/.test(first)) exact = false;
        firstSegments.add(first.toLowerCase());
      }
      if (node.children) walk(node.children as RouteNode[], fullPath);
    }
  };
  walk(tree, "");
  const found =
    exact && catchAll
      ? {
          branch: pruned(tree, (fullPath) => fullPath === "*"),
          bySegment: new Map(
            [...firstSegments].map((first) => [
              first,
              pruned(tree, (fullPath) => fullPath === "*" || fullPath.split("/")[0]!.toLowerCase() === first),
            ]),
          ),
        }
      : null;
  catchAlls.set(tree, found);
  return found;
}

/**
 * The path React Router matches for `originalUrl`, still percent-encoded:
 * the WHATWG URL's (dot segments resolved), `/_root.data` as `/`, the
 * single-fetch `.data` suffix and a trailing slash dropped. Null when it
 * cannot be parsed or holds a malformed escape (React Router matches
 * nothing then). For paths served outside React Router on every spelling
 * it would resolve, too (server/mail-webhook.ts).
 */
export function routerPathname(originalUrl: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(`http://localhost${originalUrl}`).pathname;
  } catch {
    return null;
  }
  if (pathname === "/_root.data") pathname = "/";
  else if (pathname.endsWith(".data")) pathname = pathname.slice(0, -".data".length);
  if (pathname !== "/" && pathname.endsWith("/")) pathname = pathname.slice(0, -1);
  try {
    decodeURIComponent(pathname);
  } catch {
    return null; // a malformed escape: React Router matches nothing either
  }
  return pathname;
}

const text = "text/plain; charset=utf-8";

export function doorGuards({
  tree,
  isClosing,
  postOnly = () => false,
}: {
  /** The production build's `routeTree` (for the `Allow` header); null in development: every path may take POST. */
  tree: RouteNode[] | null;
  isClosing: () => boolean;
  /** Paths served outside React Router that take POST only (the mail webhook): `Allow: POST`. */
  postOnly?: (originalUrl: string) => boolean;
}): RequestHandler {
  const allowFor = (url: string) =>
    postOnly(url) ? "POST" : !tree || routeOf(tree, url)?.hasAction ? ACTION_ROUTE_METHODS : READ_ONLY;
  const bodyLimitFor = (url: string) => {
    if (!tree)
      return /^\/admin\/(images|articles\/[^/]+)\/?$/i.test(url) ? MAX_UPLOAD_BODY_BYTES : MAX_REQUEST_BODY_BYTES;
    return UPLOAD_ROUTE_IDS.has(routeOf(tree, url)?.id ?? "") ? MAX_UPLOAD_BODY_BYTES : MAX_REQUEST_BODY_BYTES;
  };
  return (req, res, next) => {
    if (isClosing()) {
      res.setHeader("Connection", "close");
      res.setHeader("Retry-After", "10");
      res.status(503).type(text).send("Le site redémarre. Veuillez réessayer dans quelques secondes.");
      return;
    }
    if (!req.url.startsWith("/") && !(req.method === "OPTIONS" && req.url === "*")) {
      const target = URL.canParse(req.url) ? new URL(req.url) : null;
      if (!target || target.host !== req.headers.host || !/^https?:$/.test(target.protocol)) {
        res.status(400).type(text).send("Requête invalide.");
        return;
      }
      req.url = req.originalUrl = `${target.pathname}${target.search}`;
    }
    const declared = Number(req.headers["content-length"] ?? 0);
    if (!Number.isFinite(declared) || declared > bodyLimitFor(req.originalUrl)) {
      res.setHeader("Connection", "close");
      res.status(413).type(text).send("La demande envoyée est trop volumineuse.");
      return;
    }
    if (!SERVED_METHODS.has(req.method)) {
      res.setHeader("Allow", allowFor(req.originalUrl));
      if (req.method === "OPTIONS") res.status(204).end();
      else res.status(405).type(text).send("Méthode non autorisée.");
      return;
    }
    next();
  };
}

/** POST on a page that has no action: 405 with `Allow: GET, HEAD` (paths no route matches go on, to a 404). */
export function actionlessPost(tree: RouteNode[] | null): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "POST" || !tree) return next();
    const route = routeOf(tree, req.originalUrl);
    if (!route || route.hasAction) return next();
    res.setHeader("Allow", READ_ONLY);
    res.status(405).type(text).send("Méthode non autorisée.");
  };
}

/** Whether a route is one of the owner's desk (its module is under `app/routes/admin/`). */
const isDeskRoute = (route: RouteNode | null) => Boolean(route?.id?.startsWith("routes/admin/"));

/**
 * The owner's desk is never stored nor indexed: every answer of a desk
 * route (pages, `.data`, redirects, refusals), whatever the spelling of its
 * path, leaves with `Cache-Control: no-store` and `X-Robots-Tag: noindex,
 * nofollow`, set last (`on-headers`), over what a route may have set,
 * except its `no-transform` (the desk's event stream, app/routes/admin/live.ts:
 * kept so that the compression middleware leaves the stream unbuffered). In
 * development (no route tree) the path decides.
 */
export function privatePages(tree: RouteNode[] | null): RequestHandler {
  return (req, res, next) => {
    const desk = tree ? isDeskRoute(routeOf(tree, req.originalUrl)) : /^\/admin(\/|\.data|$)/i.test(req.path);
    if (desk) {
      onHeaders(res, () => {
        const own = String(res.getHeader("Cache-Control") ?? "");
        res.setHeader(
          "Cache-Control",
          /(^|,)\s*no-transform\s*(,|$)/i.test(own) ? "no-store, no-transform" : "no-store",
        );
        res.setHeader("X-Robots-Tag", "noindex, nofollow");
      });
    }
    next();
  };
}

/**
 * Last handler: an error no route handled. A client error (a malformed
 * URL: 400) is answered with its status; anything else is logged without
 * its message (`errorFields`) and answered 500, never with a stack trace.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const status = Number((error as { status?: number }).status ?? (error as { statusCode?: number }).statusCode);
    const clientError = Number.isInteger(status) && status >= 400 && status < 500;
    if (!clientError) logger.error({ err: errorFields(error), method: req.method }, "request failed");
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res
      .status(clientError ? status : 500)
      .type(text)
      .send(clientError ? "Requête invalide." : "Erreur du serveur.");
  };
}
