/**
 * Share images made on the server (issue 21, item 2; decision 029), on a
 * real server (embedded database, render cache on): the owner publishes an
 * article from the desk, and its page's og:image, twitter:image and JSON-LD
 * image name a 1200×630 PNG made at that moment, stored in the database,
 * served with a year-long cache, whose title is drawn in the site's
 * typeface (checked from its pixels). A new title gives a new image at a new
 * address; unpublishing takes the page and its image off (404). The
 * articles imported from the repository's files get theirs from the same
 * generator.
 */
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadArticles } from "../../app/blog/articles.server";
import { articleShareImages, articles } from "../../app/db/schema";
import { FONT_DIRECTORY, FONT_FILES, titleLines } from "../../app/seo/share-card.server";
import { startArticleDesk } from "../support/harness";
import { declaredImages, fontInk, inkDifference, titleInk } from "../support/share-image";

const written = {
  title: "Le Wi-Fi à l’hôtel",
  excerpt: "Se connecter au réseau de l’hôtel sans se tromper de réseau, en trois gestes.",
  category: "Sécurité",
  body: "## Le bon réseau\n\nDemandez son nom à la réception.\n",
  icon: "ShieldCheck",
  color: "secondary",
  video: "",
};
const slug = "le-wi-fi-a-l-hotel";

describe("share images of articles", () => {
  let desk: Awaited<ReturnType<typeof startArticleDesk>>;
  let id = 0;
  let firstImage = "";
  const get = (pathname: string) => desk.get(pathname);
  const editor = (form: Record<string, string>) => desk.edit(id, form);

  beforeAll(async () => {
    desk = await startArticleDesk();
  }, 60_000);
  afterAll(() => desk?.site.close());

  it("makes the image when the desk publishes the article, and every tag of its page names it", async () => {
    id = await desk.create(written.title);
    expect((await editor({ ...written, intent: "publish" })).status).toBe(200);
    // Made at publication, before anyone asked for it.
    const [stored] = await desk.site.database.db
      .select({ source: articleShareImages.source })
      .from(articleShareImages)
      .where(eq(articleShareImages.articleId, id));
    expect(stored?.source).toMatch(/^[0-9a-f]{12}$/);

    const page = await get(`/blog/${slug}`);
    expect(page.status).toBe(200);
    const [og, twitter, jsonLd] = declaredImages(await page.text(), "BlogPosting");
    expect(og).toBe(`/og/articles/${slug}-${stored!.source}.png`);
    expect(twitter).toBe(og);
    expect(jsonLd).toBe(og);
    firstImage = og!;
  });

  it("serves a 1200×630 PNG, cached for a year, whose title is drawn in the site's typeface", async () => {
    const answer = await get(firstImage);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("image/png");
    expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const png = Buffer.from(await answer.arrayBuffer());
    expect(await sharp(png).metadata()).toMatchObject({ format: "png", width: 1200, height: 630 });
    const { size, lines } = await titleLines(written.title);
    expect(lines).toEqual([written.title]);
    const drawn = await titleInk(png);
    expect(
      await inkDifference(drawn, await fontInk(path.join(FONT_DIRECTORY, FONT_FILES[700]), lines[0]!, size)),
    ).toBeLessThan(0.3);
    expect(
      await inkDifference(
        drawn,
        await fontInk("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", lines[0]!, size),
      ),
    ).toBeGreaterThan(0.4);
  });

  it("makes a new image at a new address when the title changes; the old address answers 404", async () => {
    expect((await editor({ ...written, title: "Le Wi-Fi au camping", intent: "save" })).status).toBe(200);
    const [second] = declaredImages(await get(`/blog/${slug}`).then((answer) => answer.text()), "BlogPosting");
    expect(second).toMatch(new RegExp(`^/og/articles/${slug}-[0-9a-f]{12}\\.png$`));
    expect(second).not.toBe(firstImage);
    const [stored] = await desk.site.database.db
      .select({ source: articleShareImages.source })
      .from(articleShareImages)
      .where(eq(articleShareImages.articleId, id));
    expect(second).toBe(`/og/articles/${slug}-${stored!.source}.png`);
    expect((await get(second!)).status).toBe(200);
    expect((await get(firstImage)).status).toBe(404);
    firstImage = second!;
  });

  it("unpublishing takes the page and its image off (404)", async () => {
    expect((await editor({ intent: "unpublish" })).status).toBe(200);
    expect((await get(`/blog/${slug}`)).status).toBe(404);
    expect((await get(firstImage)).status).toBe(404);
    const [row] = await desk.site.database.db.select().from(articles).where(eq(articles.id, id));
    expect(row!.publishedAt).toBeNull();
  });

  it("gives the articles imported from the repository's files their image from the same generator", async () => {
    const [article] = loadArticles();
    const [og] = declaredImages(await get(`/blog/${article!.slug}`).then((answer) => answer.text()), "BlogPosting");
    expect(og).toMatch(new RegExp(`^/og/articles/${article!.slug}-[0-9a-f]{12}\\.png$`));
    const answer = await get(og!);
    expect(answer.status).toBe(200);
    expect(await sharp(Buffer.from(await answer.arrayBuffer())).metadata()).toMatchObject({ width: 1200, height: 630 });
  });

  it("answers 404 to a name that is not an image's", async () => {
    for (const name of ["nope.png", `${slug}-zzzzzzzzzzzz.png`, `${slug}-0123456789ab.png`, "../etc.png"]) {
      expect((await get(`/og/articles/${name}`)).status).toBe(404);
    }
  });
});
