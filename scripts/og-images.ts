/**
 * Writes `public/og/site.png`, the site's Open Graph share image (what
 * Facebook, WhatsApp, LinkedIn... show beside a shared link), 1200×630 PNG:
 * the brand, the hero's title, the cantons served and the hero picture.
 * Run it after changing one of those (`app/content/`), and commit the file.
 *
 * It is drawn by the same generator as the articles' images
 * (`app/seo/share-card.server.tsx`: satori and sharp, no browser), which
 * the server runs itself when an article is published (decision 029). The
 * same inputs give the same bytes.
 *
 *   npm run og:images
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { siteShareCard } from "../app/seo/share-card.server";
import { SITE_SHARE_IMAGE_PATH } from "../app/seo/meta";

/** The site's image, used for every page without an image of its own; `public/` is copied as is into the build. */
export const SITE_IMAGE = path.join("public", SITE_SHARE_IMAGE_PATH);

/** Writes the site's image unless the file already holds exactly those bytes; prints its size. */
export async function writeOgImages(): Promise<void> {
  const data = await siteShareCard();
  fs.mkdirSync(path.dirname(SITE_IMAGE), { recursive: true });
  if (!fs.existsSync(SITE_IMAGE) || !fs.readFileSync(SITE_IMAGE).equals(data)) fs.writeFileSync(SITE_IMAGE, data);
  console.log(`${SITE_IMAGE}  ${(data.length / 1024).toFixed(1)} KB`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await writeOgImages();
}
