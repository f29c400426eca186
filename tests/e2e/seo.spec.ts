/**
 * Search-engine files and metadata as the production server answers them:
 * every URL of /sitemap.xml answers 200 with its own URL as canonical,
 * robots.txt is plain text naming the sitemap, and the pages the sitemap
 * leaves out (noindex) or that show the database's data carry their
 * metadata too.
 *
 * The sitemap's URLs are on SITE_URL (by default http://localhost:3000,
 * not this test server's port): each is requested here by its path, and its
 * canonical must equal the sitemap's URL exactly.
 */
import { XMLParser } from "fast-xml-parser";
import { expect, test } from "@playwright/test";
import { isNoindex, readHeadMetadata } from "../../tooling/page-metadata";

test("every URL of /sitemap.xml answers 200 and declares itself as canonical", async ({ request }) => {
  const response = await request.get("/sitemap.xml");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/xml; charset=utf-8");
  const entries = [new XMLParser().parse(await response.text()).urlset.url].flat() as { loc: string }[];
  const urls = entries.map((entry) => entry.loc);
  expect(urls.length, "URLs in the sitemap").toBeGreaterThan(3);
  expect(new Set(urls.map((url) => new URL(url).origin)).size, "one origin: SITE_URL").toBe(1);
  for (const url of urls) {
    const page = await request.get(new URL(url).pathname);
    expect(page.status(), url).toBe(200);
    const metadata = readHeadMetadata(await page.text());
    expect(isNoindex(metadata), `${url} is indexable`).toBe(false);
    expect(metadata.canonical, url).toBe(url);
  }
});

test("/robots.txt answers 200 in plain text and names the sitemap on SITE_URL", async ({ request }) => {
  const response = await request.get("/robots.txt");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^text\/plain; charset=utf-8$/i);
  const sitemapLine = (await response.text()).split("\n").find((line) => line.startsWith("Sitemap: "));
  const home = readHeadMetadata(await (await request.get("/")).text());
  expect(sitemapLine).toBe(`Sitemap: ${new URL(home.canonical!).origin}/sitemap.xml`);
});

test("pages outside the blog carry their metadata; noindex ones have no canonical", async ({ request }) => {
  const origin = new URL(readHeadMetadata(await (await request.get("/")).text()).canonical!).origin;
  for (const [sitePath, indexable] of [
    ["/contact", true],
    ["/coordonnees", false],
    ["/mentions-legales", false],
    ["/confidentialite", false],
    ["/newsletter", true],
    ["/newsletter/archives", true],
  ] as const) {
    const response = await request.get(sitePath);
    expect(response.status(), sitePath).toBe(200);
    const metadata = readHeadMetadata(await response.text());
    expect(metadata.title, sitePath).toBeTruthy();
    expect(metadata.description, sitePath).toBeTruthy();
    expect(isNoindex(metadata), sitePath).toBe(!indexable);
    expect(metadata.canonical, sitePath).toBe(indexable ? `${origin}${sitePath}` : null);
    expect(metadata.properties["og:url"], sitePath).toBe(`${origin}${sitePath}`);
    expect(metadata.properties["og:image"], sitePath).toBe(`${origin}/og/site.png`);
    expect((await request.get("/og/site.png")).status()).toBe(200);
  }
});

test("the 404 page is noindex, without canonical nor share tags", async ({ request }) => {
  for (const sitePath of ["/page-qui-n-existe-pas", "/blog/article-qui-n-existe-pas"]) {
    const response = await request.get(sitePath);
    expect(response.status(), sitePath).toBe(404);
    const metadata = readHeadMetadata(await response.text());
    expect(isNoindex(metadata), sitePath).toBe(true);
    expect(metadata.title, sitePath).toBeTruthy();
    expect(metadata.canonical, sitePath).toBeNull();
    expect(metadata.properties["og:url"], sitePath).toBeUndefined();
  }
});
