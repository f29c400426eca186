/**
 * Byte budgets of the production build (made once by the global setup,
 * tests/integration/global-setup.ts): what the home page `/` loads before
 * any interaction (JavaScript, CSS, HTML, gzip level 9; the page as the
 * production server serves it, with no course session), no
 * render-blocking request to another host on any page of the sitemap or
 * noindex page as served, fonts (swap, Latin subset only) and the hero
 * picture. Bytes only, no timing.
 * See docs/decisions/007-javascript-budget.md.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  cssReferences,
  fontFaces,
  gzipSize,
  isOtherHost,
  javascriptLoadedAtStart,
  readTags,
  renderBlockingForeignRequests,
  stylesheetsOf,
} from "./page-assets";
import { publicPagePaths, servedPages, spawnSite, type ServedPage, type SpawnedSite } from "../support/harness";

const clientDirectory = path.join(process.env.BUILD_DIR ?? "build", "client");
const KB = 1024;
/**
 * Byte budgets. JavaScript: / loads 123.2 KB (2026-11-25, after the
 * header's "Appeler", the owner's telephone one tap away on every page
 * with its decoding, decision 020: +0.9 KB over 122.3, which came after
 * the newsletter box that answers in place, the course cards leading to
 * /cours and the root layout leaving the desk without the public header;
 * floor of React + React Router alone: ~109 KB), with
 * lucide-react's own runtime since the
 * icons come through its public API only
 * (docs/decisions/010-valid-deferred-hydration.md, which allows up to 125 KB;
 * the earlier work is in docs/decisions/007-javascript-budget.md). 124.5 KB
 * since issue 33 (124.2 measured, +1.0 KB): the French 503 page with the
 * telephone in the root's error boundary (item 10), every page's meta
 * naming the share card of the owner's hero (item 13), and the header's
 * menu holding « Appeler » at large text (item 7). 125.0 KB since the build moved to Vite 8 and
 * Rolldown (124.6 measured, +0.4 KB: Rolldown's 0.4 KB runtime chunk, which every page loads; the
 * build takes a third of its CPU time; decision 045).
 */
const budgets = { javascript: 125 * KB, css: 15 * KB, html: 30 * KB, heroPicture: 60 * KB };

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const read = (sitePath: string) => fs.readFileSync(path.join(clientDirectory, sitePath));

let site: SpawnedSite | undefined;
/** Every page of the sitemap (`/` first) and every noindex page, as the production server serves them. */
let pages: ServedPage[] = [];
let homeHtml = "";
beforeAll(async () => {
  // No page is written at build time: the production server, on a fresh database, answers them.
  site = await spawnSite({ LOG_LEVEL: "warn" });
  await site.ready();
  pages = await servedPages(site.url, await publicPagePaths());
  homeHtml = pages.find((page) => page.path === "/")!.html;
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

describe("the home page /", () => {
  test(`loads at most ${kb(budgets.javascript)} of JavaScript (gzip) before any interaction`, async () => {
    const files = await javascriptLoadedAtStart(homeHtml, clientDirectory);
    const sizes = files.map((file) => ({ file, gzip: gzipSize(read(file)) }));
    const total = sizes.reduce((sum, { gzip }) => sum + gzip, 0);
    const detail = sizes
      .sort((a, b) => b.gzip - a.gzip)
      .map(({ file, gzip }) => `${kb(gzip).padStart(9)} ${file}`)
      .join("\n");
    expect(
      files.some((file) => file.includes("entry.client")),
      "entry.client is among the files",
    ).toBe(true);
    expect(
      total,
      `/ loads ${kb(total)} of JavaScript (gzip) in ${files.length} files:\n${detail}\n`,
    ).toBeLessThanOrEqual(budgets.javascript);
  });

  test(`links at most ${kb(budgets.css)} of CSS (gzip)`, () => {
    const sheets = stylesheetsOf(homeHtml);
    const total = sheets.reduce((sum, sheet) => sum + gzipSize(read(sheet)), 0);
    expect(sheets.length, "one style sheet at least").toBeGreaterThan(0);
    expect(total, `/ links ${kb(total)} of CSS (gzip): ${sheets.join(", ")}`).toBeLessThanOrEqual(budgets.css);
  });

  test(`weighs at most ${kb(budgets.html)} of HTML (gzip)`, () => {
    const size = gzipSize(homeHtml);
    expect(size, `/ is ${kb(size)} of HTML (gzip)`).toBeLessThanOrEqual(budgets.html);
  });

  test(`its hero picture weighs at most ${kb(budgets.heroPicture)}`, () => {
    // The hero is the picture fetched with high priority; every candidate file (img src, source srcset) counts.
    const tags = readTags(homeHtml);
    const hero = tags.find((tag) => tag.name === "img" && tag.attributes.fetchpriority === "high");
    expect(hero, "an <img fetchpriority=high> (the hero)").toBeDefined();
    const candidates = [hero!.attributes.src!];
    const heroBase = path.basename(hero!.attributes.src!).replace(/-[^-]+$/, "");
    for (const tag of tags.filter((tag) => tag.name === "source"))
      for (const candidate of (tag.attributes.srcset ?? "").split(","))
        if (path.basename(candidate.trim().split(/\s+/)[0]!).startsWith(heroBase))
          candidates.push(candidate.trim().split(/\s+/)[0]!);
    for (const file of candidates) {
      const size = read(file).length;
      expect(size, `hero picture ${file}: ${kb(size)}`).toBeLessThanOrEqual(budgets.heroPicture);
    }
  });
});

describe("every page of the sitemap and every noindex page", () => {
  test("make no render-blocking request to another host", () => {
    expect(pages.length, "pages served").toBeGreaterThan(1);
    const found: string[] = [];
    const sheets = new Set<string>();
    for (const { path: name, html } of pages) {
      for (const request of renderBlockingForeignRequests(html)) found.push(`${name}: ${request}`);
      for (const sheet of stylesheetsOf(html)) if (!isOtherHost(sheet)) sheets.add(sheet);
    }
    for (const sheet of sheets)
      for (const reference of cssReferences(read(sheet).toString("utf8")))
        if (isOtherHost(reference)) found.push(`${sheet}: ${reference}`);
    expect(found, `${found.length} render-blocking requests to another host`).toEqual([]);
  });
});

describe("fonts", () => {
  const faces = () => stylesheetsOf(homeHtml).flatMap((sheet) => fontFaces(read(sheet).toString("utf8")));

  test("every @font-face has font-display: swap", () => {
    const all = faces();
    expect(all.length, "@font-face rules in the CSS").toBeGreaterThan(0);
    const without = all.filter((face) => face["font-display"] !== "swap");
    expect(without.length, `${without.length} of ${all.length} @font-face rules lack font-display: swap`).toBe(0);
  });

  test("only the Latin subset is referenced, with its unicode-range", () => {
    for (const face of faces()) {
      const files = [...(face.src ?? "").matchAll(/url\(\s*["']?([^"')]+)/g)].map((match) => match[1]!);
      expect(files.length, `font files of ${face["font-family"]}: ${files.join(", ")}`).toBeGreaterThan(0);
      for (const file of files)
        expect(path.basename(file), `font file ${file} is the Latin subset`).toMatch(/-latin-(?!ext)[^/]*\.woff2$/);
      expect(face["unicode-range"], `unicode-range of ${files.join(", ")}`).toMatch(/U\+/i);
    }
  });
});
