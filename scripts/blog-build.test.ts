/**
 * A real build with 60 generated articles (outside the site's content):
 * the index is paged by 12 and every page, article and the feed is
 * prerendered; the home page, rendered on request by that build's server,
 * shows the featured article first. Takes about 15 s (a whole
 * `react-router build`).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixtureArticles } from "../tests/fixtures/blog-articles";
import { renderedPage } from "../tests/support/harness";

// Inside the project: the build's server bundle must resolve the project's node_modules.
const testBuilds = path.resolve(".test-builds");
fs.mkdirSync(testBuilds, { recursive: true });

const work = fs.mkdtempSync(path.join(testBuilds, "blog-build-"));
const contentDir = path.join(work, "content");
const buildDir = path.join(work, "build");
let slugs: string[] = [];
const read = (...parts: string[]) => fs.readFileSync(path.join(buildDir, "client", ...parts), "utf8");

beforeAll(() => {
  slugs = writeFixtureArticles(contentDir, 60);
  execFileSync("npx", ["react-router", "build"], {
    env: { ...process.env, BLOG_CONTENT_DIR: contentDir, BUILD_DIR: buildDir, SITE_URL: "https://www.example.ch" },
    stdio: "pipe",
  });
}, 240_000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("a build with 60 articles", () => {
  it("prerenders every article page", () => {
    for (const slug of slugs)
      expect(read("blog", slug, "index.html"), slug).toContain(`Article d’essai ${Number(slug.slice(-3))}`);
  });

  it("pages the index by 12: /blog and /blog/page/2 to /blog/page/5", () => {
    expect(fs.existsSync(path.join(buildDir, "client", "blog", "page", "6"))).toBe(false);
    const first = read("blog", "index.html");
    expect(first).toContain("page 1 sur 5");
    expect(first).toContain('href="/blog/article-001"');
    expect(first).not.toContain('href="/blog/article-013"');
    for (let page = 2; page <= 5; page++) {
      const html = read("blog", "page", String(page), "index.html");
      expect(html).toContain(`page ${page} sur 5`);
      expect(html).toContain(`href="/blog/article-${String((page - 1) * 12 + 1).padStart(3, "0")}"`);
    }
    expect(read("blog", "page", "5", "index.html")).toContain('href="/blog/article-060"');
  });

  it("writes a feed with all 60 articles and absolute links", () => {
    const feed = new XMLParser().parse(read("blog", "rss.xml"));
    const links = [feed.rss.channel.item].flat().map((item: { link: string }) => item.link);
    expect(links).toHaveLength(60);
    expect(links[0]).toBe("https://www.example.ch/blog/article-001");
  });

  it("shows the featured article first on the home page", async () => {
    // The home page is rendered on request (decision 017): this build's server answers it.
    const home = await renderedPage("/", {
      BUILD_DIR: path.relative(process.cwd(), buildDir),
      BLOG_CONTENT_DIR: contentDir,
      SITE_URL: "https://www.example.ch",
    });
    const order = ["article-007", "article-001", "article-002"].map((slug) => home.indexOf(`href="/blog/${slug}"`));
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
