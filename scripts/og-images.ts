/**
 * Writes the Open Graph share images (what Facebook, WhatsApp, LinkedIn...
 * show beside a shared link), 1200×630 PNG:
 *
 * - `public/og/site.png`: the brand, the hero's title, the cantons served
 *   and the hero picture;
 * - `public/og/blog/{slug}.png`: one per article of `app/content/blog/`,
 *   with its category, title, date and icon in the article's colour.
 *
 * Every word comes from `app/content/` (identity, home, zones, the articles'
 * front matter, read with the app's own parser), the colours from the
 * `@theme` of `app/app.css`, the typeface from @fontsource. Pages are laid out
 * in HTML and photographed by Debian's Chromium without any network (fonts
 * and pictures are inlined as data URLs), then reduced to a 256-colour
 * palette with sharp. The same inputs give the same bytes; images of
 * articles that no longer exist are deleted.
 *
 *   npm run og:images
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "@playwright/test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import sharp from "sharp";
import { loadArticles } from "../app/blog/articles.server";
import type { Article } from "../app/blog/types";
import { Icon } from "../app/components/icon";
import { hero, blogSection } from "../app/content/home";
import { identity } from "../app/content/identity";
import type { PictureSlot, ThemeColor } from "../app/content/types";
import { cantonNames } from "../app/content/zones";
import { formatDate } from "../app/utils/format";
import { articleShareImagePath, SHARE_IMAGE_SIZE, SITE_SHARE_IMAGE_PATH } from "../app/seo/meta";
import { chromiumLaunchOptions } from "./chromium";

/** Size Open Graph consumers expect (1.91:1), as the pages declare it (og:image:width and height). */
export const OG_WIDTH = SHARE_IMAGE_SIZE.width;
export const OG_HEIGHT = SHARE_IMAGE_SIZE.height;
/** Where the images are written; `public/` is copied as is into the build. */
export const OG_DIR = path.join("public", "og");
/** The site's image, used for every page without an image of its own. */
export const SITE_IMAGE = path.join("public", SITE_SHARE_IMAGE_PATH);

/** `public/og/blog/{slug}.png`, the file behind the article page's og:image. */
export function articleImagePath(slug: string): string {
  return path.join("public", articleShareImagePath(slug));
}

const PICTURES_DIR = path.join("app", "content", "pictures");
const FONT_FILE = path.join(
  "node_modules",
  "@fontsource-variable",
  "atkinson-hyperlegible-next",
  "files",
  "atkinson-hyperlegible-next-latin-wght-normal.woff2",
);
const MIME_TYPES: Record<string, string> = {
  ".svg": "image/svg+xml",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".avif": "image/avif",
};

