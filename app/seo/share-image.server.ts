/**
 * The share images pages declare (og:image, twitter:image, JSON-LD image),
 * with their French descriptions, made on the server only.
 *
 * Which share image an article's page declares (og:image, twitter:image,
 * the BlogPosting's image): its own `public/og/blog/{slug}.png` when
 * `npm run og:images` made it, otherwise the site's `public/og/site.png`.
 * Read on the server only (the file system), by the article's loader.
 */
import fs from "node:fs";
import path from "node:path";
import type { ArticleSummary } from "~/blog/types";
import { blogSection, hero } from "~/content/home";
import { cantonNames } from "~/content/zones";
import { formatDate } from "~/utils/format";
import { articleShareImagePath, SITE_SHARE_IMAGE_PATH, siteName, type ShareImage } from "~/seo/meta";

/** The site's share image (`public/og/site.png`): brand, the hero's title and badge, the cantons served, the hero picture. */
export const siteShareImage: ShareImage = {
  path: SITE_SHARE_IMAGE_PATH,
  alt: `${siteName} : « ${hero.title} ${hero.titleHighlight} ». ${hero.badge}, dans les cantons de ${new Intl.ListFormat("fr", { type: "conjunction" }).format(cantonNames)}.`,
};

/**
 * The article's share image and its French description (the picture shows
 * the category, the title and the date), or the site's image when the
 * article has none in `publicDirectory` (`public/` by default).
 */
export function articleShareImage(article: ArticleSummary, publicDirectory = "public"): ShareImage {
  const sitePath = articleShareImagePath(article.slug);
  if (!fs.existsSync(path.join(publicDirectory, sitePath))) return siteShareImage;
  return {
    path: sitePath,
    alt: `${blogSection.title} : « ${article.title} » (${article.category}, ${formatDate(article.date)}).`,
  };
}
