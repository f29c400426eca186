/**
 * The server reads SITE_URL when it starts, not the build: a server started
 * directly (as the deployment guide's systemd unit does) with another
 * address than any earlier one, on the same build (made by the global
 * setup), serves its pages, sitemap, robots.txt and feed on that address.
 * (The build used to record its SITE_URL and the server refused to start
 * with another one: pages were prerendered with it.)
 */
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, expect, it } from "vitest";
import { readHeadMetadata } from "../../tooling/page-metadata";
import { spawnSite, type SpawnedSite } from "../support/harness";

const OTHER_ADDRESS = "https://www.autre-adresse.ch";
let site: SpawnedSite | undefined;

beforeAll(async () => {
  site = await spawnSite({ SITE_URL: OTHER_ADDRESS, LOG_LEVEL: "warn" });
  await site.ready();
});

afterAll(async () => {
  await site?.stop();
});

const get = async (sitePath: string) => {
  const answer = await fetch(`${site!.url}${sitePath}`);
  expect(answer.status, sitePath).toBe(200);
  return answer.text();
};

it("serves /blog with its canonical link and share tags on that address", async () => {
  const metadata = readHeadMetadata(await get("/blog"));
  expect(metadata.canonical).toBe(`${OTHER_ADDRESS}/blog`);
  expect(metadata.properties["og:url"]).toBe(`${OTHER_ADDRESS}/blog`);
  expect(metadata.properties["og:image"]?.startsWith(`${OTHER_ADDRESS}/og/`)).toBe(true);
});

it("serves /sitemap.xml, /robots.txt and the feed on that address", async () => {
  const sitemap = new XMLParser().parse(await get("/sitemap.xml"));
  const locations = ([sitemap.urlset.url].flat() as { loc: string }[]).map((entry) => entry.loc);
  expect(locations).toContain(`${OTHER_ADDRESS}/blog`);
  expect(locations.filter((location) => !location.startsWith(`${OTHER_ADDRESS}/`))).toEqual([]);
  expect((await get("/robots.txt")).split("\n")).toContain(`Sitemap: ${OTHER_ADDRESS}/sitemap.xml`);
  const feed = new XMLParser().parse(await get("/blog/rss.xml"));
  const links = [feed.rss.channel.item].flat().map((item: { link: string }) => item.link);
  expect(links.length).toBeGreaterThan(0);
  expect(links.filter((link) => !link.startsWith(`${OTHER_ADDRESS}/blog/`))).toEqual([]);
});
