/**
 * The site's share image follows the hero photo the owner uploaded (issue
 * 33, item 13), on a real server (embedded database, render cache on): once
 * a photo fills the hero slot in the desk, `/` and a page kept in the render
 * cache with no tag of its own (`/questions`) name, in og:image,
 * twitter:image (and the JSON-LD of `/`), a 1200×630 PNG made from that
 * photo, served with a year-long cache at an address that changes with it;
 * another photo gives another image (the old address and row go); giving the
 * slot back brings `public/og/site.png` back everywhere.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteShareImages } from "../../app/db/schema";
import { PUBLIC_PAGE_CACHE_CONTROL } from "../../server/render-cache";
import { createOwner, signIn, startTestServer, type CookieJar } from "../support/harness";
import { declaredImages } from "../support/share-image";

/** The mean colour of the card's picture box (right part, above the band), as [r, g, b]. */
async function pictureColour(png: Buffer): Promise<number[]> {
  const box = await sharp(png).extract({ left: 700, top: 250, width: 400, height: 300 }).png().toBuffer();
  const { channels } = await sharp(box).stats();
  return channels.slice(0, 3).map((channel) => Math.round(channel.mean));
}

const photo = (background: { r: number; g: number; b: number }) =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background } })
    .jpeg()
    .toBuffer();

describe("the site's share image follows the hero photo", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  let jar: CookieJar;
  let firstCard = "";
  const pages = ["/", "/questions"];
  const builtIn = fs.readFileSync(path.join("public", "og", "site.png"));

  const get = (pathname: string) => fetch(`${site.url}${pathname}`);
  /** og:image and twitter:image of `pathname`, and on `/` the image of the business in the JSON-LD. */
  const images = async (pathname: string) => {
    const [og, twitter, jsonLd] = declaredImages(await (await get(pathname)).text(), "ProfessionalService");
    return pathname === "/" ? [og, twitter, jsonLd] : [og, twitter];
  };
  /** The images every page of `pages` declares, once all of them name the same one. */
  const namedByEveryPage = async () => [...new Set((await Promise.all(pages.map(images))).flat())];

  /** Posts the desk's images form, as the browser does. */
  const post = (fields: Record<string, string | Blob>) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    return fetch(`${site.url}/admin/images`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: site.url, Cookie: jar.header() },
      body,
    });
  };
  const uploadHero = async (background: { r: number; g: number; b: number }) =>
    post({
      alt: "Le formateur aide une dame à régler sa tablette.",
      slot: "hero",
      picture: new Blob([new Uint8Array(await photo(background))], { type: "image/jpeg" }),
    });
  const storedCards = async () => site.database.db.select({ source: siteShareImages.source }).from(siteShareImages);

  beforeAll(async () => {
    site = await startTestServer({});
    jar = await signIn(site.url, await createOwner(site.database.db));
  }, 60_000);
  afterAll(() => site?.close());

  it("names the repository's image while the hero is the repository's, from pages kept in the render cache", async () => {
    for (const page of pages) {
      const answer = await get(page);
      expect(answer.headers.get("cache-control"), `${page} is kept`).toBe(PUBLIC_PAGE_CACHE_CONTROL);
      await answer.arrayBuffer();
    }
    expect(await namedByEveryPage()).toEqual(["/og/site.png"]);
  });

  it("names a card made from the uploaded photo on every page, kept pages included", async () => {
    expect((await uploadHero({ r: 220, g: 30, b: 30 })).status).toBe(303);
    await expect
      .poll(namedByEveryPage, { timeout: 2000 })
      .toEqual([expect.stringMatching(/^\/og\/site\/[0-9a-f]{12}\.png$/)]);
    firstCard = (await namedByEveryPage())[0]!;
    // Made when the desk filled the slot, before anyone asked for it.
    expect((await storedCards()).map((row) => row.source)).toEqual([/\/([0-9a-f]{12})\.png$/.exec(firstCard!)![1]]);
  });

  it("serves that card as a 1200×630 PNG with the photo in it, cached for a year", async () => {
    const answer = await get(firstCard);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("image/png");
    expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const card = Buffer.from(await answer.arrayBuffer());
    expect(await sharp(card).metadata()).toMatchObject({ format: "png", width: 1200, height: 630 });
    expect(card.equals(builtIn)).toBe(false);
    // The picture box shows the red photo; the repository's card shows its illustration there.
    const [r, g, b] = await pictureColour(card);
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(80);
    expect(b).toBeLessThan(80);
    expect(await pictureColour(builtIn)).not.toEqual([r, g, b]);
  });

  it("follows a new photo: a new address, the old one and its row gone", async () => {
    expect((await uploadHero({ r: 30, g: 60, b: 220 })).status).toBe(303);
    await expect.poll(namedByEveryPage, { timeout: 2000 }).not.toEqual([firstCard]);
    const [second] = await namedByEveryPage();
    expect(second).toMatch(/^\/og\/site\/[0-9a-f]{12}\.png$/);
    const card = Buffer.from(await (await get(second!)).arrayBuffer());
    const [r, , b] = await pictureColour(card);
    expect(b).toBeGreaterThan(180);
    expect(r).toBeLessThan(80);
    expect((await get(firstCard)).status).toBe(404);
    expect(await storedCards()).toHaveLength(1);
    firstCard = second!;
  });

  it("brings the repository's image back when the slot is given back", async () => {
    expect((await post({ intent: "restore", slot: "hero" })).status).toBe(200);
    await expect.poll(namedByEveryPage, { timeout: 2000 }).toEqual(["/og/site.png"]);
    expect((await get(firstCard)).status).toBe(404);
    expect(await storedCards()).toEqual([]);
    expect((await get("/og/site.png")).status).toBe(200);
  });
});
