/**
 * The site's share image is committed and well-formed (1200×630 PNG); a
 * failure tells the owner to run `npm run og:images`. Articles' images are
 * no longer files: the server makes them (app/seo/share-image.server.ts,
 * decision 029), so none is left in `public/og/blog/` to go stale.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { SHARE_IMAGE_SIZE } from "~/seo/meta";
import { SITE_IMAGE } from "./og-images";

const FIX = "run `npm run og:images` and commit public/og/site.png";

describe("the site's share image", () => {
  it("is a 1200×630 PNG", async () => {
    expect(fs.existsSync(SITE_IMAGE), `${SITE_IMAGE} is missing: ${FIX}`).toBe(true);
    const { width, height, format } = await sharp(SITE_IMAGE).metadata();
    expect({ format, width, height }, `${SITE_IMAGE} is not a 1200×630 PNG: ${FIX}`).toEqual({
      format: "png",
      ...SHARE_IMAGE_SIZE,
    });
  });

  it("is the only file image: articles' images come from the server", () => {
    expect(fs.existsSync(path.join("public", "og", "blog"))).toBe(false);
  });
});
