import { describe, expect, it } from "vitest";
import { typeset, typesetAll } from "./typography";

/** Shows the invisible characters, so that a failure reads plainly. */
const visible = (text: string) =>
  text
    .replace(/\u202f/g, "⍽")
    .replace(/\u00a0/g, "·")
    .replace(/\u2060/g, "⁀");

describe("typeset", () => {
  it("puts a narrow no-break space before ; ! ?, replacing a normal space, never doubling one", () => {
    expect(visible(typeset("Une question? Je réponds!"))).toBe("Une question⍽? Je réponds⍽!");
    expect(visible(typeset("Une question ? Je réponds ! Ensuite ; enfin"))).toBe(
      "Une question⍽? Je réponds⍽! Ensuite⍽; enfin",
    );
    expect(visible(typeset("Vraiment\u00a0?!"))).toBe("Vraiment⍽?!");
  });

  it("puts a no-break space before a colon, but not in times or ratios", () => {
    expect(visible(typeset("Important: lisez ceci. Horaires : 9h00–18h00"))).toBe(
      "Important·: lisez ceci. Horaires·: 9h00–18h00",
    );
    expect(visible(typeset("Accompagnement 1:1, rendez-vous à 09:30"))).toBe("Accompagnement 1:1, rendez-vous à 09:30");
    expect(visible(typeset("Il y a 3 étapes: voici"))).toBe("Il y a 3 étapes·: voici");
  });

  it("puts a no-break space inside « », whatever space was there", () => {
    expect(visible(typeset("cliquez sur «Révéler» puis « Masquer »"))).toBe("cliquez sur «·Révéler·» puis «·Masquer·»");
    expect(visible(typeset("«\u202fSBB\u202f»"))).toBe("«·SBB·»");
  });

  it("leaves web and e-mail addresses as written", () => {
    expect(visible(typeset("Voir https://www.youtube.com/watch?v=abc;x=1 ou contact@example.com!"))).toBe(
      "Voir https://www.youtube.com/watch?v=abc;x=1 ou contact@example.com⍽!",
    );
    expect(typeset("mailto:contact@example.ch?subject=Cours")).toBe("mailto:contact@example.ch?subject=Cours");
  });

  it("writes 1er for the first of the month, and only for it", () => {
    expect(typeset("1 novembre 2024")).toBe("1er novembre 2024");
    expect(typeset("le 1 mars, le 11 mars, le 21 mai, 1 personne")).toBe(
      "le 1er mars, le 11 mars, le 21 mai, 1 personne",
    );
  });

  it("keeps e-mail and a separator bullet from starting a line", () => {
    expect(visible(typeset("Un e-mail, des E-mails"))).toBe("Un e-⁀mail, des E-⁀mails");
    expect(visible(typeset("Vaud • Genève • Fribourg"))).toBe("Vaud·• Genève·• Fribourg");
    expect(typeset("un e-banking, a-propos")).toBe("un e-banking, a-propos");
  });

  it("gives a typeset text back unchanged", () => {
    const text = "Une question ? « Révéler » : le 1 mars, un e-mail; Vaud • Genève!";
    expect(typeset(typeset(text))).toBe(typeset(text));
  });

  it("treats a text that starts with the mark as following a word (Markdown after **bold**)", () => {
    expect(visible(typeset(" : achetez avant"))).toBe("·: achetez avant");
    expect(visible(typeset("? Oui."))).toBe("⍽? Oui.");
  });
});

describe("typesetAll", () => {
  it("typesets every string of objects and arrays, and keeps the rest", () => {
    const content = { title: "Pourquoi?", items: ["a: b", { text: "«x»" }], price: 55, featured: true, none: null };
    expect(typesetAll(content)).toEqual({
      title: "Pourquoi\u202f?",
      items: ["a\u00a0: b", { text: "«\u00a0x\u00a0»" }],
      price: 55,
      featured: true,
      none: null,
    });
    expect(content.title).toBe("Pourquoi?");
  });
});
