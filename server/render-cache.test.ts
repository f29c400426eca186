/**
 * The render cache without a server (server/render-cache.ts): what
 * `RenderCache` keeps and drops (tags, a render that started before a
 * change, a process that does not hear the database, expiry on an injected
 * clock, least recently used beyond `maxBytes`), and which requests are
 * cacheable under which key (`cacheablePage` on the routes of the real
 * build, which the integration tests' global setup makes).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../app/context.server";
import type { Database } from "../app/db/client.server";
import { countingRenderer, silentLogger, testSettings } from "../tests/support/harness";
import { cacheablePage } from "./render-cache-key";
import { preferredEncoding } from "./accept-encoding";
import { createPageRenderer, type PageRenderer } from "./render-cache";
import { RenderCache, type RenderedPage } from "./render-cache-store";
import { identityOf } from "./render-cache-bodies";
import { headOf, warmRenderCache, warmUpHead, warmUpOrder, warmUpRest } from "./render-cache-warm-up";
import { routeTree, type RouteNode } from "./doors";

/** A kept page of `bytes` bytes (identity body only) showing `tags`. */
function page(tags: string[] = [], { bytes = 10, expiresAt = Infinity } = {}): RenderedPage {
  return {
    status: 200,
    headers: [["Content-Type", "text/html; charset=utf-8"]],
    body: Buffer.alloc(bytes, "a"),
    length: bytes,
    scriptSources: "",
    tags: new Set(tags),
    expiresAt,
    kept: true,
  };
}

/** A cache that listens (as the server's does once LISTEN runs), on `now` when given. */
function listeningCache(options: { maxBytes?: number; now?: () => number } = {}): RenderCache {
  const cache = new RenderCache({ maxBytes: 1024 * 1024, ...options });
  cache.setListening(true);
  return cache;
}

