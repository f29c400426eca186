/**
 * The code words' list and their choice: what the owner says on the telephone
 * must be two plain, kind French words, never one that offends or worries.
 */
import { describe, expect, it } from "vitest";
import { CODE_ADJECTIVES, CODE_NOUNS } from "./code-words";
import { newCodeWord } from "./code-word.server";

/** Words (and stems) that must never be said to a senior as a code word. */
const FORBIDDEN = [
  "con",
  "merde",
  "cul",
  "pute",
  "salope",
  "bite",
  "couille",
  "nul",
  "idiot",
  "bête",
  "stupide",
  "moche",
  "gros",
  "grosse",
  "vieux",
  "vieille",
  "mort",
  "cadavre",
  "arnaque",
  "voleur",
  "police",
  "banque",
  "argent",
  "virus",
  "pirate",
  "danger",
  "malade",
  "cancer",
  "noir",
  "nègre",
  "juif",
  "arabe",
  "sexe",
  "fesse",
  "gay",
  "folle",
  "fou",
  "dingue",
  "guerre",
  "arme",
  "bombe",
  "sang",
  "poison",
  "chienne",
  "cochon",
  "vache",
  "dinde",
  "âne",
  "singe",
  "porc",
  "rat",
  "mot de passe",
  "code",
];

describe("the code words' list", () => {
  const all = [...CODE_NOUNS, ...CODE_ADJECTIVES];

  it("holds enough pairs that two people rarely share one (over 2,000), from lists of 40 words at least", () => {
    expect(CODE_NOUNS.length).toBeGreaterThanOrEqual(40);
    expect(CODE_ADJECTIVES.length).toBeGreaterThanOrEqual(30);
    expect(CODE_NOUNS.length * CODE_ADJECTIVES.length).toBeGreaterThan(2000);
  });

  it("has no word twice, within a list or across both (no « orange orange »)", () => {
    expect(new Set(all).size).toBe(all.length);
  });

  it("has only single lower-case French words, 3 to 11 letters (easy to say and to write)", () => {
    for (const word of all) expect(word, word).toMatch(/^[a-zàâçéèêëîïôûùüÿœ]{3,11}$/u);
  });

  it("has no offensive or worrying word", () => {
    for (const word of all) {
      expect(FORBIDDEN, word).not.toContain(word);
      for (const bad of FORBIDDEN) {
        if (bad.length >= 4) expect(word.includes(bad), `${word} contains ${bad}`).toBe(false);
      }
    }
  });
});

describe("newCodeWord", () => {
  it("is a noun then an adjective of the list, picked by the random function given", () => {
    expect(newCodeWord(() => 0)).toBe(`${CODE_NOUNS[0]} ${CODE_ADJECTIVES[0]}`);
    const picks = [CODE_NOUNS.length - 1, CODE_ADJECTIVES.length - 1];
    expect(newCodeWord(() => picks.shift()!)).toBe(`${CODE_NOUNS.at(-1)} ${CODE_ADJECTIVES.at(-1)}`);
  });

  it("varies from one request to the next with the real generator", () => {
    const words = new Set(Array.from({ length: 50 }, () => newCodeWord()));
    expect(words.size).toBeGreaterThan(40);
    for (const word of words) {
      const [noun, adjective] = word.split(" ");
      expect(CODE_NOUNS).toContain(noun);
      expect(CODE_ADJECTIVES).toContain(adjective);
    }
  });
});
