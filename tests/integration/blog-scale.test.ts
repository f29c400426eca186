/**
 * Cost that grows with what is shown (issue 34, item 3), on the real build's
 * pages rendered as the render cache renders them (`createPageRenderer`),
 * over a PGlite database of 100 articles with long bodies, every query
 * recorded: no list reads a body (the home page, the blog's pages, the
 * related cards, the feed, the sitemap, the root's data); the blog's pages
 * of 12 with plain links and a short navigation; the feed of the newest 20
 * with their summaries; the 404 page rendered once for every unknown path;
 * a `?seance=` value that names nothing answered by the course's kept page.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { XMLParser } from "fast-xml-parser";
import { createRequestHandler, type ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestContext, systemClock } from "../../app/context.server";
import { createSession } from "../../app/courses/sessions.server";
import type { Database } from "../../app/db/client.server";
import * as schema from "../../app/db/schema";
import { articles } from "../../app/db/schema";
import { RenderCache, sizeOf } from "../../server/render-cache-store";
import { identityOf } from "../../server/render-cache-bodies";
import {
  archiveArticleBody,
  countingRenderer,
  openTestDatabase,
  pageText,
  sessionFields,
  silentLogger,
  testSettings,
  type TestDatabase,
} from "../support/harness";

const COUNT = 100;
/** A body of about 20 KB that says whose it is: no list may carry it. */
const bodyOf = (n: number) => `## Corps ${n}\n\n${`CORPS-ENTIER-${n} `.repeat(1200)}\n`;
/** Article n's date: one a day, article 100 the newest. */
const dateOf = (n: number) => new Date(Date.UTC(2020, 0, n)).toISOString().slice(0, 10);
const slugOf = (n: number) => `article-${String(n).padStart(3, "0")}`;
const ARCHIVE_SLUG = "article-archive-1";

let build: ServerBuild;
let database: TestDatabase;
/** Every SQL statement the pages ran, in order. */
const queries: string[] = [];
let db: Database;
const settings = testSettings({ DATA_DIR: "unused", SITE_URL: "https://www.example.ch" });

beforeAll(async () => {
  build = (await import(
    pathToFileURL(path.resolve(process.env.BUILD_DIR ?? "build", "server", "index.js")).href
  )) as ServerBuild;
  database = await openTestDatabase();
  await database.db.insert(articles).values(
    Array.from({ length: COUNT }, (_, index) => {
      const n = index + 1;
      return {
        slug: slugOf(n),
        title: `Article numéro ${n}`,
        excerpt: `Le résumé de l’article ${n}.`,
        category: n % 2 ? "Sécurité" : "Applications",
        author: "Marie",
        body: bodyOf(n),
        icon: "ShieldAlert",
        color: "primary",
        featured: n === 50,
        readTime: 5,
        date: dateOf(n),
        publishedAt: `${dateOf(n)}T08:00:00Z`,
      };
    }),
  );
  // Scheduled: no public page shows it yet.
  await database.db.insert(articles).values({
    slug: "article-a-venir",
    title: "À venir",
    excerpt: "Bientôt.",
    category: "Sécurité",
    author: "Marie",
    body: bodyOf(999),
    icon: "ShieldAlert",
    color: "primary",
    readTime: 5,
    date: "2099-01-01",
    publishedAt: "2099-01-01T08:00:00Z",
  });
  // The oldest, written like `npm run bench:scale`'s archive (the render cache's bound is chosen for it).
  await database.db.insert(articles).values({
    slug: ARCHIVE_SLUG,
    title: "Article 1 : un guide pas à pas",
    excerpt: "Ce que l’article 1 explique, en deux phrases simples pour savoir s’il vous sera utile.",
    category: "Sécurité",
    author: "Marie Dupont",
    body: archiveArticleBody(1),
    icon: "ShieldAlert",
    color: "primary",
    readTime: 6,
    date: "2019-12-31",
    publishedAt: "2019-12-31T08:00:00Z",
  });
  const client = (database.db as unknown as { $client: PGlite }).$client;
  db = drizzle(client, { schema, logger: { logQuery: (query) => void queries.push(query) } }) as unknown as Database;
}, 120_000);
afterAll(async () => database?.close());

