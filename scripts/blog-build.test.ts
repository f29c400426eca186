/**
 * A site with 60 generated articles (outside the site's content), served by
 * the production server (`spawnSite`, as production runs it): the index is
 * paged by 12, every article and the feed answer, and the home page shows
 * the featured article first. The shared build serves: nothing of the
 * articles is read at build time (they are imported into the database when
 * the server starts, decision 023, and rendered on request, decision 017).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixtureArticles } from "../tests/fixtures/blog-articles";
import { dataDirWithoutArticles, servedPages, spawnSite, type SpawnedSite } from "../tests/support/harness";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "blog-articles-"));
const contentDir = path.join(work, "content");
const siteUrl = "https://www.example.ch";
let slugs: string[] = [];
let site: SpawnedSite | undefined;
let dataDir: string | undefined;

/** The HTML of `sitePath` as the server answers it. @throws unless it is a 200 HTML page. */
const page = async (sitePath: string) => (await servedPages(site!.url, [sitePath]))[0]!.html;

beforeAll(async () => {
  slugs = writeFixtureArticles(contentDir, 60);
  // A database without the repository's articles: the blog is these 60 files.
  dataDir = await dataDirWithoutArticles();
  site = await spawnSite({ DATA_DIR: dataDir, BLOG_CONTENT_DIR: contentDir, SITE_URL: siteUrl, LOG_LEVEL: "warn" });
  await site.ready();
}, 240_000);

afterAll(async () => {
  await site?.stop();
  fs.rmSync(work, { recursive: true, force: true });
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a site with 60 articles", () => {
  it("serves every article page", async () => {
    for (const slug of slugs)
      expect(await page(`/blog/${slug}`), slug).toContain(`Article d’essai ${Number(slug.slice(-3))}`);
  });

  it("pages the index by 12: /blog and /blog/page/2 to /blog/page/5", async () => {
    expect((await fetch(`${site!.url}/blog/page/6`)).status).toBe(404);
    const first = await page("/blog");
    expect(first).toContain("page 1 sur 5");
    expect(first).toContain('href="/blog/article-001"');
    expect(first).not.toContain('href="/blog/article-013"');
    for (let number = 2; number <= 5; number++) {
      const html = await page(`/blog/page/${number}`);
      expect(html).toContain(`page ${number} sur 5`);
      expect(html).toContain(`href="/blog/article-${String((number - 1) * 12 + 1).padStart(3, "0")}"`);
    }
    expect(await page("/blog/page/5")).toContain('href="/blog/article-060"');
  });

  it("serves a feed with the newest 20 of the 60 articles and absolute links on SITE_URL", async () => {
    const answer = await fetch(`${site!.url}/blog/rss.xml`);
    expect(answer.status).toBe(200);
    const feed = new XMLParser().parse(await answer.text());
    const links = [feed.rss.channel.item].flat().map((item: { link: string }) => item.link);
    expect(links).toEqual(
      Array.from({ length: 20 }, (_, index) => `${siteUrl}/blog/article-${String(index + 1).padStart(3, "0")}`),
    );
  });

  it("shows the featured article first on the home page", async () => {
    const home = await page("/");
    const order = ["article-007", "article-001", "article-002"].map((slug) => home.indexOf(`href="/blog/${slug}"`));
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