describe("RenderCache", () => {
  it("returns a kept entry, the same object each time", () => {
    const cache = listeningCache();
    const entry = page(["courses"]);
    expect(cache.set("/cours", entry, cache.generation)).toBe(true);
    expect(cache.get("/cours")).toBe(entry);
    expect(cache.get("/cours")).toBe(entry);
    expect(cache.get("/contact")).toBeUndefined();
    expect([cache.size, cache.bytes]).toEqual([1, 10]);
  });

  it("drops the entries tagged with an invalidated tag and keeps the others", () => {
    const cache = listeningCache();
    cache.set("/", page(["courses"]), cache.generation);
    cache.set("/cours", page(["courses"]), cache.generation);
    cache.set("/newsletter", page(["letters"]), cache.generation);
    cache.set("/contact", page([]), cache.generation);
    cache.invalidate("courses");
    expect(cache.get("/")).toBeUndefined();
    expect(cache.get("/cours")).toBeUndefined();
    expect(cache.get("/newsletter")).toBeDefined();
    expect(cache.get("/contact")).toBeDefined();
    expect([cache.size, cache.bytes]).toEqual([2, 20]);
    cache.invalidate("letters");
    expect(cache.get("/newsletter")).toBeUndefined();
    expect(cache.get("/contact")).toBeDefined();
  });

  it("drops everything on a tag it does not know (a payload of a newer version, a typo)", () => {
    const cache = listeningCache();
    cache.set("/cours", page(["courses"]), cache.generation);
    cache.set("/contact", page([]), cache.generation);
    cache.invalidate("something-else");
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    expect(cache.get("/contact")).toBeUndefined();
  });

  it("refuses a render that started before an invalidation (it may have read the data before the change)", () => {
    const cache = listeningCache();
    const started = cache.generation;
    // The change is announced while the page renders...
    cache.invalidate("courses");
    // ...even one of another tag: the generation is global.
    expect(cache.set("/cours", page(["courses"]), started)).toBe(false);
    expect(cache.get("/cours")).toBeUndefined();
    const before = cache.generation;
    cache.invalidate("letters");
    expect(cache.set("/contact", page([]), before)).toBe(false);
    // A render started after the change is kept.
    expect(cache.set("/cours", page(["courses"]), cache.generation)).toBe(true);
    expect(cache.get("/cours")).toBeDefined();
  });

  it("refuses a render that started before a clear()", () => {
    const cache = listeningCache();
    const started = cache.generation;
    cache.clear();
    expect(cache.set("/", page(), started)).toBe(false);
    expect(cache.size).toBe(0);
  });

  it("keeps nothing while it does not listen, and empties itself whenever listening changes", () => {
    const cache = new RenderCache({ maxBytes: 1024 });
    expect(cache.listening).toBe(false);
    expect(cache.set("/", page(), cache.generation)).toBe(false);
    expect(cache.get("/")).toBeUndefined();

    cache.setListening(true);
    expect(cache.set("/", page(), cache.generation)).toBe(true);
    // The listening connection is lost: what was kept may miss a change announced meanwhile.
    const beforeLoss = cache.generation;
    cache.setListening(false);
    expect(cache.get("/")).toBeUndefined();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
    expect(cache.set("/", page(), cache.generation)).toBe(false);

    // Listening again: empty, and a render that started before (while deaf) is not kept.
    const whileDeaf = cache.generation;
    cache.setListening(true);
    expect(cache.generation).not.toBe(whileDeaf);
    expect(cache.generation).not.toBe(beforeLoss);
    expect(cache.set("/", page(), whileDeaf)).toBe(false);
    expect(cache.set("/", page(), cache.generation)).toBe(true);
  });

  it("does not empty itself when told the same listening state again", () => {
    const cache = listeningCache();
    cache.set("/", page(), cache.generation);
    cache.setListening(true);
    expect(cache.get("/")).toBeDefined();
  });

  it("forgets an entry at its expiresAt (the injected clock), and frees its bytes", () => {
    let now = 1_000_000;
    const cache = listeningCache({ now: () => now });
    cache.set("/cours", page(["courses"], { expiresAt: now + 5000 }), cache.generation);
    cache.set("/contact", page([], { expiresAt: Infinity }), cache.generation);
    now += 4999;
    expect(cache.get("/cours")).toBeDefined();
    now += 1;
    expect(cache.get("/cours")).toBeUndefined();
    expect([cache.size, cache.bytes]).toEqual([1, 10]);
    now += 365 * 24 * 3600 * 1000;
    expect(cache.get("/contact")).toBeDefined();
  });

  it("evicts the least recently used entries beyond maxBytes (identity, brotli and gzip bodies counted)", () => {
    const cache = listeningCache({ maxBytes: 100 });
    const big = (bytes: number) => ({
      ...page([], { bytes: 10 }),
      brotli: Buffer.alloc(bytes - 20),
      gzip: Buffer.alloc(10),
    });
    cache.set("/a", big(40), cache.generation);
    cache.set("/b", big(40), cache.generation);
    expect(cache.bytes).toBe(80);
    // /a is read: /b becomes the least recently used.
    expect(cache.get("/a")).toBeDefined();
    cache.set("/c", big(40), cache.generation);
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.get("/a")).toBeDefined();
    expect(cache.get("/c")).toBeDefined();
    expect([cache.size, cache.bytes]).toEqual([2, 80]);
    // Replacing an entry counts its bytes once.
    cache.set("/c", big(30), cache.generation);
    expect([cache.size, cache.bytes]).toEqual([2, 70]);
    // A page larger than the whole cache is not kept, and evicts nothing.
    expect(cache.set("/huge", big(101), cache.generation)).toBe(false);
    expect([cache.size, cache.bytes]).toEqual([2, 70]);
    // One that needs all of it evicts every other.
    expect(cache.set("/full", big(100), cache.generation)).toBe(true);
    expect([cache.size, cache.bytes]).toEqual([1, 100]);
    expect(cache.get("/full")).toBeDefined();
  });
});

let build: ServerBuild;
beforeAll(async () => {
  build = (await import(pathToFileURL(path.resolve("build", "server", "index.js")).href)) as ServerBuild;
});

