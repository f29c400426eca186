/**
 * Pictures the owner uploads from the desk (issue 21, item 3; decision 023,
 * "Pictures"): checked by their content (never their name), turned by sharp
 * into AVIF and WebP at 480, 800 and 1200 px wide (never enlarged), with the
 * camera's orientation applied and every metadata block dropped (EXIF, GPS
 * position, XMP: sharp writes none unless asked), stored in the database
 * (`pictures`, `picture_files`) and served at
 * `/images/{id}-{hash}-{width}.{avif|webp}` (`app/routes/image.ts`) with a
 * year-long, immutable cache.
 *
 * - `preparePicture(bytes, limits)` → `{ ok: true, files, width, height }` or
 *   `{ ok: false, message }` with the French reason (too big, not an image,
 *   SVG, HEIC, too much memory once decoded, too many scans, too slow).
 *   One picture is made at a time, decoded once at reduced size, within a
 *   time limit (issue 33, item 5); `limitSharp()` at start.
 * - `savePicture(db, prepared, { alt, originalBytes })` → the picture's id.
 * - `pictureSources(picture)`: what `<picture>` needs (`PictureData`).
 * - `deletePicture(db, id)`: refused while a slot, an article or a letter
 *   shows it (`pictureUses`); a slot's picture replaced or given back is
 *   deleted when nothing else shows it (`setSlotPicture`, `clearSlotPicture`).
 */
import crypto from "node:crypto";
import { and, desc, eq, inArray, like, sql } from "drizzle-orm";
import sharp from "sharp";
import type { PictureSlot } from "~/content/types";
import type { Database } from "~/db/client.server";
import { articles, newsletterLetters, pictureFiles, pictures, sitePictures } from "~/db/schema";
import { jpegScanCount } from "./jpeg-scans.server";

/** Largest file accepted, in bytes (issue 21: 15 MB, what a phone's photo stays under). */
export const MAX_PICTURE_BYTES = 15 * 1024 * 1024;
/** Widths made of every picture, in pixels (DESIGN.md section 9). */
export const PICTURE_WIDTHS = [480, 800, 1200] as const;
/** The largest of them. */
const LARGEST_WIDTH = 1200;
/**
 * Memory a picture may take once decoded, in bytes (issue 33, item 5): the
 * pixels libvips holds (a JPEG decoded at 1/2, 1/4 or 1/8 of its size when
 * it is reduced, the others whole, for the turn of a photo taken sideways)
 * plus, for a progressive JPEG, libjpeg's coefficients of the whole picture
 * (2 bytes a sample). 96 MiB: a baseline phone JPEG of any size under
 * `MAX_INPUT_PIXELS`, a PNG of 33 million pixels (25 with transparency), a
 * progressive JPEG of about 30 million.
 */
export const DECODE_BUDGET_BYTES = 96 * 1024 * 1024;
/** Largest picture libvips opens, in pixels (a header claiming more is refused before decoding). */
const MAX_INPUT_PIXELS = 100_000_000;
/**
 * Most scans a JPEG may hold: libjpeg's own progressive files have 10,
 * mozjpeg's at most a few dozen; a crafted one thousands (see jpeg-scans.server.ts).
 */
export const MAX_JPEG_SCANS = 100;
/** Time one picture's decoding and encoding may take by default, in seconds (`PICTURE_TIMEOUT_SECONDS`). */
export const DEFAULT_PICTURE_TIMEOUT_SECONDS = 30;
/** Formats of the files made, best first. */
export const PICTURE_FORMATS = ["avif", "webp"] as const;
export type PictureFormat = (typeof PICTURE_FORMATS)[number];

