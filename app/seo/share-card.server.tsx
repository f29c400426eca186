/**
 * The one generator of the site's share images (1200×630 PNG): satori lays
 * the card out as an SVG whose text is the outlines of the site's typeface
 * (Atkinson Hyperlegible Next, static TTF in `app/seo/fonts/`, SIL OFL 1.1),
 * sharp rasterises it in a child process (app/pictures/child.server.ts:
 * the server never loads sharp; decision 037). No browser and no system font: a missing character
 * cannot fall back to another font (decision 029). Colours from `app/app.css`'s
 * `@theme`, words from `app/content/`; the same inputs give the same bytes.
 * `articleShareCard` (an article), `siteShareCard` (the site, with the
 * repository's hero picture or the owner's), `titleLines`
 * (how a title breaks, for tests).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createElement, type CSSProperties, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { Font } from "opentype.js";
import { Icon, type IconName } from "~/components/icon";
import { blogSection, hero } from "~/content/home";
import { identity } from "~/content/identity";
import type { PictureSlot, ThemeColor } from "~/content/types";
import { cantonNames } from "~/content/zones";
import { runPictureJob } from "~/pictures/child.server";
import { formatDate } from "~/utils/format";
import { typeset } from "~/utils/typography";
import { SHARE_IMAGE_SIZE } from "./meta";

const { width: WIDTH, height: HEIGHT } = SHARE_IMAGE_SIZE;

/** The typeface's name in the SVG (satori's own, never looked up in the system). */
const FAMILY = "Atkinson Hyperlegible Next";

/** Where the TTF files are, relative to the working directory (the repository). */
export const FONT_DIRECTORY = path.join("app", "seo", "fonts");

/** The weights the cards use, each a static TTF of the family. */
export const FONT_FILES = {
  400: "AtkinsonHyperlegibleNext_400Regular.ttf",
  600: "AtkinsonHyperlegibleNext_600SemiBold.ttf",
  700: "AtkinsonHyperlegibleNext_700Bold.ttf",
} as const;

type Weight = keyof typeof FONT_FILES;

/** A typeface the cards can be drawn with: a TTF/OTF for each weight. Tests swap in another to compare. */
export type CardFonts = Record<Weight, Buffer>;

let siteFonts: CardFonts | undefined;

/** The site's typeface, read once. */
export function cardFonts(): CardFonts {
  siteFonts ??= {
    400: fs.readFileSync(path.join(FONT_DIRECTORY, FONT_FILES[400])),
    600: fs.readFileSync(path.join(FONT_DIRECTORY, FONT_FILES[600])),
    700: fs.readFileSync(path.join(FONT_DIRECTORY, FONT_FILES[700])),
  };
  return siteFonts;
}

const parsed = new WeakMap<Buffer, Font>();

/**
 * The parsed font of `bytes` (for measuring). opentype.js, like satori, is
 * loaded at the first card drawn, not at the server's start (about 0.9 s and
 * 45 MB between them on this machine, for a page that only names the image).
 */
async function parseFont(bytes: Buffer): Promise<Font> {
  let font = parsed.get(bytes);
  if (!font) {
    const { default: opentype } = await import("opentype.js");
    font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    parsed.set(bytes, font);
  }
  return font;
}