describe("cacheablePage, on the routes of the real build", () => {
  let tree: RouteNode[];
  beforeAll(() => {
    tree = routeTree(build.routes);
  });
  const keyOf = (url: string) => cacheablePage(tree, build, url)?.key ?? null;
  const tagsOf = (url: string) => [...(cacheablePage(tree, build, url)?.tags ?? [])].sort();

  it.each([
    ["/", "/"],
    ["/cours", "/cours"],
    ["/cours/applications-mobiles", "/cours/applications-mobiles"],
    ["/Cours/applications-mobiles/", "/cours/applications-mobiles"],
    ["/cours/%61pplications-mobiles", "/cours/applications-mobiles"],
    ["/COURS/APPLICATIONS-MOBILES", "/cours/applications-mobiles"],
    ["/./cours/x/../applications-mobiles", "/cours/applications-mobiles"],
    ["/contact/", "/contact"],
    ["/contact?utm_source=lettre", "/contact"],
    ["/robots.txt", "/robots.txt"],
    ["/sitemap.xml", "/sitemap.xml"],
    ["/blog/rss.xml", "/blog/rss.xml"],
  ])("keys %s as %s", (url, key) => {
    expect(keyOf(url)).toBe(key);
  });

  it("keeps only the query parameters the route reads (the course page's seance), first value", () => {
    expect(keyOf("/cours/applications-mobiles?fbclid=x&seance=3")).toBe("/cours/applications-mobiles?seance=3");
    expect(keyOf("/cours/applications-mobiles?seance=3&seance=4&utm_medium=mail")).toBe(
      "/cours/applications-mobiles?seance=3",
    );
    expect(keyOf("/cours/applications-mobiles?fbclid=x")).toBe("/cours/applications-mobiles");
    // The home page reads none.
    expect(keyOf("/?seance=3&fbclid=x")).toBe("/");
  });

  it("carries the tags of every route of the match: the courses' pages show seats, the newsletter's its letters, the blog's its articles", () => {
    expect(tagsOf("/")).toEqual(["articles", "courses", "pictures"]);
    expect(tagsOf("/cours/securite")).toEqual(["courses"]);
    expect(tagsOf("/cours")).toEqual(["courses"]);
    expect(tagsOf("/newsletter/archives")).toEqual(["letters"]);
    expect(tagsOf("/sitemap.xml")).toEqual(["articles", "letters"]);
    expect(tagsOf("/blog")).toEqual(["articles"]);
    expect(tagsOf("/blog/page/2")).toEqual(["articles"]);
    expect(tagsOf("/blog/un-article")).toEqual(["articles"]);
    expect(tagsOf("/blog/rss.xml")).toEqual(["articles"]);
    expect(tagsOf("/contact")).toEqual([]);
  });

  it.each(["/cours/..%2fcontact", "/cours/..%2Fadmin", "/cours/x%2f..%2f..%2fcontact", "/blog/..%2f..%2fcontact"])(
    "does not cache %s: React Router reads one segment with a slash in it, a render of the decoded key another page",
    (url) => {
      // `/cours/..%2fcontact` is the course "../contact" (a 404) for React Router; its key must not be
      // `/cours/../contact`, which a render resolves to /contact: any number of such keys would each keep a copy.
      expect(cacheablePage(tree, build, url)).toBeNull();
    },
  );

  it("keys every path no other route matches as the one 404 page, but not its data request", () => {
    for (const url of ["/nulle-part", "/Nulle-Part/", "/a/b/c?x=1", "/%C3%A9t%C3%A9", "/admin-x", "/.env"]) {
      expect(cacheablePage(tree, build, url), url).toMatchObject({ key: "/page-introuvable", status: 404 });
    }
    expect(cacheablePage(tree, build, "/nulle-part.data")).toBeNull();
    // React Router's route discovery, which the browser's router asks during a click.
    expect(cacheablePage(tree, build, "/__manifest?p=%2Fblog%2Fun-article&version=abc")).toBeNull();
    // An unknown article or course is its route's own 404 (answered, not kept).
    expect(keyOf("/blog/article-inconnu")).toBe("/blog/article-inconnu");
  });

  it.each([
    // The desk, under every spelling React Router resolves to it.
    "/admin",
    "/Admin",
    "/%61dmin",
    "/admin/",
    "/x/../admin",
    "/admin/connexion",
    "/admin/cours",
    "/admin/cours/1",
    // Pages of one person, named by a token.
    "/cours/inscription/abc",
    "/cours/inscription/abc/calendrier.ics",
    "/cours/place/abc",
    "/newsletter/confirmer/abc",
    "/newsletter/desabonnement/abc",
    // A path that cannot be decoded.
    "/%",
  ])("does not cache %s", (url) => {
    expect(cacheablePage(tree, build, url)).toBeNull();
  });
});