/** A renderer of the real build over the recording database, counting its renders. */
function renderer() {
  const cache = new RenderCache({ maxBytes: 64 * 1024 * 1024 });
  cache.setListening(true);
  const pages = countingRenderer(build, cache, settings, db);
  return {
    /** The answer to `url` (status and text), as the cache gives it. */
    async get(url: string) {
      const answer = await pages.answer(pages.pageOf(url)!);
      return { answer, status: answer.status, text: identityOf(answer).toString("utf8") };
    },
    get renders() {
      return pages.renders;
    },
  };
}

/** The statements run by `read()` that select an article's body. */
async function bodiesRead(read: () => Promise<unknown>): Promise<string[]> {
  queries.length = 0;
  await read();
  return queries.filter((query) => /"body"/.test(query) && /from "articles"/.test(query));
}

describe("lists read no body", () => {
  it("renders the home page, the blog's pages, the feed and the sitemap without reading one body", async () => {
    const site = renderer();
    for (const url of ["/", "/blog", "/blog/page/2", "/blog/page/9", "/blog/rss.xml", "/sitemap.xml"]) {
      expect(await bodiesRead(() => site.get(url)), url).toEqual([]);
      expect((await site.get(url)).status, url).toBe(200);
    }
  });

  it("reads the body of the article shown, and only its: the related cards read none", async () => {
    const site = renderer();
    const read = await bodiesRead(() => site.get(`/blog/${slugOf(40)}`));
    expect(read).toHaveLength(1);
    expect(read[0]).toMatch(/"articles"\."slug" = \$\d/);
    const { text } = await site.get(`/blog/${slugOf(40)}`);
    expect(text).toContain(`CORPS-ENTIER-40`);
    // Two related cards, the same category first (even numbers: « Applications »), newest first.
    const related = text.slice(text.indexOf("Articles similaires"));
    expect([...related.matchAll(/href="\/blog\/(article-\d+)"/g)].map((match) => match[1])).toEqual([
      slugOf(100),
      slugOf(98),
    ]);
    for (const n of [100, 98]) expect(text).not.toContain(`CORPS-ENTIER-${n}`);
  });

  it("answers /blog.data, the click on « Blog », with its 12 cards: small, no body", async () => {
    const handle = createRequestHandler(build, "production");
    const answer = await handle(
      new Request(`${settings.SITE_URL}/blog.data`),
      requestContext({ settings, db, logger: silentLogger, clock: systemClock }),
    );
    expect(answer.status).toBe(200);
    const data = await answer.text();
    expect(data).not.toContain("CORPS-ENTIER");
    expect(data).toContain(slugOf(100));
    expect(data).not.toContain(slugOf(88));
    expect(Buffer.byteLength(data)).toBeLessThan(30_000);
  });
});

describe("the blog's pages", () => {
  /** The links of the pages' navigation: label and address. */
  const navigation = (html: string) => {
    const nav = /<nav aria-label="Pages des articles"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "";
    return [...nav.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)].map(
      ([, href, label]) => `${pageText(label!).trim()} ${href}`,
    );
  };

  it("shows 12 cards a page, newest first, with plain links to the pages around it", async () => {
    const site = renderer();
    const first = (await site.get("/blog")).text;
    expect(pageText(first)).toContain("page 1 sur 9");
    expect(navigation(first)).toEqual([
      "1 /blog",
      "2 /blog/page/2",
      "9 /blog/page/9",
      "Articles plus anciens /blog/page/2",
    ]);
    const fifth = await site.get("/blog/page/5");
    expect(fifth.status).toBe(200);
    const grid = fifth.text.slice(fifth.text.indexOf('id="tous-les-articles"'));
    const cards = [...new Set([...grid.matchAll(/href="\/blog\/article-(\d+)"/g)].map((match) => Number(match[1])))];
    expect(cards).toEqual(Array.from({ length: 12 }, (_, index) => 52 - index));
    expect(pageText(fifth.text)).toContain("page 5 sur 9");
    expect(navigation(fifth.text)).toEqual([
      "Articles plus récents /blog/page/4",
      "1 /blog",
      "4 /blog/page/4",
      "5 /blog/page/5",
      "6 /blog/page/6",
      "9 /blog/page/9",
      "Articles plus anciens /blog/page/6",
    ]);
    expect(fifth.text).toContain('<link rel="canonical" href="https://www.example.ch/blog/page/5"/>');
    // The last page holds the oldest 4; beyond it, and page 1's other address, 404.
    expect([...(await site.get("/blog/page/9")).text.matchAll(/Article numéro (\d+)/g)].length).toBeGreaterThan(0);
    for (const url of ["/blog/page/10", "/blog/page/1", "/blog/page/0"])
      expect((await site.get(url)).status, url).toBe(404);
  });

  it("lists every page of the blog and every published article in the sitemap, not the scheduled one", async () => {
    const { text } = await renderer().get("/sitemap.xml");
    const urls = [...text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    for (let page = 2; page <= 9; page++) expect(urls).toContain(`https://www.example.ch/blog/page/${page}`);
    expect(urls).not.toContain("https://www.example.ch/blog/page/10");
    for (let n = 1; n <= COUNT; n++) expect(urls).toContain(`https://www.example.ch/blog/${slugOf(n)}`);
    expect(urls).not.toContain("https://www.example.ch/blog/article-a-venir");
  });
});