/** The `--color-*` tokens of the `@theme` block of `app/app.css`, by name ("primary-soft" → "#dbeafe"). */
export function themeColours(css = fs.readFileSync(path.join("app", "app.css"), "utf8")): Record<string, string> {
  const theme = /@theme\s*\{([\s\S]*?)\n\}/.exec(css)?.[1] ?? "";
  return Object.fromEntries(
    [...theme.matchAll(/--color-([\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name, value!.trim()]),
  );
}

let colours: Record<string, string> | undefined;
function colour(name: string): string {
  colours ??= themeColours();
  const value = colours[name];
  if (!value) throw new Error(`app/app.css has no --color-${name}`);
  return value;
}

/**
 * `text` with the site's French typography (`typeset`: no-break spaces
 * before « : ; ! ? » and inside « », "e-mail" unbroken), in characters the
 * card's font has: its narrow no-break space (U+202F, which this TTF lacks)
 * becomes a no-break space, and its word joiner (U+2060, which draws
 * nothing) is dropped, since the card's lines break only at ordinary spaces.
 */
export function cardText(text: string): string {
  return typeset(text.trim().replace(/\s+/g, " "))
    .replace(/\u202f/g, "\u00a0")
    .replace(/\u2060/g, "");
}

/**
 * `cardText(text)` without the characters `font` has no glyph for (an emoji,
 * a Greek word): the card leaves them out rather than draw the font's empty
 * box, since no other font is ever used.
 */
function drawable(text: string, font: Font): string {
  return [...cardText(text)]
    .filter((character) => /\s/.test(character) || font.charToGlyphIndex(character) > 0)
    .join("")
    .replace(/ {2,}/g, " ")
    .trim();
}

/** Title sizes tried, largest first (px); the title's line height is 1.1. */
export const TITLE_SIZES = [76, 72, 68, 64, 60, 56] as const;
/** The title's box: 720 px wide, three lines at most. */
export const TITLE_WIDTH = 720;
export const TITLE_MAX_LINES = 3;
const TITLE_LETTER_SPACING = -0.01;

/** Width of `text` in `font` at `size` px (kerning and the -0.01 em letter spacing included). */
function titleWidth(font: Font, text: string, size: number): number {
  return font.getAdvanceWidth(text, size, { kerning: true }) + TITLE_LETTER_SPACING * size * [...text].length;
}

/** Greedy lines of `words` no wider than `width`: a word is never cut (a hyphenated word stays whole). */
function greedy(words: string[], width: number, measure: (text: string) => number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && measure(candidate) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * How `title` is drawn: the largest size of TITLE_SIZES at which it fits
 * TITLE_MAX_LINES lines of TITLE_WIDTH px, the lines balanced (as even as
 * the words allow, like CSS `text-wrap: balance`). When it does not fit
 * even at the smallest size, the third line ends with "…" after the last
 * word that fits. Words break only at ordinary spaces, so French
 * punctuation stays with its word and "e-mail" stays whole (`cardText`);
 * characters the font lacks are left out (`drawable`).
 */
export async function titleLines(
  title: string,
  fonts: CardFonts = cardFonts(),
): Promise<{ size: number; lines: string[] }> {
  const font = await parseFont(fonts[700]);
  const words = drawable(title, font).split(" ").filter(Boolean);
  for (const size of TITLE_SIZES) {
    const measure = (text: string) => titleWidth(font, text, size);
    const lines = greedy(words, TITLE_WIDTH, measure);
    // Too many lines, or a word wider than the box: a smaller size.
    if (lines.length > TITLE_MAX_LINES || lines.some((line) => measure(line) > TITLE_WIDTH)) continue;
    // Balance: the narrowest box that still takes no more lines.
    let low = 0;
    let high = TITLE_WIDTH;
    while (high - low > 1) {
      const middle = (low + high) / 2;
      if (greedy(words, middle, measure).length <= lines.length) high = middle;
      else low = middle;
    }
    return { size, lines: greedy(words, high, measure) };
  }
  const size = TITLE_SIZES[TITLE_SIZES.length - 1]!;
  const measure = (text: string) => titleWidth(font, text, size);
  const lines = greedy(words, TITLE_WIDTH, measure).slice(0, TITLE_MAX_LINES);
  const last = lines[TITLE_MAX_LINES - 1]!.split(" ");
  while (last.length > 1 && measure(`${last.join(" ")}\u00a0…`) > TITLE_WIDTH) last.pop();
  // A word longer than the line itself is cut letter by letter.
  let tail = last.join(" ").replace(/[\s:;!?»«,.–-]+$/u, "");
  while (tail.length > 1 && measure(`${tail}…`) > TITLE_WIDTH) tail = [...tail].slice(0, -1).join("");
  lines[TITLE_MAX_LINES - 1] = `${tail}…`;
  return { size, lines };
}

/** An SVG document as a data URL, for an `<img>` of the card. */
function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

/** The picture of `slot` in `app/content/pictures/` (an SVG illustration, or a photo that replaced it) as a data URL. */
function pictureDataUrl(slot: PictureSlot | "logo"): string {
  const directory = path.join("app", "content", "pictures");
  const types: Record<string, string> = {
    ".svg": "image/svg+xml",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".png": "image/png",
    ".webp": "image/webp",
  };
  const name = fs
    .readdirSync(directory)
    .sort()
    .find((file) => path.basename(file, path.extname(file)) === slot && path.extname(file).toLowerCase() in types);
  if (!name) throw new Error(`Picture "${slot}" is missing from ${directory}`);
  return `data:${types[path.extname(name).toLowerCase()]};base64,${fs.readFileSync(path.join(directory, name)).toString("base64")}`;
}

/** A lucide icon of the site as an `<img>` source, drawn in `color`. */
function iconDataUrl(name: IconName, size: number, strokeWidth: number, color: string): string {
  return svgDataUrl(renderToStaticMarkup(createElement(Icon, { name, size, strokeWidth, color })));
}

/** A flex box (satori lays out every `div` as flexbox and wants `display: flex` written out). */
function Flex({ style, children }: { style: CSSProperties; children?: ReactNode }) {
  return <div style={{ display: "flex", ...style }}>{children}</div>;
}

/** The brand line: logo and the two lines of the business name. */
function Brand() {
  return (
    <Flex style={{ alignItems: "center", gap: 20, fontWeight: 700, lineHeight: 1.1, color: colour("primary-strong") }}>
      <img src={pictureDataUrl("logo")} width={72} height={72} alt="" />
      <Flex style={{ flexDirection: "column", fontSize: 30 }}>
        <span>{identity.brand.line1}</span>
        <span>{identity.brand.line2}</span>
      </Flex>
    </Flex>
  );
}

/** The whole card: cream background, `children`, and the band of `band` colour at the bottom. */
function Card({ band, children }: { band: string; children: ReactNode }) {
  return (
    <Flex
      style={{
        position: "relative",
        width: WIDTH,
        height: HEIGHT,
        fontFamily: FAMILY,
        color: colour("ink"),
        background: colour("cream"),
      }}
    >
      {children}
      <Flex style={{ position: "absolute", left: 0, right: 0, bottom: 0, height: 16, background: band }} />
    </Flex>
  );
}

/** A rounded label: `children` on `background`, in `color`. */
function Pill({ background, color, children }: { background: string; color: string; children: ReactNode }) {
  return (
    <Flex
      style={{
        alignItems: "center",
        gap: 12,
        borderRadius: 999,
        padding: "10px 26px",
        fontSize: 30,
        fontWeight: 700,
        lineHeight: 1.2,
        background,
        color,
      }}
    >
      {children}
    </Flex>
  );
}

/**
 * Bump when the cards' layout changes in this file: every article then gets
 * a new image (and a new address) the next time its page is shared.
 */
const LAYOUT_VERSION = 1;

let design: string | undefined;

/**
 * A fingerprint of everything a card shows besides the article: layout
 * version, fonts, theme colours, logo, brand and section words. Part of
 * each article image's `source` hash, so a change of design gives every
 * image a new address.
 */
export function cardDesign(): string {
  if (design) return design;
  const hash = crypto.createHash("sha256").update(String(LAYOUT_VERSION));
  for (const weight of [400, 600, 700] as const) hash.update(cardFonts()[weight]);
  hash.update(JSON.stringify([themeColours(), identity.brand, blogSection.title, pictureDataUrl("logo")]));
  design = hash.digest("hex");
  return design;
}

/**
 * Lays `card` out and returns the PNG (256-colour palette, as small as the old Chromium images).
 * @throws Error when the child process that rasterises it fails or takes more than a minute.
 */
async function draw(card: ReactNode, fonts: CardFonts): Promise<Buffer> {
  const { default: satori } = await import("satori");
  const svg = await satori(card, {
    width: WIDTH,
    height: HEIGHT,
    fonts: ([400, 600, 700] as const).map((weight) => ({
      name: FAMILY,
      data: fonts[weight],
      weight,
      style: "normal" as const,
    })),
  });
  const outcome = await runPictureJob({ kind: "png", svg }, { timeoutMs: RASTERISE_LIMIT_MS });
  if (!outcome.ok || outcome.result.kind !== "png")
    throw new Error(`share card: the picture child ${outcome.ok ? "answered another kind" : outcome.failure}`);
  const { png } = outcome.result;
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}

/** Time the rasterising of one card may take, in milliseconds (about a second here). */
const RASTERISE_LIMIT_MS = 60_000;

/** What an article's card shows; a change of any of these makes a new image. */
export interface ArticleCardInput {
  title: string;
  category: string;
  /** ISO date, "2024-11-01". */
  date: string;
  icon: IconName;
  color: ThemeColor;
}

/**
 * The share image of an article (1200×630 PNG).
 * @throws RangeError when `date` is not a date (`formatDate`).
 */
export async function articleShareCard(article: ArticleCardInput, fonts: CardFonts = cardFonts()): Promise<Buffer> {
  const main = colour(article.color);
  const strong = colour(`${article.color}-strong`);
  const soft = colour(`${article.color}-soft`);
  const muted = colour("muted");
  const title = await titleLines(article.title, fonts);
  return draw(
    <Card band={main}>
      <Flex
        style={{
          position: "absolute",
          left: 64,
          right: 64,
          top: 48,
          alignItems: "center",
          justifyContent: "space-between",
        }}
      >
        <Brand />
        <span style={{ fontSize: 30, fontWeight: 700, color: muted }}>{blogSection.title}</span>
      </Flex>
      <Flex
        style={{ position: "absolute", left: 64, top: 168, bottom: 64, width: TITLE_WIDTH, flexDirection: "column" }}
      >
        <Flex style={{}}>
          <Pill background={soft} color={strong}>
            <img src={iconDataUrl(article.icon, 34, 2.25, strong)} width={34} height={34} alt="" />
            <span>{drawable(article.category, await parseFont(fonts[700]))}</span>
          </Pill>
        </Flex>
        <Flex
          style={{
            flexGrow: 1,
            minHeight: 0,
            marginTop: 28,
            flexDirection: "column",
            justifyContent: "center",
            fontSize: title.size,
            fontWeight: 700,
            lineHeight: 1.1,
            letterSpacing: `${TITLE_LETTER_SPACING}em`,
          }}
        >
          {title.lines.map((line, index) => (
            <span key={index} style={{ whiteSpace: "nowrap" }}>
              {line}
            </span>
          ))}
        </Flex>
        <span style={{ fontSize: 30, color: muted }}>{formatDate(article.date)}</span>
      </Flex>
      <Flex
        style={{
          position: "absolute",
          right: 64,
          top: 190,
          width: 300,
          height: 300,
          borderRadius: 56,
          alignItems: "center",
          justifyContent: "center",
          background: soft,
        }}
      >
        <img src={iconDataUrl(article.icon, 176, 1.75, strong)} width={176} height={176} alt="" />
      </Flex>
    </Card>,
    fonts,
  );
}

/** Pixel size of the hero picture on the site's card. */
export const SITE_CARD_PICTURE = { width: 600, height: 450 } as const;

/**
 * The site's share image (1200×630 PNG): brand, the hero's title and badge, the cantons, the hero picture:
 * the repository's, or `heroJpeg` (a JPEG of SITE_CARD_PICTURE's size: the photo the owner uploaded).
 */
export async function siteShareCard(fonts: CardFonts = cardFonts(), heroJpeg?: Buffer): Promise<Buffer> {
  const picture = heroJpeg ? `data:image/jpeg;base64,${heroJpeg.toString("base64")}` : pictureDataUrl("hero");
  return draw(
    <Card band={colour("primary")}>
      <Flex style={{ position: "absolute", left: 64, top: 56, bottom: 72, width: 540, flexDirection: "column" }}>
        <Brand />
        <div
          style={{
            marginTop: "auto",
            fontSize: 68,
            fontWeight: 700,
            lineHeight: 1.1,
            letterSpacing: `${TITLE_LETTER_SPACING}em`,
          }}
        >
          {cardText(hero.title)} <span style={{ color: colour("primary") }}>{cardText(hero.titleHighlight)}</span>
        </div>
        <span style={{ marginTop: 24, fontSize: 30, fontWeight: 600, color: colour("muted") }}>{hero.badge}</span>
        <Flex style={{ gap: 14, marginTop: "auto" }}>
          {cantonNames.map((canton) => (
            <Pill key={canton} background={colour("primary-soft")} color={colour("primary-strong")}>
              {canton}
            </Pill>
          ))}
        </Flex>
      </Flex>
      <Flex style={{ position: "absolute", right: 0, bottom: 16, width: 600, height: 450 }}>
        <img src={picture} width={600} height={450} style={{ objectFit: "cover" }} alt="" />
      </Flex>
    </Card>,
    fonts,
  );
}
