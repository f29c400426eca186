/**
 * The render cache's data requests and fast path without a server: which
 * single-fetch requests (`/blog.data?_routes=…`) are kept under which key
 * (`cacheablePage` on the real build's routes), when a visitor's copy is
 * current (`isCurrent`), and the headers a kept answer is sent with
 * (`preparedHeaders`), what the fast path answers and logs (a kept page,
 * the kept 404 page for a plain unknown path) and what it leaves to Express
 * (`renderCacheFastPath`). On a real server: tests/integration/render-cache-pglite.test.ts
 * and render-cache-fast.test.ts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { pathToFileURL } from "node:url";
import { matchRoutes, type ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { isDeskCookie } from "../app/desk/auth.server";
import { cacheablePage } from "./render-cache-key";
import { isCurrent, preparedHeaders, renderCacheFastPath } from "./render-cache-fast";
import type { PageRenderer } from "./render-cache";
import { RenderCache, type RenderedPage } from "./render-cache-store";
import { catchAllOf, matchesOf, routerPathname, routeTree, type RouteNode } from "./doors";

let build: ServerBuild;
let tree: RouteNode[];
beforeAll(async () => {
  build = (await import(pathToFileURL(path.resolve("build", "server", "index.js")).href)) as ServerBuild;
  tree = routeTree(build.routes);
});
const keyOf = (url: string) => cacheablePage(tree, build, url)?.key ?? null;

describe("cacheablePage, data requests", () => {
  it.each([
    ["/_root.data", "/_root.data"],
    ["/.data", "/_root.data"],
    ["/blog.data", "/blog.data"],
    ["/Blog/.data", "/blog.data"],
    ["/blog.data?_routes=blog-index", "/blog.data?_routes=blog-index"],
    // React Router reads the first value only, runs each id once, in the routes' order.
    ["/blog.data?_routes=root,blog-index,root&_routes=x&fbclid=y", "/blog.data?_routes=blog-index%2Croot"],
    ["/blog.data?_routes=blog-index,root", "/blog.data?_routes=blog-index%2Croot"],
    // Empty: every loader runs, as with none.
    ["/blog.data?_routes=", "/blog.data"],
    ["/_root.data?_routes=routes/home", "/_root.data?_routes=routes%2Fhome"],
    ["/cours/%61pplications-mobiles.data", "/cours/applications-mobiles.data"],
    ["/cours/securite.data?seance=3&_routes=routes/course", "/cours/securite.data?seance=3&_routes=routes%2Fcourse"],
    ["/cours/securite.data?seance=3", "/cours/securite.data?seance=3"],
    // The course's own loader does not run: its query parameter changes nothing of the answer.
    ["/cours/securite.data?seance=3&_routes=root", "/cours/securite.data?_routes=root"],
  ])("keys %s as %s", (url, key) => {
    expect(keyOf(url)).toBe(key);
  });

  it("gives a data request its page's tags, and a bare key for a query value that names nothing", () => {
    expect([...cacheablePage(tree, build, "/_root.data")!.tags].sort()).toEqual(["articles", "courses", "pictures"]);
    expect(cacheablePage(tree, build, "/cours/securite.data?seance=x&_routes=routes/course")).toMatchObject({
      bare: "/cours/securite.data?_routes=routes%2Fcourse",
      query: [["seance", "x"]],
      data: true,
    });
  });

  it.each([
    // An id React Router would ignore (unknown, or of a route the path does not reach): answered, not kept.
    "/blog.data?_routes=blog-index,nope",
    "/blog.data?_routes=routes/home",
    "/blog.data?_routes=,blog-index",
    // Resource routes and the 404: no click loads their data.
    "/robots.txt.data",
    "/sitemap.xml.data",
    "/blog/rss.xml.data",
    "/nulle-part.data",
    // The desk and the pages of one person.
    "/admin.data",
    "/Admin.data",
    "/admin/cours.data",
    "/cours/inscription/abc.data",
    "/cours/place/abc.data",
    "/newsletter/confirmer/abc.data",
    // Another spelling of the suffix is a page path for React Router, not data.
    "/cours/securite%2Edata",
    "/cours/securite.DATA",
  ])("does not keep %s", (url) => {
    const page = cacheablePage(tree, build, url);
    expect(page === null || (!page.data && page.status === 404), url).toBe(true);
  });
});

describe("matchesOf, against the routes of the path's first segment or the catch-all alone", () => {
  const summary = (matches: ReturnType<typeof matchRoutes>) =>
    matches?.map((match) => [match.route.id, match.params, match.pathname, match.pathnameBase]) ?? null;

  it.each([
    ...["/", "/nope-1", "/Nope/deux/trois", "/nope.data", "/%6Eope", "/blog", "/BLOG/x", "/%62log/abc", "/blog.data"],
    ...["/cours/inscription/abc/calendrier.ics", "/r/abc", "/r/abc/def", "/admin/inconnu", "/Admin", "/sitemap.xml"],
    ...["/sitemap.xml.data", "/robots.txt/", "/og/site/x.png", "/og/", "/_root.data", "/nope/../blog", "/a%2Fb"],
    ...["/blog/page/2", "/blog/page/2/x", "/blog/un-article", "/Blog/Un-Article.data", "/blog/rss.xml", "/cours"],
    ...["/cours/securite", "/cours/securite/x", "/COURS/securite?seance=1", "/admin", "/admin/cours/12", "/contact"],
    ...["/admin/articles/nouveau", "/newsletter/confirmer/abc", "/Contact/", "/rappel", "/mentions-legales"],
  ])("matches %s as matchRoutes over every route does", (url) => {
    expect(catchAllOf(tree), "the site's routes allow the shortcut").not.toBeNull();
    expect(summary(matchesOf(tree, url))).toEqual(summary(matchRoutes(tree, routerPathname(url)!)));
  });

  it("is not taken without a catch-all, or when a route starts with a parameter (any first segment)", () => {
    const root = tree[0]!;
    const withParameter = [{ ...root, children: [...root.children!, { id: "any", path: ":slug", hasAction: false }] }];
    expect(catchAllOf(withParameter as RouteNode[])).toBeNull();
    const without = [{ ...root, children: root.children!.filter((route) => route.path !== "*") }];
    expect(catchAllOf(without as RouteNode[])).toBeNull();
  });
});

describe("isCurrent (If-None-Match)", () => {
  const etag = 'W/"abc"';
  it.each([
    [{ "if-none-match": 'W/"abc"' }, true],
    [{ "if-none-match": '"abc"' }, true],
    [{ "if-none-match": '"x", W/"abc"' }, true],
    [{ "if-none-match": "*" }, true],
    [{ "if-none-match": 'W/"abd"' }, false],
    [{}, false],
    [{ "if-none-match": 'W/"abc"', "cache-control": "no-cache" }, false],
    [{ "if-none-match": 'W/"abc"', "cache-control": "max-age=0" }, true],
  ])("%j: %s", (headers, current) => {
    expect(isCurrent(headers, etag)).toBe(current);
  });
});

describe("isDeskCookie", () => {
  it.each([
    ["bureau.session_token=x", true],
    ["a=b; __Host-bureau.session_token=x", true],
    ["a=b;bureau.two_factor=x", true],
    ["theme=dark; notbureau.x=1", false],
    ["a=bureau.session_token", false],
    ["", false],
  ])("%j: %s", (header, desk) => {
    expect(isDeskCookie(header)).toBe(desk);
  });
});

describe("preparedHeaders", () => {
  const page: RenderedPage = {
    status: 200,
    headers: [
      ["X-Remix-Response", "yes"],
      ["Content-Type", "text/x-script"],
    ],
    body: Buffer.from("[{}]"),
    length: 4,
    brotli: Buffer.from("br"),
    gzip: Buffer.from("gzip!"),
    etag: 'W/"e"',
    scriptSources: "",
    tags: new Set(),
    expiresAt: Infinity,
    kept: true,
  };
  const asMap = (flat: string[]) => {
    const headers = new Map<string, string>();
    for (let index = 0; index < flat.length; index += 2) headers.set(flat[index]!.toLowerCase(), flat[index + 1]!);
    return headers;
  };

  it("names the encoding and its length, the ETag and the public cache policy; a 304 neither", () => {
    const br = asMap(preparedHeaders(page, false, "br"));
    expect([br.get("content-encoding"), br.get("content-length")]).toEqual(["br", "2"]);
    expect(br.get("etag")).toBe('W/"e"');
    expect(br.get("cache-control")).toContain("public");
    expect(br.get("vary")).toBe("Accept-Encoding");
    expect(br.get("content-type")).toBe("text/x-script");
    const identity = asMap(preparedHeaders(page, false, "identity"));
    expect([identity.get("content-encoding"), identity.get("content-length")]).toEqual([undefined, "4"]);
    const current = asMap(preparedHeaders(page, false, "304"));
    expect([current.get("content-encoding"), current.get("content-length")]).toEqual([undefined, undefined]);
    expect(current.get("etag")).toBe('W/"e"');
  });

  it("allows no inline script of an answer without any (no nonce), and adds HSTS over HTTPS only", () => {
    const plain = asMap(preparedHeaders(page, false, "br"));
    const csp = plain.get("content-security-policy")!;
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toContain("nonce");
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(plain.has("strict-transport-security")).toBe(false);
    expect(plain.get("x-frame-options")).toBe("DENY");
    const secure = asMap(preparedHeaders(page, true, "br"));
    expect(secure.get("strict-transport-security")).toContain("max-age=");
    expect(secure.get("content-security-policy")).toContain("upgrade-insecure-requests");
    // Made once per entry and variant.
    expect(preparedHeaders(page, true, "br")).toBe(preparedHeaders(page, true, "br"));
  });
});

describe("renderCacheFastPath", () => {
  /**
   * A server whose fast path knows one kept page, `/kept`, and a kept 404 page for the paths starting `/nope`;
   * paths starting `/claimed` are claimed by a handler before the 404 (a public file). Express's place is taken
   * by a handler that says 299.
   */
  async function fastServer(closing = false, { claimed = true } = {}) {
    const cache = new RenderCache({ maxBytes: 1024 });
    cache.setListening(true);
    const page: RenderedPage = {
      status: 200,
      headers: [["Content-Type", "text/plain; charset=utf-8"]],
      body: Buffer.from("bonjour"),
      length: 7,
      brotli: Buffer.from("b"),
      gzip: Buffer.from("g"),
      etag: 'W/"k"',
      scriptSources: "",
      tags: new Set(),
      expiresAt: Infinity,
      kept: true,
    };
    cache.set("/kept", page, cache.generation);
    cache.set(
      "/404",
      { ...page, status: 404, body: Buffer.from("introuvable"), length: 11, etag: 'W/"n"' },
      cache.generation,
    );
    const renderer = {
      cache,
      pageOf: (url: string) =>
        url.split("?")[0] === "/kept"
          ? { key: "/kept", tags: new Set(), status: 200 }
          : /^\/+(nope|claimed)/i.test(url) || url.includes("%")
            ? { key: "/404", tags: new Set(), status: 404 }
            : null,
      kept: ({ key }: { key: string }) => cache.get(key),
    } as unknown as PageRenderer;
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      }),
    );
    const fast = renderCacheFastPath({
      renderer,
      logger,
      isClosing: () => closing,
      trustProxy: () => true,
      ...(claimed ? { claimedBeforeNotFound: (pathname: string) => pathname.startsWith("/claimed") } : {}),
    });
    const server = http.createServer((req, res) => fast(req, res) || res.writeHead(299).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, lines, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it("answers a kept page's GET and HEAD with one log line each, without the query", async () => {
    const site = await fastServer();
    try {
      const get = await fetch(`${site.url}/kept?email=marie@example.ch`, {
        headers: { "Accept-Encoding": "identity" },
      });
      expect([get.status, await get.text()]).toEqual([200, "bonjour"]);
      const head = await fetch(`${site.url}/kept`, { method: "HEAD", headers: { "Accept-Encoding": "br" } });
      expect([head.status, head.headers.get("content-length"), await head.text()]).toEqual([200, "1", ""]);
      // Not by fetch: it adds `Cache-Control: no-cache` to a conditional request, which asks for a fresh copy.
      const current = await new Promise<number>((resolve, reject) => {
        http
          .get(`${site.url}/kept`, { headers: { "If-None-Match": 'W/"k"' } }, (response) => {
            response.resume();
            resolve(response.statusCode!);
          })
          .on("error", reject);
      });
      expect(current).toBe(304);
      await new Promise((resolve) => setImmediate(resolve));
      expect(site.lines.map((line) => [line.req, line.res, line.msg])).toEqual([
        [{ method: "GET", url: "/kept" }, { statusCode: 200 }, "request completed"],
        [{ method: "HEAD", url: "/kept" }, { statusCode: 200 }, "request completed"],
        [{ method: "GET", url: "/kept" }, { statusCode: 304 }, "request completed"],
      ]);
      expect(JSON.stringify(site.lines)).not.toContain("marie");
    } finally {
      await site.close();
    }
  });

  it("leaves to Express every other method, a declared body, a desk cookie, another path and a foreign target", async () => {
    const site = await fastServer();
    try {
      const passed = async (init: RequestInit & { path?: string } = {}) =>
        (await fetch(`${site.url}${init.path ?? "/kept"}`, init)).status === 299;
      for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
        expect(await passed({ method }), method).toBe(true);
      expect(await passed({ method: "POST", body: "x=1" })).toBe(true);
      expect(await passed({ headers: { Cookie: "a=b; bureau.session_token=x" } })).toBe(true);
      expect(await passed({ headers: { Cookie: "__Host-bureau.session_token=x" } })).toBe(true);
      expect(await passed({ path: "/autre" })).toBe(true);
      expect(await passed({ headers: { Cookie: "theme=sombre" } })).toBe(false);
      const { hostname, port } = new URL(site.url);
      const withBody = await new Promise<number>((resolve, reject) => {
        const request = http.request({
          hostname,
          port,
          path: "/kept",
          method: "GET",
          headers: { "Content-Length": "3" },
        });
        request.on("response", (response) => resolve(response.statusCode!)).on("error", reject);
        request.end("abc");
      });
      expect(withBody).toBe(299);
      const absolute = await new Promise<number>((resolve, reject) => {
        const request = http.request({ hostname, port, path: "http://ailleurs.example/kept", method: "GET" });
        request.on("response", (response) => resolve(response.statusCode!)).on("error", reject);
        request.end();
      });
      expect(absolute).toBe(299);
      // Only the request it answered (the one with a cookie of another kind) has a line of its own.
      expect(site.lines).toHaveLength(1);
    } finally {
      await site.close();
    }
  });

  it("answers an unknown plain path with the kept 404 in full (never a 304), logged at warn, without the query", async () => {
    const site = await fastServer();
    try {
      const status = (path: string, headers: Record<string, string> = {}, method = "GET") =>
        new Promise<[number, string]>((resolve, reject) => {
          const { hostname, port } = new URL(site.url);
          const request = http.request({ hostname, port, path, method, headers, agent: false }, (response) => {
            let body = "";
            response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
            response.on("end", () => resolve([response.statusCode!, body]));
          });
          request.on("error", reject).end();
        });
      const identity = { "Accept-Encoding": "identity" };
      expect(await status("/nope-1?email=marie@example.ch", identity)).toEqual([404, "introuvable"]);
      expect(await status("/Nope/deux/", identity)).toEqual([404, "introuvable"]);
      expect(await status("/nope-1", { ...identity, "If-None-Match": 'W/"n"' })).toEqual([404, "introuvable"]);
      expect(await status("/nope-1", identity, "HEAD")).toEqual([404, ""]);
      // A path a handler before the 404 may answer, and any spelling a file lookup or a decoder would
      // read otherwise: Express's.
      for (const path of ["/claimed", "/claimed/x", "//nope", "/nope/../claimed", "/nope/./x", "/.nope", "/%6Eope"])
        expect((await status(path))[0], path).toBe(299);
      await new Promise((resolve) => setImmediate(resolve));
      expect(site.lines.map((line) => [line.level, line.req, line.res, line.msg])).toEqual([
        [40, { method: "GET", url: "/nope-1" }, { statusCode: 404 }, "request completed"],
        [40, { method: "GET", url: "/Nope/deux/" }, { statusCode: 404 }, "request completed"],
        [40, { method: "GET", url: "/nope-1" }, { statusCode: 404 }, "request completed"],
        [40, { method: "HEAD", url: "/nope-1" }, { statusCode: 404 }, "request completed"],
      ]);
      expect(JSON.stringify(site.lines)).not.toContain("marie");
    } finally {
      await site.close();
    }
  });

  it("leaves the 404 page to Express when it is not told which paths Express's handlers claim", async () => {
    const site = await fastServer(false, { claimed: false });
    try {
      expect((await fetch(`${site.url}/nope-1`)).status).toBe(299);
      expect((await fetch(`${site.url}/kept`)).status).toBe(200);
    } finally {
      await site.close();
    }
  });

  it("leaves every request to Express once the server stops (its 503)", async () => {
    const site = await fastServer(true);
    try {
      expect((await fetch(`${site.url}/kept`)).status).toBe(299);
    } finally {
      await site.close();
    }
  });
});
