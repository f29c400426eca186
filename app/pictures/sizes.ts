/**
 * What a picture's making needs to know, shared by the server
 * (pictures.server.ts) and the child process that makes the files
 * (making.ts, picture-child.ts) without loading sharp in the server: the
 * widths and formats made, the memory and pixel limits, the shape of one
 * file made.
 */

/** Widths made of every picture, in pixels (DESIGN.md section 9). */
export const PICTURE_WIDTHS = [480, 800, 1200] as const;
/** The largest of them. */
export const LARGEST_WIDTH = 1200;
/** Formats of the files made, best first. */
export const PICTURE_FORMATS = ["avif", "webp"] as const;
export type PictureFormat = (typeof PICTURE_FORMATS)[number];
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
export const MAX_INPUT_PIXELS = 100_000_000;

/** One file made from a picture. */
export interface PreparedFile {
  format: PictureFormat;
  width: number;
  height: number;
  bytes: Buffer;
}

/** The widths a picture of `width` pixels has files at. */
export function widthsOf(width: number): number[] {
  return [...new Set(PICTURE_WIDTHS.map((candidate) => Math.min(candidate, width)))];
}
