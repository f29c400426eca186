/**
 * The sharp work on pictures, run only in the child process
 * (picture-child.ts, started by child.server.ts): the server never loads
 * sharp's native library (issue 33, item 5; decision 037).
 *
 * - `makePictureFiles(bytes)` → `{ ok: true, files, width, height }` or
 *   `{ ok: false, reason }` (`notImage`, `svg`, `heic`, `tooManyPixels`):
 *   the photo decoded once, reduced in the same pipeline (JPEG's
 *   shrink-on-load), turned upright, then AVIF and WebP at each width of
 *   `widthsOf` encoded from those pixels. No metadata is written.
 * - `svgToPng(svg)` → a PNG of 256 colours (the share cards,
 *   app/seo/share-card.server.tsx). @throws sharp's error on a bad SVG.
 * - `decodedBytes(metadata)`: the memory a picture takes once decoded.
 */
import sharp from "sharp";
import {
  DECODE_BUDGET_BYTES,
  LARGEST_WIDTH,
  MAX_INPUT_PIXELS,
  PICTURE_FORMATS,
  widthsOf,
  type PreparedFile,
} from "./sizes";

/** Why a file is refused (pictureMessages in pictures.server.ts says it in French). */
export type RefusalReason = "notImage" | "svg" | "heic" | "tooManyPixels";

export type MadeFiles =
  { ok: true; files: PreparedFile[]; width: number; height: number } | { ok: false; reason: RefusalReason };

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

/** Makes the files of the photo `bytes` (checked by its content), or says why not. */
export async function makePictureFiles(bytes: Buffer): Promise<MadeFiles> {
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, reason: "notImage" };
  }
  const { format, compression } = metadata;
  if (format === "svg") return { ok: false, reason: "svg" };
  // HEIF holds the iPhone's HEIC photos (HEVC, which this build of libvips does not decode) and AVIF.
  if (format === "heif" && compression === "hevc") return { ok: false, reason: "heic" };
  if (format !== "jpeg" && format !== "png" && format !== "webp") return { ok: false, reason: "notImage" };
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels > MAX_INPUT_PIXELS || decodedBytes(metadata) > DECODE_BUDGET_BYTES)
    return { ok: false, reason: "tooManyPixels" };
  try {
    // Decoded once, reduced in the same pipeline (a JPEG is decoded at 1/2, 1/4 or 1/8 of its size), turned
    // upright; `failOn: "error"` refuses a truncated or corrupt file. Raw pixels: no second decoding.
    const uprightWidth = (metadata.orientation ?? 1) >= 5 ? metadata.height! : metadata.width!;
    const upright = await sharp(bytes, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: Math.min(uprightWidth, LARGEST_WIDTH) })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width: largest, height, channels } = upright.info;
    const decoded = sharp(upright.data, { raw: { width: largest, height, channels } });
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
    return { ok: true, files, width: biggest.width, height: biggest.height };
  } catch {
    return { ok: false, reason: "notImage" };
  }
}

/** Rasterises `svg` to a PNG of 256 colours (palette, as small as the old Chromium images). */
export async function svgToPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg))
    .png({ palette: true, colours: 256, dither: 0, compressionLevel: 9, effort: 10 })
    .toBuffer();
}

/** `bytes` (any format sharp reads) cut to `width` × `height` pixels, covering the box, centred; a JPEG of quality 85. */
export async function coverJpeg(bytes: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(bytes).resize({ width, height, fit: "cover" }).jpeg({ quality: 85 }).toBuffer();
}