/** The `--color-*` tokens of the `@theme` block of `app/app.css`, by name ("primary-soft" → "#dbeafe"). */
export function themeColours(css = fs.readFileSync(path.join("app", "app.css"), "utf8")): Record<string, string> {
  const theme = /@theme\s*\{([\s\S]*?)\n\}/.exec(css)?.[1] ?? "";
  return Object.fromEntries(
    [...theme.matchAll(/--color-([\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name, value]),
  );
}

function dataUrl(file: string): string {
  const type = MIME_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
  return `data:${type};base64,${fs.readFileSync(file).toString("base64")}`;
}

/** The file of a picture slot, whether the illustration (`hero.svg`) or a photo that replaced it (`hero.jpg`). */
function pictureFile(slot: PictureSlot | "logo"): string {
  const name = fs
    .readdirSync(PICTURES_DIR)
    .sort()
    .find((file) => path.basename(file, path.extname(file)) === slot && path.extname(file).toLowerCase() in MIME_TYPES);
  if (!name) throw new Error(`Picture "${slot}" is missing from ${PICTURES_DIR}`);
  return path.join(PICTURES_DIR, name);
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[character]!);

/** Escapes `text`, keeping hyphenated words ("e-mail") whole and French punctuation (" :") with its word. */
const unbreakable = (text: string) =>
  escapeHtml(text)
    .replace(/ ([:;!?»])/g, "\u00a0$1")
    .replace(/« /g, "«\u00a0")
    .replace(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu, (word) => `<span style="white-space: nowrap">${word}</span>`);

/** The HTML document around one image: font, colours and shared pieces (brand line, bottom band). */
function page(body: string, colours: Record<string, string>, band: string): string {
  const vars = Object.entries(colours)
    .map(([name, value]) => `--${name}: ${value};`)
    .join(" ");
  return `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><style>
@font-face { font-family: "Atkinson Hyperlegible Next"; font-weight: 200 800; src: url("${dataUrl(FONT_FILE)}") format("woff2"); }
:root { ${vars} }
* { box-sizing: border-box; margin: 0; padding: 0; }
html, body { width: ${OG_WIDTH}px; height: ${OG_HEIGHT}px; overflow: hidden; }
body { font-family: "Atkinson Hyperlegible Next", sans-serif; color: var(--ink); background: var(--cream);
  -webkit-font-smoothing: antialiased; position: relative; }
.band { position: absolute; left: 0; right: 0; bottom: 0; height: 16px; background: ${band}; }
.brand { display: flex; align-items: center; gap: 20px; font-weight: 700; line-height: 1.1; color: var(--primary-strong); }
.brand img { width: 72px; height: 72px; }
.brand span { display: block; font-size: 30px; }
h1 { font-weight: 700; line-height: 1.1; letter-spacing: -0.01em; text-wrap: balance; }
.pill { display: inline-flex; align-items: center; gap: 12px; border-radius: 999px; padding: 10px 26px;
  font-size: 30px; font-weight: 700; }
</style></head><body>${body}<div class="band"></div></body></html>`;
}

function brand(): string {
  return `<div class="brand"><img src="${dataUrl(pictureFile("logo"))}" alt="">
  <div><span>${escapeHtml(identity.brand.line1)}</span><span>${escapeHtml(identity.brand.line2)}</span></div></div>`;
}

/** The site's image: brand, the hero's title, the cantons, the hero picture on the right. */
function siteHtml(colours: Record<string, string>): string {
  const cantons = cantonNames
    .map(
      (canton) =>
        `<li class="pill" style="background: var(--primary-soft); color: var(--primary-strong)">${escapeHtml(canton)}</li>`,
    )
    .join("");
  return page(
    `<style>
  .text { position: absolute; left: 64px; top: 56px; bottom: 72px; width: 540px; display: flex; flex-direction: column; }
  h1 { margin-top: auto; font-size: 68px; }
  h1 em { font-style: normal; color: var(--primary); }
  .badge { margin-top: 24px; font-size: 30px; font-weight: 600; color: var(--muted); }
  ul { list-style: none; display: flex; gap: 14px; margin-top: auto; }
  .art { position: absolute; right: 0; bottom: 16px; width: 600px; height: 450px; }
  .art img { width: 100%; height: 100%; object-fit: cover; }
</style>
<div class="text">${brand()}
  <h1>${escapeHtml(hero.title)} <em>${escapeHtml(hero.titleHighlight)}</em></h1>
  <p class="badge">${escapeHtml(hero.badge)}</p>
  <ul>${cantons}</ul>
</div>
<div class="art"><img src="${dataUrl(pictureFile("hero"))}" alt=""></div>`,
    colours,
    "var(--primary)",
  );
}

/** An article's image: brand, category, title (as large as fits), date, and its icon on a tile of its colour. */
function articleHtml(article: Article, colours: Record<string, string>): string {
  const theme = (color: ThemeColor) => ({
    main: `var(--${color})`,
    strong: `var(--${color}-strong)`,
    soft: `var(--${color}-soft)`,
  });
  const { main, strong, soft } = theme(article.color);
  const icon = (size: number, strokeWidth: number) =>
    renderToStaticMarkup(createElement(Icon, { name: article.icon, size, strokeWidth, color: "currentColor" }));
  return page(
    `<style>
  .top { position: absolute; left: 64px; right: 64px; top: 48px; display: flex; align-items: center; justify-content: space-between; }
  .section { font-size: 30px; font-weight: 700; color: var(--muted); }
  .text { position: absolute; left: 64px; top: 168px; bottom: 64px; width: 720px; display: flex; flex-direction: column; }
  .title { flex: 1; min-height: 0; margin-top: 28px; display: flex; align-items: center; overflow: hidden; }
  .date { font-size: 30px; color: var(--muted); }
  .tile { position: absolute; right: 64px; top: 190px; width: 300px; height: 300px; border-radius: 56px;
    display: flex; align-items: center; justify-content: center; background: ${soft}; color: ${strong}; }
</style>
<div class="top">${brand()}<p class="section">${escapeHtml(blogSection.title)}</p></div>
<div class="text">
  <p><span class="pill" style="background: ${soft}; color: ${strong}">${icon(34, 2.25)}${escapeHtml(article.category)}</span></p>
  <div class="title"><h1 id="title">${unbreakable(article.title)}</h1></div>
  <p class="date">${escapeHtml(formatDate(article.date))}</p>
</div>
<div class="tile">${icon(176, 1.75)}</div>`,
    colours,
    main,
  );
}

/** Lays `html` out in Chromium and returns the optimised PNG. */
async function render(browser: Browser, html: string): Promise<Buffer> {
  const context = await browser.newContext({ viewport: { width: OG_WIDTH, height: OG_HEIGHT }, deviceScaleFactor: 1 });
  // Nothing may come from the network: everything is inlined.
  await context.route("**/*", (route) => route.abort());
  const tab = await context.newPage();
  await tab.setContent(html, { waitUntil: "load" });
  await tab.evaluate(async () => {
    await document.fonts.ready;
    // An article's title: the largest size from 76 px down that fits its box.
    const title = document.getElementById("title");
    const box = title?.parentElement;
    if (!title || !box) return;
    for (let size = 76; size > 40; size -= 2) {
      title.style.fontSize = `${size}px`;
      if (title.scrollHeight <= box.clientHeight && title.scrollWidth <= box.clientWidth) break;
    }
  });
  const screenshot = await tab.screenshot({ type: "png" });
  await context.close();
  return sharp(screenshot).png({ palette: true, colours: 256, dither: 0, compressionLevel: 9, effort: 10 }).toBuffer();
}

/** Writes `data` to `file` unless it already holds exactly that; returns the size in bytes. */
function write(file: string, data: Buffer): number {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file) || !fs.readFileSync(file).equals(data)) fs.writeFileSync(file, data);
  return data.length;
}

/** Renders every image; prints each file with its size. */
export async function writeOgImages(): Promise<void> {
  const colours = themeColours();
  const articles = loadArticles();
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const report = (file: string, bytes: number) => console.log(`${file}  ${(bytes / 1024).toFixed(1)} KB`);
    report(SITE_IMAGE, write(SITE_IMAGE, await render(browser, siteHtml(colours))));
    for (const article of articles) {
      const file = articleImagePath(article.slug);
      report(file, write(file, await render(browser, articleHtml(article, colours))));
    }
  } finally {
    await browser.close();
  }
  const wanted = new Set(articles.map((article) => `${article.slug}.png`));
  for (const name of fs.readdirSync(path.join(OG_DIR, "blog"))) {
    if (name.endsWith(".png") && !wanted.has(name)) {
      fs.rmSync(path.join(OG_DIR, "blog", name));
      console.log(`${path.join(OG_DIR, "blog", name)}  deleted (no such article)`);
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await writeOgImages();
}
