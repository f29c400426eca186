/**
 * Tells from the pixels of an article's share image (1200×630 PNG) which
 * typeface drew its title: the ink of a one-line title is compared with the
 * same line drawn straight from a font file's glyph outlines (opentype.js
 * reads them, sharp rasterises them: not the card's own pipeline). A title
 * in the right typeface matches to a few per cent of its pixels; the same
 * words in another (DejaVu Sans, Liberation Sans: the fonts a server falls
 * back to) differ in width or in shape.
 */
import fs from "node:fs";
import opentype from "opentype.js";
import sharp from "sharp";

/** The title's area on the card: right of the left margin, below the category, above the date, left of the tile. */
const TITLE_AREA = { left: 40, top: 248, width: 780, height: 278 };

/** A black-and-white picture: `ink[y * width + x]` is true where the text is. */
export interface InkMask {
  width: number;
  height: number;
  ink: boolean[];
}

/** The dark pixels of `png` (or of its `area`), cropped to their bounding box. */
async function inkOf(png: Buffer, area?: typeof TITLE_AREA): Promise<InkMask> {
  const image = area ? sharp(png).extract(area) : sharp(png);
  const { data, info } = await image.flatten({ background: "#ffffff" }).raw().toBuffer({ resolveWithObject: true });
  const dark = (x: number, y: number) => {
    const offset = (y * info.width + x) * info.channels;
    return 0.2126 * data[offset]! + 0.7152 * data[offset + 1]! + 0.0722 * data[offset + 2]! < 128;
  };
  let [left, right, top, bottom] = [Infinity, -Infinity, Infinity, -Infinity];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (dark(x, y))
        [left, right, top, bottom] = [Math.min(left, x), Math.max(right, x), Math.min(top, y), Math.max(bottom, y)];
  if (right < left) return { width: 0, height: 0, ink: [] };
  const width = right - left + 1;
  const height = bottom - top + 1;
  const ink = Array.from({ length: width * height }, (_, index) =>
    dark(left + (index % width), top + Math.floor(index / width)),
  );
  return { width, height, ink };
}

/** The ink of the title drawn on a card (a one-line title: its area holds nothing else). */
export function titleInk(png: Buffer): Promise<InkMask> {
  return inkOf(png, TITLE_AREA);
}

/** The ink of `line` set in the font of `file` at `size` px, with the card's -0.01 em letter spacing. */
export async function fontInk(file: string, line: string, size: number): Promise<InkMask> {
  const bytes = fs.readFileSync(file);
  const font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  const glyphs = [...line].map((character) => font.charToGlyph(character));
  let x = 10;
  const paths = glyphs.map((glyph, index) => {
    const path = glyph.getPath(x, size * 1.2, size).toPathData(2);
    const next = glyphs[index + 1];
    x += ((glyph.advanceWidth ?? 0) + (next ? font.getKerningValue(glyph, next) : 0)) * (size / font.unitsPerEm);
    x -= 0.01 * size;
    return `<path d="${path}"/>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(x + 20)}" height="${Math.ceil(size * 1.6)}"><rect width="100%" height="100%" fill="#fff"/>${paths.join("")}</svg>`;
  return inkOf(await sharp(Buffer.from(svg)).png().toBuffer());
}

/**
 * How much two inks differ, from 0 (the same) to 1: the share of pixels
 * that are ink in one and not in the other, once `b` is scaled to the size
 * of `a` (a different width or height counts as well, through the scale).
 */
export async function inkDifference(a: InkMask, b: InkMask): Promise<number> {
  if (a.width === 0 || b.width === 0) return 1;
  const toPng = (mask: InkMask) =>
    sharp(Buffer.from(mask.ink.map((ink) => (ink ? 0 : 255))), {
      raw: { width: mask.width, height: mask.height, channels: 1 },
    });
  const scaled = await toPng(b).resize(a.width, a.height, { fit: "fill" }).extractChannel(0).raw().toBuffer();
  let differing = 0;
  let inked = 0;
  a.ink.forEach((ink, index) => {
    const other = scaled[index]! < 128;
    if (ink || other) inked++;
    if (ink !== other) differing++;
  });
  const sizeGap = Math.abs(a.width - b.width) / a.width + Math.abs(a.height - b.height) / a.height;
  return Math.min(1, differing / Math.max(1, inked) + sizeGap);
}

/**
 * The paths of the share image a page's `html` declares: og:image,
 * twitter:image and the `image` of its JSON-LD node of type `jsonLdType`
 * (each "" when missing).
 */
export function declaredImages(html: string, jsonLdType: string): [string, string, string] {
  const meta = (attribute: string, name: string) =>
    new RegExp(`<meta ${attribute}="${name}" content="([^"]+)"`).exec(html)?.[1];
  const jsonLd = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
  type Node = { "@type"?: string; image?: string };
  const graph = JSON.parse(jsonLd ?? "{}") as Node & { "@graph"?: Node[] };
  const node = (graph["@graph"] ?? [graph]).find((candidate) => candidate["@type"] === jsonLdType);
  const path = (url: string | undefined) => new URL(url ?? "missing:").pathname;
  return [path(meta("property", "og:image")), path(meta("name", "twitter:image")), path(node?.image)];
}
