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
 * - `preparePicture(bytes)` → `{ ok: true, files, width, height }` or
 *   `{ ok: false, message }` with the French reason (too big, not an image,
 *   SVG, HEIC, too many pixels).
 * - `savePicture(db, prepared, { alt, originalBytes })` → the picture's id.
 * - `pictureSources(picture)`: what `<picture>` needs (`PictureData`).
 */
import crypto from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import sharp from "sharp";
import type { PictureSlot } from "~/content/types";
import type { Database } from "~/db/client.server";
import { pictureFiles, pictures, sitePictures } from "~/db/schema";

/** Largest file accepted, in bytes (issue 21: 15 MB, what a phone's photo stays under). */
export const MAX_PICTURE_BYTES = 15 * 1024 * 1024;
/** Widths made of every picture, in pixels (DESIGN.md section 9). */
export const PICTURE_WIDTHS = [480, 800, 1200] as const;
/** Largest picture decoded, in pixels (a 15 MB file may claim far more: refused before decoding). */
const MAX_INPUT_PIXELS = 60_000_000;
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
  tooManyPixels: "Cette photo est trop grande (plus de 60 millions de pixels). Réduisez-la avant de l’envoyer.",
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

/** Checks `bytes` by content and makes its files, or says in French why not. */
export async function preparePicture(bytes: Buffer): Promise<PreparedPicture> {
  if (bytes.length === 0) return { ok: false, message: pictureMessages.missing };
  if (bytes.length > MAX_PICTURE_BYTES) return { ok: false, message: pictureMessages.tooBig };
  // SVG is text: even one that libvips cannot size (no width) is named as such.
  if (/<svg[\s>]/i.test(bytes.subarray(0, 4096).toString("latin1"))) return { ok: false, message: pictureMessages.svg };
  let format: string | undefined;
  let compression: string | undefined;
  let pixels = 0;
  try {
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    format = metadata.format;
    compression = metadata.compression;
    pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  } catch {
    return { ok: false, message: pictureMessages.notImage };
  }
  if (format === "svg") return { ok: false, message: pictureMessages.svg };
  // HEIF holds the iPhone's HEIC photos (HEVC, which this build of libvips does not decode) and AVIF.
  if (format === "heif" && compression === "hevc") return { ok: false, message: pictureMessages.heic };
  if (format !== "jpeg" && format !== "png" && format !== "webp")
    return { ok: false, message: pictureMessages.notImage };
  if (pixels > MAX_INPUT_PIXELS) return { ok: false, message: pictureMessages.tooManyPixels };
  try {
    // Orientation applied once, into pixels; `failOn: "error"` refuses a truncated or corrupt file.
    const upright = await sharp(bytes, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .toBuffer({ resolveWithObject: true });
    const largest = upright.info.width;
    const widths = [...new Set(PICTURE_WIDTHS.map((width) => Math.min(width, largest)))];
    const files: PreparedFile[] = [];
    for (const width of widths) {
      for (const format of PICTURE_FORMATS) {
        const resized = sharp(upright.data).resize({ width, withoutEnlargement: true });
        const output = await (
          format === "avif" ? resized.avif({ quality: 55, effort: 2 }) : resized.webp({ quality: 78 })
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
  } catch {
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

/** Puts picture `pictureId` in `slot` with its description `alt`. */
export async function setSlotPicture(db: Database, slot: ReplaceableSlot, pictureId: number, alt: string) {
  await db
    .insert(sitePictures)
    .values({ slot, pictureId, alt })
    .onConflictDoUpdate({ target: sitePictures.slot, set: { pictureId, alt, updatedAt: sql`now()` } });
}

/** Gives `slot` back its picture from the repository. */
export async function clearSlotPicture(db: Database, slot: ReplaceableSlot) {
  await db.delete(sitePictures).where(eq(sitePictures.slot, slot));
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
