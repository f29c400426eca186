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
 * - `preparePicture(bytes or file, limits)` → `{ ok: true, files, width, height }` or
 *   `{ ok: false, message }` with the French reason (too big, not an image,
 *   SVG, HEIC, too much memory once decoded, too many scans, too slow).
 *   One picture is made at a time, decoded once at reduced size, in a child
 *   process killed past its time limit (issue 33, item 5; child.server.ts):
 *   this module does not load sharp.
 * - `savePicture(db, prepared, { alt, originalBytes })` → the picture's id.
 * - `pictureSources(picture)`: what `<picture>` needs (`PictureData`).
 * - `deletePicture(db, id)`: refused while a slot, an article or a letter
 *   shows it (`pictureUses`); a slot's picture replaced or given back is
 *   deleted when nothing else shows it (`setSlotPicture`, `clearSlotPicture`).
 */
import { and, desc, eq, inArray, like, sql } from "drizzle-orm";
import type { PictureSlot } from "~/content/types";
import type { Database } from "~/db/client.server";
import { articles, newsletterLetters, pictureFiles, pictures, sitePictures } from "~/db/schema";
import { runPictureJob } from "./child.server";
import { examine, type PictureFacts } from "./examine.server";
import { PICTURE_FORMATS, widthsOf, type PictureFormat, type PreparedFile } from "./sizes";

export {
  DECODE_BUDGET_BYTES,
  PICTURE_FORMATS,
  PICTURE_WIDTHS,
  widthsOf,
  type PictureFormat,
  type PreparedFile,
} from "./sizes";

/** Largest file accepted, in bytes (issue 21: 15 MB, what a phone's photo stays under). */
export const MAX_PICTURE_BYTES = 15 * 1024 * 1024;
/**
 * Most scans a JPEG may hold: libjpeg's own progressive files have 10,
 * mozjpeg's at most a few dozen; a crafted one thousands (see jpeg-scans.server.ts).
 */
export const MAX_JPEG_SCANS = 100;
/** Time one picture's decoding and encoding may take by default, in seconds (`PICTURE_TIMEOUT_SECONDS`). */
export const DEFAULT_PICTURE_TIMEOUT_SECONDS = 30;

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
  interrupted: "L’envoi de la photo a été interrompu. Envoyez-la à nouveau.",
  altMissing: "Décrivez la photo en une phrase, pour les personnes qui ne la voient pas.",
  altTooLong: "La description doit contenir au plus 300 caractères.",
} as const;

/**
 * A picture made, or why not: `failure` says when its making was stopped
 * (`"timeout"`: past the time limit; `"crash"`: the child process died,
 * most likely killed by the system for its memory; `"aborted"`: the owner
 * went away), for the log.
 */
export type PreparedPicture =
  | { ok: true; files: PreparedFile[]; width: number; height: number; hash: string }
  | { ok: false; message: string; failure?: "timeout" | "crash" | "aborted" };

/** Limits of one picture's making: the time it may take, the scans a JPEG may hold, a signal to give it up. */
export interface PictureLimits {
  /** Seconds (0.1 or more) the child process may spend on the picture before it is killed. */
  timeoutSeconds: number;
  maxScans?: number;
  /** Aborted when nobody waits for the picture any more (the request's signal). */
  signal?: AbortSignal;
}

/**
 * Checks a picture by content and makes its files, or says in French why
 * not. `picture` is its bytes, or a file on disk with what was learnt of it
 * while it was written (`PictureFacts` and its `path`: an upload,
 * upload-form.server.ts; the child reads it, the server never holds it).
 * The checks that need no decoding run here (size, SVG, a JPEG's scans);
 * the rest runs in a child process (child.server.ts, making.ts), one
 * picture at a time (the others wait): decoded once, at the size of its
 * largest file (JPEG's shrink-on-load), turned upright, encoded from those
 * pixels. A child past `timeoutSeconds` is killed (`tooSlow`); one that dies
 * gives `tooManyPixels` (the system kills a process for its memory); with
 * `signal` aborted (the owner gone), a picture still waiting is not made and
 * one being made is stopped (`interrupted`, failure `"aborted"`).
 */
export async function preparePicture(
  picture: Buffer | (PictureFacts & { path: string }),
  { timeoutSeconds, maxScans = MAX_JPEG_SCANS, signal }: PictureLimits = {
    timeoutSeconds: DEFAULT_PICTURE_TIMEOUT_SECONDS,
  },
): Promise<PreparedPicture> {
  const facts = Buffer.isBuffer(picture) ? examine(picture) : picture;
  if (facts.size === 0) return { ok: false, message: pictureMessages.missing };
  if (facts.size > MAX_PICTURE_BYTES) return { ok: false, message: pictureMessages.tooBig };
  // SVG is text: even one that libvips cannot size (no width) is named as such.
  if (/<svg[\s>]/i.test(facts.head.toString("latin1"))) return { ok: false, message: pictureMessages.svg };
  // A JPEG in too many scans holds the decoder however short the time limit: counted before any decoding.
  if (facts.jpegScans !== null && facts.jpegScans > maxScans)
    return { ok: false, message: pictureMessages.tooManyScans };
  const job = Buffer.isBuffer(picture)
    ? ({ kind: "photo", bytes: picture } as const)
    : ({ kind: "photo", path: picture.path } as const);
  const outcome = await runPictureJob(job, { timeoutMs: timeoutSeconds * 1000, signal });
  if (!outcome.ok)
    return {
      ok: false,
      message: pictureMessages[failureMessages[outcome.failure]],
      failure: outcome.failure,
    };
  if (outcome.result.kind !== "photo") throw new Error("picture child: a photo job answered with another kind");
  const made = outcome.result.made;
  if (!made.ok) return { ok: false, message: pictureMessages[made.reason] };
  return {
    ok: true,
    // Files come back by IPC as Uint8Arrays: Buffers again, without a copy.
    files: made.files.map((file) => ({
      ...file,
      bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
    })),
    width: made.width,
    height: made.height,
    hash: facts.hash,
  };
}

/** What the owner reads when a picture's making was stopped. */
const failureMessages = {
  timeout: "tooSlow",
  crash: "tooManyPixels",
  aborted: "interrupted",
} as const satisfies Record<string, keyof typeof pictureMessages>;

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