/** The French reasons a file is refused. */
export const pictureMessages = {
  missing: "Choisissez une photo (JPEG, PNG ou WebP).",
  tooBig: "Cette photo dépasse 15 Mo. Choisissez une photo plus légère, ou réduisez-la avant de l’envoyer.",
  svg: "Les images SVG ne sont pas acceptées : elles peuvent contenir du code. Envoyez une photo JPEG, PNG ou WebP.",
  heic: "Les photos HEIC ne sont pas encore acceptées. Sur iPhone, choisissez la photo depuis Safari (elle est alors envoyée en JPEG), ou réglez Appareil photo › Formats sur « Le plus compatible ».",
  notImage: "Ce fichier n’est pas une photo JPEG, PNG ou WebP, même si son nom le laisse croire.",
  tooManyPixels:
    "Cette photo a trop de pixels pour être traitée par le site. Réduisez-la avant de l’envoyer (4000 × 3000 pixels suffisent largement).",
  tooManyScans:
    "Cette photo est enregistrée d’une façon inhabituelle que le site ne traite pas. Ouvrez-la et enregistrez-la à nouveau en JPEG, puis envoyez-la.",
  tooSlow:
    "Cette photo demande trop de temps à traiter. Réduisez-la ou enregistrez-la à nouveau en JPEG, puis envoyez-la.",
  altMissing: "Décrivez la photo en une phrase, pour les personnes qui ne la voient pas.",
  altTooLong: "La description doit contenir au plus 300 caractères.",
} as const;

/** One file made from a picture. */
export interface PreparedFile {
  format: PictureFormat;
  width: number;
  height: number;
  bytes: Buffer;
}

export type PreparedPicture =
  { ok: true; files: PreparedFile[]; width: number; height: number; hash: string } | { ok: false; message: string };

/**
 * Sets sharp's process-wide limits; called once at start (server/main.ts).
 * One libvips thread per picture (the server has one or two cores, and
 * pages must still be answered) and no operation cache (each picture is
 * decoded once: a cache would only hold its pixels). sharp runs each
 * operation on one of libuv's threads (4, UV_THREADPOOL_SIZE unset), which
 * files and DNS share: `preparePicture` runs one operation at a time, so
 * three stay free whatever the owner uploads.
 */
export function limitSharp(): void {
  sharp.concurrency(1);
  sharp.cache(false);
}

/** The end of the queue of pictures being made: one at a time, the others wait their turn. */
let queue: Promise<unknown> = Promise.resolve();

/** Runs `task` once every task queued before it has ended (fulfilled or not). */
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

/** The largest decoding factor libjpeg applies for a reduction by `factor` (sharp's own rule, pipeline.cc). */
function jpegShrinkOnLoad(factor: number): number {
  const shrink = factor >= 8 ? 8 : factor >= 4 ? 4 : factor >= 2 ? 2 : 1;
  return shrink > 1 && Math.floor(factor) === shrink ? shrink / 2 : shrink;
}

/** Bytes the picture described by `metadata` takes once decoded for the largest width made (see DECODE_BUDGET_BYTES). */
export function decodedBytes(metadata: sharp.Metadata): number {
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  const bands = metadata.channels ?? 4;
  const sampleBytes = metadata.depth === "uchar" || metadata.depth === "char" || !metadata.depth ? 1 : 2;
  if (metadata.format !== "jpeg") return width * height * bands * sampleBytes;
  const uprightWidth = (metadata.orientation ?? 1) >= 5 ? height : width;
  const shrink = jpegShrinkOnLoad(uprightWidth / Math.min(uprightWidth, LARGEST_WIDTH));
  const pixels = Math.ceil(width / shrink) * Math.ceil(height / shrink) * bands;
  const samples = metadata.chromaSubsampling === "4:2:0" ? 1.5 : metadata.chromaSubsampling === "4:2:2" ? 2 : bands;
  return pixels + (metadata.isProgressive ? width * height * samples * 2 : 0);
}

/** Limits of one picture's making: the time it may take, the scans a JPEG may hold. */
export interface PictureLimits {
  /** Seconds (whole, at least 1) libvips may spend on one step before it is stopped. */
  timeoutSeconds: number;
  maxScans?: number;
}

/**
 * Checks `bytes` by content and makes its files, or says in French why not.
 * Pictures are made one at a time (the others wait); each is decoded once,
 * at the size of its largest file (JPEG's shrink-on-load), then turned
 * upright and encoded from those pixels.
 */