describe("createPageRenderer, on the real build", () => {
  /** A renderer of the real build on `cache`, counting its renders; robots.txt, the page these tests render, reads no database. */
  const renderer = (cache: RenderCache) =>
    countingRenderer(
      build,
      cache,
      testSettings({ DATA_DIR: "unused", SITE_URL: "https://www.example.ch" }),
      {} as Database,
    );

  it("renders a page once for the requests that ask meanwhile, then answers from the cache", async () => {
    const cache = listeningCache();
    const pages = renderer(cache);
    const robots = pages.pageOf("/robots.txt")!;
    const [first, second] = await Promise.all([pages.answer(robots), pages.answer(robots)]);
    expect(pages.renders).toBe(1);
    expect(first).toBe(second);
    expect(first.kept).toBe(true);
    expect(identityOf(first).toString()).toContain("Sitemap: https://www.example.ch/sitemap.xml");
    expect(await pages.answer(robots)).toBe(first);
    expect(pages.renders).toBe(1);
  });

  it("does not hand a request that came after a change the render that started before it", async () => {
    const cache = listeningCache();
    const pages = renderer(cache);
    const robots = pages.pageOf("/robots.txt")!;
    const before = pages.answer(robots);
    // The database announces a change while that render runs: it may have read the data before it.
    cache.invalidate("courses");
    const after = pages.answer(robots);
    expect(pages.renders).toBe(2);
    const [old, fresh] = await Promise.all([before, after]);
    expect(old).not.toBe(fresh);
    // Only the render that started after the change is kept, and the old one's end leaves it alone.
    expect(cache.get(robots.key)).toBe(fresh);
    expect(await pages.answer(robots)).toBe(fresh);
    expect(pages.renders).toBe(2);
  });
});

describe("a page rendered while the database fails", () => {
  /** A database whose every query fails, as a lost connection does. */
  const failingDb = new Proxy(
    {},
    {
      get: () => () => {
        throw new Error("connection terminated unexpectedly");
      },
    },
  );

  it("is answered, without its course dates, but not kept: the next visitor's render may have them", async () => {
    const settings = testSettings({ DATA_DIR: "unused", SITE_URL: "https://www.example.ch" });
    const cache = listeningCache();
    const pages = createPageRenderer({
      build,
      mode: "production",
      cache,
      siteUrl: settings.SITE_URL,
      loadContext: () => ({ settings, logger: silentLogger, db: failingDb as Database, clock: systemClock }),
      logger: silentLogger,
    });
    const home = pages.pageOf("/")!;
    const answer = await pages.answer(home);
    // The home page still answers (its course cards without dates)...
    expect(answer.status).toBe(200);
    // ...but that answer is not kept until the next change of a session, which may be days away.
    expect(answer.kept).toBe(false);
    expect(cache.get(home.key)).toBeUndefined();
  });
});

describe("preferredEncoding", () => {
  it.each([
    // What browsers send: every encoding of equal weight, brotli not first.
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate, br", "br"],
    ["br", "br"],
    ["*", "br"],
    ["gzip", "gzip"],
    ["gzip, deflate", "gzip"],
    ["br;q=0.5, gzip", "gzip"],
    ["gzip;q=0.5, br;q=0.5", "br"],
    ["gzip, br;q=0", "gzip"],
    ["*, br;q=0", "gzip"],
    ["deflate", "identity"],
    ["identity", "identity"],
    ["br;q=0, gzip;q=0", "identity"],
    ["", "identity"],
    [undefined, "identity"],
  ])("answers %j with %s", (header, encoding) => {
    expect(preferredEncoding(header)).toBe(encoding);
  });

  it("answers a spelling it has seen as the first time, and spellings beyond those it keeps", () => {
    // 100 spellings (more than are kept), each asked twice: brotli when its weight is at least gzip's 0.5.
    for (let round = 0; round < 2; round++) {
      for (let n = 1; n <= 100; n++) {
        expect(preferredEncoding(`br;q=0.${n}, gzip;q=0.5`)).toBe(Number(`0.${n}`) >= 0.5 ? "br" : "gzip");
      }
    }
  });
});

