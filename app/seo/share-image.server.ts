/**
 * The share image a page declares (og:image, twitter:image, JSON-LD), with
 * its French description (decision 029): the site's `public/og/site.png`
 * (`npm run og:images`), or, once the owner put a photo of their own in the
 * hero slot, the same card made with that photo (`/og/site/{source}.png`,
 * table `site_share_images`; issue 33, item 13), or an article's, made by `articleShareCard` and kept
 * in the database (`article_share_images`) when the desk publishes or saves
 * it, or at its address's first request. The address
 * `/og/articles/{slug}-{source}.png` carries the hash of what the image shows,
 * so it is cached for a year and a page never points at a stale one.
 */
import crypto from "node:crypto";
import { and, desc, eq, lte, ne, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { ArticleRow } from "~/blog/store.server";
import type { ArticleSummary } from "~/blog/types";
import { blogSection, hero } from "~/content/home";
import { cantonNames } from "~/content/zones";
import type { Database } from "~/db/client.server";
import { articles, articleShareImages, pictureFiles, pictures, sitePictures, siteShareImages } from "~/db/schema";
import { errorFields } from "~/db/errors.server";
import { formatDate } from "~/utils/format";
import { typesetAll } from "~/utils/typography";
import { SITE_SHARE_IMAGE_PATH, type ShareImage } from "~/seo/meta";
import { siteName } from "~/content/site-name";
import { loggerContext, renderHintsContext, dbContext, type RequestContext } from "~/context.server";
import { databaseDown } from "~/db/outage.server";
import { runPictureJob } from "~/pictures/child.server";
import { keptUntilAnnounced } from "~/utils/kept-until-announced";
import { SITE_WIDE_TAG } from "~/utils/render-cache";
import {
  articleShareCard,
  cardDesign,
  siteShareCard,
  SITE_CARD_PICTURE,
  type ArticleCardInput,
} from "./share-card.server";

/** The site's share image (`public/og/site.png`): brand, the hero's title and badge, the cantons served, the hero picture. */
export const siteShareImage: ShareImage = {
  path: SITE_SHARE_IMAGE_PATH,
  alt: `${siteName} : « ${hero.title} ${hero.titleHighlight} ». ${hero.badge}, dans les cantons de ${new Intl.ListFormat("fr", { type: "conjunction" }).format(cantonNames)}.`,
};

/** What an article's image shows, from a page's article or a stored row (typeset alike). */
function cardInput(article: Pick<ArticleSummary, "title" | "category" | "date" | "icon" | "color">): ArticleCardInput {
  const { title, category } = typesetAll({ title: article.title, category: article.category });
  return { title, category, date: article.date, icon: article.icon, color: article.color };
}

/** 12 hex digits of the SHA-256 of what the image of `article` shows (and of the card's design). */
export function shareImageSource(article: Pick<ArticleSummary, "title" | "category" | "date" | "icon" | "color">) {
  const { title, category, date, icon, color } = cardInput(article);
  return crypto
    .createHash("sha256")
    .update(JSON.stringify([cardDesign(), title, category, date, icon, color]))
    .digest("hex")
    .slice(0, 12);
}

/** The site path of an article's share image, `/og/articles/{slug}-{source}.png`. */
export function articleShareImagePath(article: ArticleSummary): string {
  return `/og/articles/${article.slug}-${shareImageSource(article)}.png`;
}

/** Reads `{slug}-{source}.png`, the last segment of an article image's address, or null. */
export function parseShareImageName(name: string): { slug: string; source: string } | null {
  const match = /^([a-z0-9]+(?:-[a-z0-9]+)*)-([0-9a-f]{12})\.png$/.exec(name);
  return match ? { slug: match[1]!, source: match[2]! } : null;
}

/** The article's share image and its French description (the picture shows the category, the title and the date). */
export function articleShareImage(article: ArticleSummary): ShareImage {
  return {
    path: articleShareImagePath(article),
    alt: `${blogSection.title} : « ${article.title} » (${article.category}, ${formatDate(article.date)}).`,
  };
}

/**
 * The PNG of `article` (id `articleId`): the stored one when it shows the
 * same things, otherwise a new one, made and stored (replacing the old).
 * @throws the database's error, or the renderer's for a date that is not one.
 */
export async function shareImageOf(
  db: Database,
  articleId: number,
  article: Pick<ArticleSummary, "title" | "category" | "date" | "icon" | "color">,
): Promise<Buffer> {
  const source = shareImageSource(article);
  const [stored] = await db
    .select({ bytes: articleShareImages.bytes })
    .from(articleShareImages)
    .where(and(eq(articleShareImages.articleId, articleId), eq(articleShareImages.source, source)));
  if (stored) return stored.bytes;
  const bytes = await articleShareCard(cardInput(article));
  await db
    .insert(articleShareImages)
    .values({ articleId, source, bytes })
    .onConflictDoUpdate({ target: articleShareImages.articleId, set: { source, bytes, createdAt: sql`now()` } });
  return bytes;
}

/** What the image of a stored row shows. */
function rowCard(row: ArticleRow): Pick<ArticleSummary, "title" | "category" | "date" | "icon" | "color"> {
  return {
    title: row.title,
    category: row.category,
    date: row.date,
    icon: row.icon as ArticleCardInput["icon"],
    color: row.color as ArticleCardInput["color"],
  };
}

/**
 * The PNG at `/og/articles/{slug}-{source}.png`: that of the article of
 * `slug` when it is published at `now` and `source` is what it shows today
 * (made now if it was not yet); null otherwise (a draft, an unpublished
 * article, an old address).
 * @throws the database's error.
 */
export async function publishedShareImage(
  db: Database,
  { slug, source }: { slug: string; source: string },
  now: Date = new Date(),
): Promise<Buffer | null> {
  const [row] = await db
    .select()
    .from(articles)
    .where(and(eq(articles.slug, slug), lte(articles.publishedAt, now.toISOString())));
  if (!row || shareImageSource(rowCard(row)) !== source) return null;
  return shareImageOf(db, row.id, rowCard(row));
}

/**
 * Makes the image of a published or scheduled article now (the desk calls it
 * after publishing or saving), so that the first link shared finds it ready.
 * A draft gets none. Never throws: a failure is logged (the article's id,
 * never its text) and the image is made at the first request of its address.
 */
export async function makeShareImage(db: Database, row: ArticleRow | undefined, logger?: Logger): Promise<void> {
  if (!row?.publishedAt) return;
  try {
    await shareImageOf(db, row.id, rowCard(row));
  } catch (error) {
    logger?.error(
      { err: errorFields(error), article: row.id },
      "share image: not made, it will be at its first request",
    );
  }
}

/** The photo the owner put in the hero slot (its id and the hash that names its files), or null. */
export interface UploadedHero {
  id: number;
  hash: string;
}

/**
 * The photo in the hero slot, or null (the repository's picture).
 * @throws the database's error.
 */
export async function uploadedHero(db: Database): Promise<UploadedHero | null> {
  const [row] = await db
    .select({ id: pictures.id, hash: pictures.hash })
    .from(sitePictures)
    .innerJoin(pictures, eq(pictures.id, sitePictures.pictureId))
    .where(eq(sitePictures.slot, "hero"));
  return row ?? null;
}

/** 12 hex digits of the SHA-256 of what the site's card shows with `hero` (its words, the card's design, the photo). */
export function siteCardSource(hero: UploadedHero): string {
  return crypto
    .createHash("sha256")
    .update(JSON.stringify([cardDesign(), siteShareImage.alt, hero.id, hero.hash]))
    .digest("hex")
    .slice(0, 12);
}

/** The site's share image with `hero` in it (the repository's `siteShareImage` when null), same description. */
export function siteShareImageWith(hero: UploadedHero | null): ShareImage {
  return hero ? { ...siteShareImage, path: `/og/site/${siteCardSource(hero)}.png` } : siteShareImage;
}

/** Reads `{source}.png`, the last segment of the address of the site's card with the owner's photo, or null. */
export function parseSiteCardName(name: string): string | null {
  return /^([0-9a-f]{12})\.png$/.exec(name)?.[1] ?? null;
}

/**
 * The photo `hero` cut to the card's picture box (JPEG), from its largest stored file, by the picture
 * child (decision 037: sharp never runs in the server).
 * @throws Error when the picture has no WebP file, or the child fails or takes more than a minute.
 */
async function heroForCard(db: Database, hero: UploadedHero): Promise<Buffer> {
  const [file] = await db
    .select({ bytes: pictureFiles.bytes })
    .from(pictureFiles)
    .where(and(eq(pictureFiles.pictureId, hero.id), eq(pictureFiles.format, "webp")))
    .orderBy(desc(pictureFiles.width))
    .limit(1);
  if (!file) throw new Error(`picture ${hero.id} has no WebP file`);
  const outcome = await runPictureJob(
    { kind: "cover", bytes: file.bytes, ...SITE_CARD_PICTURE },
    { timeoutMs: 60_000 },
  );
  if (!outcome.ok || outcome.result.kind !== "jpeg")
    throw new Error(`site card: the picture child ${outcome.ok ? "answered another kind" : outcome.failure}`);
  const { jpeg } = outcome.result;
  return Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
}

/**
 * The PNG of the site's card with the photo now in the hero slot: the stored
 * one when it shows the same things, otherwise made and stored, and any
 * card of another photo deleted. Null when the slot shows the repository's
 * picture (every stored card is deleted then).
 * @throws the database's error, or the picture child's failure for a file it cannot read.
 */
export async function siteShareImageOf(db: Database): Promise<{ source: string; bytes: Buffer } | null> {
  const hero = await uploadedHero(db);
  if (!hero) {
    await db.delete(siteShareImages);
    return null;
  }
  const source = siteCardSource(hero);
  const [stored] = await db
    .select({ bytes: siteShareImages.bytes })
    .from(siteShareImages)
    .where(and(eq(siteShareImages.pictureId, hero.id), eq(siteShareImages.source, source)));
  if (stored) return { source, bytes: stored.bytes };
  const bytes = await siteShareCard(undefined, await heroForCard(db, hero));
  await db.transaction(async (tx) => {
    await tx.delete(siteShareImages).where(ne(siteShareImages.pictureId, hero.id));
    await tx
      .insert(siteShareImages)
      .values({ pictureId: hero.id, source, bytes })
      .onConflictDoUpdate({ target: siteShareImages.pictureId, set: { source, bytes, createdAt: sql`now()` } });
  });
  return { source, bytes };
}

/**
 * The PNG at `/og/site/{source}.png`: the site's card with the photo in the
 * hero slot when `source` is what it shows today (made now if it was not
 * yet); null otherwise (an old address, the slot given back).
 * @throws the database's error.
 */
export async function currentSiteShareImage(db: Database, source: string): Promise<Buffer | null> {
  const hero = await uploadedHero(db);
  if (!hero || siteCardSource(hero) !== source) return null;
  return (await siteShareImageOf(db))?.bytes ?? null;
}

/**
 * Makes the site's card for the photo now in the hero slot, and deletes the
 * card of the photo it replaced (the desk calls it when the slot changes),
 * so that the first link shared finds it ready. Never throws: a failure is
 * logged and the card is made at the first request of its address.
 */
export async function refreshSiteShareImage(db: Database, logger?: Logger): Promise<void> {
  try {
    await siteShareImageOf(db);
  } catch (error) {
    logger?.error({ err: errorFields(error) }, "site share image: not made, it will be at its first request");
  }
}

/**
 * `uploadedHero`, kept in this process until the database announces "pictures" (any change of the slots,
 * migration 0014) or "settings" (the hero slot's own announcement, migration 0024, heard before the render
 * cache drops every page): no read per page render.
 */
const keptHero = keptUntilAnnounced(["pictures", SITE_WIDE_TAG], uploadedHero);

/**
 * The site's share image for the root loader (every page names it where it
 * has none of its own: `loaderMeta`): the card of the photo in the hero
 * slot, or `public/og/site.png`. The hero slot is read once, then kept until
 * the database announces a change of the slots or the settings (`keptHero`);
 * a change of the hero slot drops every kept page (migration 0024). When the
 * database fails: the repository's card, and the page is not kept in the
 * render cache. Never throws.
 */
export async function siteShareImageFor(context: RequestContext): Promise<ShareImage> {
  const db = context.get(dbContext);
  const logger = context.get(loggerContext);
  try {
    return siteShareImageWith(await keptHero(db));
  } catch (error) {
    // A database that does not answer is logged once for the whole outage (app/db/outage.server.ts); a value
    // kept is no sign that it answers again, so the settings' read alone says it (no `unlessDatabaseDown` here).
    if (!(await databaseDown(db, logger, error)))
      logger.error({ err: errorFields(error) }, "site share image: hero slot unavailable");
  }
  context.get(renderHintsContext)?.noStore();
  return siteShareImage;
}