export async function preparePicture(
  bytes: Buffer,
  { timeoutSeconds, maxScans = MAX_JPEG_SCANS }: PictureLimits = { timeoutSeconds: DEFAULT_PICTURE_TIMEOUT_SECONDS },
): Promise<PreparedPicture> {
  if (bytes.length === 0) return { ok: false, message: pictureMessages.missing };
  if (bytes.length > MAX_PICTURE_BYTES) return { ok: false, message: pictureMessages.tooBig };
  // SVG is text: even one that libvips cannot size (no width) is named as such.
  if (/<svg[\s>]/i.test(bytes.subarray(0, 4096).toString("latin1"))) return { ok: false, message: pictureMessages.svg };
  // A JPEG in too many scans holds the decoder however short the time limit: counted before any decoding.
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && jpegScanCount(bytes, maxScans) > maxScans)
    return { ok: false, message: pictureMessages.tooManyScans };
  return oneAtATime(() => makePicture(bytes, timeoutSeconds));
}

async function makePicture(bytes: Buffer, timeoutSeconds: number): Promise<PreparedPicture> {
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, message: pictureMessages.notImage };
  }
  const { format, compression } = metadata;
  if (format === "svg") return { ok: false, message: pictureMessages.svg };
  // HEIF holds the iPhone's HEIC photos (HEVC, which this build of libvips does not decode) and AVIF.
  if (format === "heif" && compression === "hevc") return { ok: false, message: pictureMessages.heic };
  if (format !== "jpeg" && format !== "png" && format !== "webp")
    return { ok: false, message: pictureMessages.notImage };
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels > MAX_INPUT_PIXELS || decodedBytes(metadata) > DECODE_BUDGET_BYTES)
    return { ok: false, message: pictureMessages.tooManyPixels };
  const timeout = { seconds: Math.max(1, Math.round(timeoutSeconds)) };
  try {
    // Decoded once, reduced in the same pipeline (a JPEG is decoded at 1/2, 1/4 or 1/8 of its size), turned
    // upright; `failOn: "error"` refuses a truncated or corrupt file. Raw pixels: no second decoding.
    const uprightWidth = (metadata.orientation ?? 1) >= 5 ? metadata.height! : metadata.width!;
    const upright = await sharp(bytes, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS })
      .timeout(timeout)
      .rotate()
      .resize({ width: Math.min(uprightWidth, LARGEST_WIDTH) })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width: largest, height, channels } = upright.info;
    const decoded = sharp(upright.data, { raw: { width: largest, height, channels } }).timeout(timeout);
    const files: PreparedFile[] = [];
    for (const width of widthsOf(largest)) {
      const resized = decoded.clone().resize({ width });
      for (const format of PICTURE_FORMATS) {
        const output = await (
          format === "avif" ? resized.clone().avif({ quality: 55, effort: 2 }) : resized.clone().webp({ quality: 78 })
        ).toBuffer({ resolveWithObject: true });
        files.push({ format, width: output.info.width, height: output.info.height, bytes: output.data });
      }
    }
    const biggest = files[files.length - 1]!;
    return {
      ok: true,
      files,
      width: biggest.width,
      height: biggest.height,
      hash: crypto.createHash("sha256").update(bytes).digest("hex").slice(0, 12),
    };
  } catch (error) {
    if (error instanceof Error && /timeout/i.test(error.message))
      return { ok: false, message: pictureMessages.tooSlow };
    return { ok: false, message: pictureMessages.notImage };
  }
}

/** Stores a prepared picture and its files in one transaction; returns its id. */
export async function savePicture(
  db: Database,
  prepared: Extract<PreparedPicture, { ok: true }>,
  { alt, originalBytes }: { alt: string; originalBytes: number },
): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(pictures)
      .values({ hash: prepared.hash, alt, width: prepared.width, height: prepared.height, originalBytes })
      .returning({ id: pictures.id });
    await tx.insert(pictureFiles).values(prepared.files.map((file) => ({ pictureId: row!.id, ...file })));
    return row!.id;
  });
}