describe("the start-up warm-up", () => {
  it("renders /, /cours and /blog first, then the sitemap's pages by depth, newest articles before the blog's pages", () => {
    const sitemap = [
      "/",
      "/contact",
      "/cours",
      "/cours/securite",
      "/blog",
      "/blog/page/2",
      "/blog/page/3",
      "/blog/le-plus-recent",
      "/blog/un-ancien",
      "/newsletter",
      "/newsletter/archives",
      "/newsletter/archives/lettre-1",
    ];
    expect(warmUpOrder(sitemap)).toEqual([
      "/",
      "/cours",
      "/blog",
      "/sitemap.xml",
      "/contact",
      "/newsletter",
      "/cours/securite",
      "/blog/le-plus-recent",
      "/blog/un-ancien",
      "/newsletter/archives",
      "/blog/page/2",
      "/blog/page/3",
      "/newsletter/archives/lettre-1",
      "/mentions-legales",
      "/confidentialite",
      "/coordonnees",
      "/blog/rss.xml",
      "/robots.txt",
    ]);
  });

  it("renders before listening the pages visited most, the sitemap, the first page of each kind and the 404 page", () => {
    const order = warmUpOrder([
      "/",
      "/contact",
      "/cours",
      "/cours/securite",
      "/cours/smartphone",
      "/blog",
      "/blog/page/2",
      "/blog/le-plus-recent",
      "/blog/un-ancien",
      "/newsletter/archives",
      "/newsletter/archives/lettre-1",
      "/newsletter/archives/lettre-2",
    ]);
    expect(headOf(order)).toEqual([
      "/",
      "/cours",
      "/blog",
      "/sitemap.xml",
      "/contact",
      "/cours/securite",
      "/blog/le-plus-recent",
      "/newsletter/archives",
      "/blog/page/2",
      "/newsletter/archives/lettre-1",
      "/mentions-legales",
      "/confidentialite",
      "/coordonnees",
      "/blog/rss.xml",
      "/robots.txt",
      "/~",
    ]);
  });

  /**
   * A renderer whose pages are `bytes` each, kept in `cache`, and whose sitemap lists `paths`; records
   * what it renders; its `idle` resolves with `idle`.
   */
  function fakeRenderer(cache: RenderCache, paths: string[], bytes: number, idle = Promise.resolve()) {
    const rendered: string[] = [];
    const sitemap = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths
      .map((path) => `<url><loc>https://www.example.ch${path}</loc></url>`)
      .join("")}</urlset>`;
    const renderer: PageRenderer = {
      cache,
      logger: silentLogger,
      pageOf: (url) => ({ key: url, tags: new Set(), status: 200 }),
      idle: () => idle,
      kept: ({ key }) => cache.get(key),
      async answer({ key }) {
        const kept = cache.get(key);
        if (kept) return kept;
        rendered.push(key);
        const answer = { ...page([], { bytes }), ...(key === "/sitemap.xml" ? { body: Buffer.from(sitemap) } : {}) };
        cache.set(key, answer, cache.generation);
        return answer;
      },
    };
    return { renderer, rendered };
  }

  it("stops before the cache would evict a page it kept", async () => {
    const articles = Array.from({ length: 50 }, (_, index) => `/blog/article-${index}`);
    const cache = listeningCache({ maxBytes: 20_000 });
    const { renderer, rendered } = fakeRenderer(cache, ["/", "/cours", "/blog", ...articles], 1000);
    const kept = await warmRenderCache(renderer);
    expect(rendered.slice(0, 5)).toEqual(["/", "/cours", "/blog", "/sitemap.xml", "/blog/article-0"]);
    // Room for 20 pages of 1,000 bytes (the sitemap's is larger): it stops with two pages' room left.
    expect(kept).toBe(rendered.length);
    expect(kept).toBeLessThan(20);
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    // Nothing it kept was evicted.
    for (const key of rendered) expect(cache.get(key), key).toBeDefined();
  });

  it("renders the head first and the rest after it, each page once", async () => {
    const articles = Array.from({ length: 5 }, (_, index) => `/blog/article-${index}`);
    const cache = listeningCache();
    const { renderer, rendered } = fakeRenderer(cache, ["/", "/contact", "/cours", "/blog", ...articles], 100);
    const state = await warmUpHead(renderer);
    expect(rendered).toEqual([
      "/",
      "/cours",
      "/blog",
      "/sitemap.xml",
      "/contact",
      "/blog/article-0",
      "/mentions-legales",
      "/confidentialite",
      "/coordonnees",
      "/blog/rss.xml",
      "/robots.txt",
      "/~",
    ]);
    const kept = await warmUpRest(renderer, state);
    expect(rendered.slice(12)).toEqual(articles.slice(1));
    expect(new Set(rendered).size).toBe(rendered.length);
    expect(kept).toBe(rendered.length);
  });

  it("waits for the renders in progress (a visitor's) before each page", async () => {
    let visitorDone!: () => void;
    const visitor = new Promise<void>((resolve) => (visitorDone = resolve));
    const { renderer, rendered } = fakeRenderer(listeningCache(), ["/", "/contact"], 10, visitor);
    const warming = warmRenderCache(renderer);
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(rendered).toEqual([]);
    visitorDone();
    expect(await warming).toBeGreaterThan(0);
    expect(rendered[0]).toBe("/");
  });

  it("gives way to other work between two pages", async () => {
    const cache = listeningCache();
    const { renderer, rendered } = fakeRenderer(cache, ["/", "/contact", "/questions"], 10);
    const seen: number[] = [];
    // A request arriving meanwhile: its callback runs before the warm-up's next page.
    const warming = warmRenderCache(renderer);
    setImmediate(() => seen.push(rendered.length));
    await warming;
    expect(seen[0]).toBeLessThan(rendered.length);
  });
});
