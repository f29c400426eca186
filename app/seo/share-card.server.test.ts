/**
 * The share cards drawn without a browser (decision 029): a 1200×630 PNG
 * whose title is drawn in the site's typeface (compared, pixel by pixel,
 * with the same words drawn from the font files: the site's matches, the
 * fonts a server would fall back to do not), titles broken into at most
 * three lines with French punctuation kept with its word, and an ellipsis
 * when even the smallest size is not enough.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { fontInk, inkDifference, titleInk } from "../../tests/support/share-image";
import {
  articleShareCard,
  FONT_DIRECTORY,
  FONT_FILES,
  siteShareCard,
  titleLines,
  TITLE_MAX_LINES,
  TITLE_SIZES,
  TITLE_WIDTH,
} from "./share-card.server";

const SITE_BOLD = path.join(FONT_DIRECTORY, FONT_FILES[700]);
/** What librsvg or a browser falls back to on a Debian server without the site's font. */
const FALLBACKS = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
  "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
];

const card = (title: string) =>
  articleShareCard({ title, category: "Sécurité", date: "2026-11-25", icon: "ShieldCheck", color: "secondary" });

describe("the share card of an article", () => {
  it("is a 1200×630 PNG whose title is drawn in Atkinson Hyperlegible Next, not in a fallback font", async () => {
    const title = "Le Wi-Fi à l’hôtel";
    const png = await card(title);
    expect(await sharp(png).metadata()).toMatchObject({ format: "png", width: 1200, height: 630 });
    const { size, lines } = await titleLines(title);
    expect(lines).toEqual([title]);
    const drawn = await titleInk(png);
    expect(drawn.width).toBeGreaterThan(400);
    // Measured on this machine: 0.20 against the site's font, 0.54 and 0.59 against the fallbacks.
    expect(await inkDifference(drawn, await fontInk(SITE_BOLD, title, size))).toBeLessThan(0.3);
    for (const fallback of FALLBACKS) {
      expect(fs.existsSync(fallback), `${fallback} (Debian's fonts-dejavu-core, fonts-liberation)`).toBe(true);
      expect(await inkDifference(drawn, await fontInk(fallback, title, size))).toBeGreaterThan(0.4);
    }
  });

  it("is the same, byte for byte, for the same article", async () => {
    expect((await card("Agrandir le texte")).equals(await card("Agrandir le texte"))).toBe(true);
  });

  it("draws the site's card as well", async () => {
    expect(await sharp(await siteShareCard()).metadata()).toMatchObject({ format: "png", width: 1200, height: 630 });
  });
});

describe("titleLines", () => {
  it("keeps a short title at the largest size, on balanced lines", async () => {
    const { size, lines } = await titleLines("L’application CFF Mobile : le guide complet");
    expect(size).toBe(TITLE_SIZES[0]);
    expect(lines.join(" ")).toBe("L’application CFF Mobile\u00a0: le guide complet");
    expect(lines.length).toBeLessThanOrEqual(TITLE_MAX_LINES);
  });

  it("never starts a line with « : ? ! » nor ends one with «, and never breaks e-mail", async () => {
    // Titles whose lines would start with "?" if the space before it were an ordinary one.
    const titles = [
      "Vous partez en voyage ? Comment garder votre téléphone",
      "Vous avez un doute ? Comment vérifier un message",
      "Trop de notifications ? Comment les faire taire",
      "Vos photos sur la tablette : où sont-elles ? Comment les retrouver ! « Mode d’emploi »",
      "Rédiger vos e-mails avec ChatGPT, pas à pas, sur votre ordinateur, votre tablette et votre téléphone",
    ];
    for (const title of titles) {
      const { lines } = await titleLines(title);
      for (const line of lines) {
        expect(line).not.toMatch(/^[:;?!»]/);
        expect(line).not.toMatch(/«$/);
        expect(line).not.toMatch(/(^|\s)e-$/);
      }
    }
  });

  it("leaves out what the typeface cannot draw (an emoji, Greek) rather than draw empty boxes", async () => {
    const { lines } = await titleLines("Votre téléphone 📱 et la ville de Győr – Ελλάδα");
    expect(lines.join(" ")).toBe("Votre téléphone et la ville de Győr –");
  });

  it("shrinks a long title, then cuts it after three lines with an ellipsis, every line within the box", async () => {
    const title =
      "Comment reconnaître un e-mail frauduleux quand on reçoit des dizaines de messages chaque jour sur son téléphone et sa tablette : nos conseils pratiques !";
    const { size, lines } = await titleLines(title);
    expect(size).toBe(TITLE_SIZES[TITLE_SIZES.length - 1]);
    expect(lines).toHaveLength(TITLE_MAX_LINES);
    expect(lines[2]).toMatch(/[\p{L}\p{N}]…$/u);
    expect(title.replace(/\s+/g, " ")).toContain(
      lines
        .slice(0, 2)
        .join(" ")
        .replace(/\u00a0/g, " "),
    );
    for (const line of lines) {
      const ink = await fontInk(SITE_BOLD, line, size);
      expect(ink.width).toBeLessThanOrEqual(TITLE_WIDTH);
    }
  });
});
