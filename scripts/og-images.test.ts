/**
 * The committed share images match the articles: every article of
 * `app/content/blog/` has `public/og/blog/{slug}.png`, no image is left for
 * an article that is gone, and every image is 1200×630. A failure tells the
 * owner to run `npm run og:images`.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { loadArticles } from "~/blog/articles.server";
import { articleImagePath, OG_DIR, OG_HEIGHT, OG_WIDTH, SITE_IMAGE } from "./og-images";

const FIX = "run `npm run og:images` and commit public/og/";

/** Every PNG below `directory`. */
function pngFiles(directory: string): string[] {
  return fs
    .readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? pngFiles(path.join(directory, entry.name))
        : entry.name.endsWith(".png")
          ? [path.join(directory, entry.name)]
          : [],
    )
    .sort();
}

describe("Open Graph images", () => {
  it("has the site's image", () => {
    expect(fs.existsSync(SITE_IMAGE), `${SITE_IMAGE} is missing: ${FIX}`).toBe(true);
  });

  it("has one image per article, and none for an article that is gone", () => {
    const articles = loadArticles();
    const missing = articles.map((article) => articleImagePath(article.slug)).filter((file) => !fs.existsSync(file));
    expect(missing, `Share images missing for new articles: ${FIX}`).toEqual([]);
    const wanted = new Set(articles.map((article) => path.resolve(articleImagePath(article.slug))));
    const orphans = pngFiles(path.join(OG_DIR, "blog")).filter((file) => !wanted.has(path.resolve(file)));
    expect(orphans, `Share images left for articles that no longer exist: ${FIX}`).toEqual([]);
  });

  it("makes every image exactly 1200×630", async () => {
    const files = pngFiles(OG_DIR);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const { width, height, format } = await sharp(file).metadata();
      expect({ format, width, height }, `${file} is not a ${OG_WIDTH}×${OG_HEIGHT} PNG: ${FIX}`).toEqual({
        format: "png",
        width: OG_WIDTH,
        height: OG_HEIGHT,
      });
    }
  });
});