describe("the feed", () => {
  it("carries the newest 20 articles with their summaries, not their bodies", async () => {
    const { text } = await renderer().get("/blog/rss.xml");
    const items = [new XMLParser().parse(text).rss.channel.item].flat() as { link: string; description: string }[];
    expect(items.map((item) => item.link)).toEqual(
      Array.from({ length: 20 }, (_, index) => `https://www.example.ch/blog/${slugOf(COUNT - index)}`),
    );
    expect(items[0]!.description).toBe(`Le résumé de l’article ${COUNT}.`);
    expect(text).not.toContain("CORPS-ENTIER");
    expect(Buffer.byteLength(text)).toBeLessThan(20_000);
  });
});

describe("pages that do not depend on the address", () => {
  it("renders the 404 page once, and answers it, kept, to every unknown path", async () => {
    const site = renderer();
    const first = await site.get("/nulle-part");
    expect(first.status).toBe(404);
    expect(first.answer.kept).toBe(true);
    expect(pageText(first.text)).toContain("Oops! Page not found");
    const renders = site.renders;
    for (const url of ["/ailleurs", "/nope-1", "/nope-2/plus/loin", "/Nope-3/"]) {
      const other = await site.get(url);
      expect(other.status, url).toBe(404);
      expect(other.answer, url).toBe(first.answer);
    }
    expect(site.renders).toBe(renders);
  });

  it("answers a ?seance= value that names no session of the course with its kept page, without a render", async () => {
    const sessionId = await createSession(database.db, sessionFields({ courseId: "securite" }));
    const site = renderer();
    const bare = await site.get("/cours/securite");
    expect(bare.answer.kept).toBe(true);
    const renders = site.renders;
    for (const value of ["x123", "999999", `0${sessionId}`, `${sessionId}.0`, ""]) {
      const url = `/cours/securite?seance=${encodeURIComponent(value)}`;
      expect((await site.get(url)).answer, url).toBe(bare.answer);
    }
    expect(site.renders).toBe(renders);
    // The session's own number: a page of its own, its date chosen in the form.
    const chosen = await site.get(`/cours/securite?seance=${sessionId}`);
    expect(chosen.answer).not.toBe(bare.answer);
    expect(chosen.answer.kept).toBe(true);
    expect(site.renders).toBe(renders + 1);
  });
});

describe("what the render cache holds", () => {
  it("holds an article as its brotli and gzip bodies only, so that its default bounds keep a 1,000-article archive", async () => {
    const { answer, text } = await renderer().get(`/blog/${ARCHIVE_SLUG}`);
    expect(answer.kept).toBe(true);
    // The page as rendered, inflated for a visitor who accepts no compression, is the page brotli gives.
    expect(zlib.brotliDecompressSync(answer.brotli!).toString("utf8")).toBe(text);
    expect(answer.length).toBe(Buffer.byteLength(text));
    // What the bound counts is what the entry holds: each body in memory of its own length, no third body.
    for (const body of [answer.brotli!, answer.gzip!]) expect(body.buffer.byteLength).toBe(body.length);
    expect(sizeOf(answer)).toBe(answer.brotli!.length + answer.gzip!.length);
    // Memory's default bound holds the 500 articles visited most (decision 062); with the disk's (decision 077),
    // 5,000 such articles, a tenth of it left for the site's other pages.
    const megabytes = (count: number) => (count * sizeOf(answer)) / (1024 * 1024);
    expect(megabytes(500)).toBeLessThan(0.9 * settings.RENDER_CACHE_MAX_MB);
    expect(megabytes(5000)).toBeLessThan(0.9 * (settings.RENDER_CACHE_MAX_MB + settings.RENDER_CACHE_DISK_MB));
  });
});