/** A stored picture without its files. */
export type PictureRow = typeof pictures.$inferSelect;

/** The address of one file of a picture. */
export function pictureFileUrl(picture: Pick<PictureRow, "id" | "hash">, width: number, format: PictureFormat): string {
  return `/images/${picture.id}-${picture.hash}-${width}.${format}`;
}

/** The widths a picture of `width` pixels has files at. */
export function widthsOf(width: number): number[] {
  return [...new Set(PICTURE_WIDTHS.map((candidate) => Math.min(candidate, width)))];
}

/**
 * What `<picture>` needs (the shape of `PictureData`): AVIF and WebP
 * `srcset`s, the 800 px WebP as the `<img>`, the size, the description.
 */
export function pictureSources(picture: Pick<PictureRow, "id" | "hash" | "width" | "height">, alt: string) {
  const widths = widthsOf(picture.width);
  const srcSet = (format: PictureFormat) =>
    widths.map((width) => `${pictureFileUrl(picture, width, format)} ${width}w`).join(", ");
  return {
    alt,
    width: picture.width,
    height: picture.height,
    src: pictureFileUrl(picture, Math.min(800, picture.width), "webp"),
    sources: PICTURE_FORMATS.map((format) => ({ type: `image/${format}`, srcSet: srcSet(format) })),
  };
}

/** Parses `/images/{id}-{hash}-{width}.{format}`'s last segment, or null. */
export function parsePictureFileName(
  name: string,
): { id: number; hash: string; width: number; format: PictureFormat } | null {
  const match = /^([1-9]\d{0,15})-([0-9a-f]{12})-([1-9]\d{0,4})\.(avif|webp)$/.exec(name);
  if (!match) return null;
  return { id: Number(match[1]), hash: match[2]!, width: Number(match[3]), format: match[4] as PictureFormat };
}

/** The bytes of one file, or null when no such file exists (wrong hash, width or format). */
export async function pictureFile(
  db: Database,
  { id, hash, width, format }: { id: number; hash: string; width: number; format: PictureFormat },
): Promise<Buffer | null> {
  const [row] = await db
    .select({ bytes: pictureFiles.bytes })
    .from(pictureFiles)
    .innerJoin(pictures, eq(pictures.id, pictureFiles.pictureId))
    .where(
      and(
        eq(pictureFiles.pictureId, id),
        eq(pictures.hash, hash),
        eq(pictureFiles.width, width),
        eq(pictureFiles.format, format),
      ),
    );
  return row?.bytes ?? null;
}

/** Every picture, the newest first, with its total size in bytes. */
export async function listPictures(db: Database) {
  return db
    .select({
      id: pictures.id,
      hash: pictures.hash,
      alt: pictures.alt,
      width: pictures.width,
      height: pictures.height,
      createdAt: pictures.createdAt,
      storedBytes: sql<number>`(select coalesce(sum(length(${pictureFiles.bytes})), 0)::int from ${pictureFiles} where ${pictureFiles.pictureId} = ${pictures.id})`,
    })
    .from(pictures)
    .orderBy(desc(pictures.id));
}

/** The pictures of `ids` (those that exist). */
export async function picturesByIds(db: Database, ids: number[]): Promise<PictureRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(pictures).where(inArray(pictures.id, ids));
}

/** The home page's slots an owner may fill with an uploaded picture. */
export const REPLACEABLE_SLOTS = ["hero", "portrait"] as const satisfies readonly PictureSlot[];
export type ReplaceableSlot = (typeof REPLACEABLE_SLOTS)[number];

/** Where a picture shows: the home page's slots it fills, the titles of the articles and letters whose text shows it. */
export interface PictureUses {
  slots: ReplaceableSlot[];
  articles: string[];
  letters: string[];
}

/** Where picture `id` shows (drafts and archived letters count: their text names its files). */
export async function pictureUses(db: Database, id: number): Promise<PictureUses> {
  // Its files' addresses start with `/images/{id}-` (pictureFileUrl); no other id shares that start.
  const named = `%/images/${id}-%`;
  const [slots, inArticles, inLetters] = await Promise.all([
    db.select({ slot: sitePictures.slot }).from(sitePictures).where(eq(sitePictures.pictureId, id)),
    db.select({ title: articles.title }).from(articles).where(like(articles.body, named)),
    db
      .select({ subject: newsletterLetters.subject })
      .from(newsletterLetters)
      .where(like(newsletterLetters.body, named)),
  ]);
  return {
    slots: slots.map((row) => row.slot as ReplaceableSlot),
    articles: inArticles.map((row) => row.title),
    letters: inLetters.map((row) => row.subject),
  };
}

/** True when nothing shows picture `id`. */
const unused = (uses: PictureUses) => uses.slots.length + uses.articles.length + uses.letters.length === 0;

/**
 * Deletes picture `id` and its files when nothing shows it. Resolves with
 * `{ deleted: true }`, or `{ deleted: false, uses }` (nothing deleted) when
 * a slot, an article or a letter shows it; `{ deleted: false, uses: null }`
 * when there is no such picture.
 */
export async function deletePicture(
  db: Database,
  id: number,
): Promise<{ deleted: true } | { deleted: false; uses: PictureUses | null }> {
  return db.transaction(async (tx) => {
    // The row locked first: a slot given this picture meanwhile waits for the delete (and then fails on its key).
    const [row] = await tx.select({ id: pictures.id }).from(pictures).where(eq(pictures.id, id)).for("update");
    if (!row) return { deleted: false, uses: null };
    const uses = await pictureUses(tx, id);
    if (!unused(uses)) return { deleted: false, uses };
    await tx.delete(pictures).where(eq(pictures.id, id));
    return { deleted: true };
  });
}

/** Deletes picture `id` (its files go with it) if nothing shows it any more; true when deleted. */
async function dropIfUnused(db: Database, id: number | undefined): Promise<boolean> {
  if (id === undefined || !unused(await pictureUses(db, id))) return false;
  await db.delete(pictures).where(eq(pictures.id, id));
  return true;
}

/**
 * Puts picture `pictureId` in `slot` with its description `alt`. The
 * picture it replaces is deleted with its files when nothing else shows it;
 * resolves with that picture's id, or null.
 */
export async function setSlotPicture(
  db: Database,
  slot: ReplaceableSlot,
  pictureId: number,
  alt: string,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(sitePictures).where(eq(sitePictures.slot, slot)).for("update");
    await tx
      .insert(sitePictures)
      .values({ slot, pictureId, alt })
      .onConflictDoUpdate({ target: sitePictures.slot, set: { pictureId, alt, updatedAt: sql`now()` } });
    const old = before && before.pictureId !== pictureId ? before.pictureId : undefined;
    return (await dropIfUnused(tx, old)) ? old! : null;
  });
}

/**
 * Gives `slot` back its picture from the repository. The uploaded picture
 * it showed is deleted with its files when nothing else shows it; resolves
 * with that picture's id, or null.
 */
export async function clearSlotPicture(db: Database, slot: ReplaceableSlot): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .delete(sitePictures)
      .where(eq(sitePictures.slot, slot))
      .returning({ pictureId: sitePictures.pictureId });
    return (await dropIfUnused(tx, before?.pictureId)) ? before!.pictureId : null;
  });
}

/** The uploaded pictures that fill slots, as `<picture>` data, by slot. */
export async function slotPictures(
  db: Database,
): Promise<Partial<Record<ReplaceableSlot, ReturnType<typeof pictureSources>>>> {
  const rows = await db
    .select({ slot: sitePictures.slot, alt: sitePictures.alt, picture: pictures })
    .from(sitePictures)
    .innerJoin(pictures, eq(pictures.id, sitePictures.pictureId));
  return Object.fromEntries(rows.map((row) => [row.slot, pictureSources(row.picture, row.alt)]));
}
