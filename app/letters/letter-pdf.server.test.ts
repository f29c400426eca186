/**
 * The letter for the post as the envelope and a reader see it: every piece
 * of the recipient's address block (and the sender's line) lies inside the
 * window of a Swiss C5 envelope (`WINDOWS`, left and right), the letter
 * says what the person needs, names no one else, fits one page, and, for a
 * course paid by invoice, carries the invoice's QR-bill on that page, valid
 * by the invoices' checks (tests/support/paper.ts). Set LETTER_PNG=dir to
 * keep the rendered pages.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WINDOWS, type WindowSide } from "~/paper/layout.server";
import { checkPayload, invoiceRow, readPdf, readQrBill, type TextPiece } from "../../tests/support/paper";
import { renderLetters } from "./letter-pdf.server";
import type { Letter, LetterOwner } from "./letters.server";

const owner: LetterOwner = {
  name: "Formation & Assistance Informatique",
  street: "Chemin de l’Exemple 1",
  postalCode: "1000",
  locality: "Lausanne",
  phone: "079 000 00 00",
  email: "contact@example.com",
  uid: null,
  signature: "Prénom Nom",
};

const letter = (overrides: Partial<Letter> = {}): Letter => ({
  registrationId: 7,
  name: "Odette Rochat",
  address: ["Odette Rochat", "Avenue des Alpes 12", "1800 Vevey"],
  course: "Le smartphone sans stress",
  dates: [
    "mardi 2 mars 2027, 14\u00a0h\u00a000 – 16\u00a0h\u00a000",
    "mardi 9 mars 2027, 14\u00a0h\u00a000 – 16\u00a0h\u00a000",
    "mardi 16 mars 2027, 14\u00a0h\u00a000 – 16\u00a0h\u00a000",
    "mardi 23 mars 2027, 14\u00a0h\u00a000 – 16\u00a0h\u00a000",
  ],
  place: {
    name: "Salle communale",
    address: "Rue du Lac 3, 1800 Vevey",
    access: "Au rez-de-chaussée, sans marche. Bus 201, arrêt « Vevey, Gare ». Parking derrière la salle.",
  },
  seats: 1,
  codeWord: "pomme verte",
  cancelBy: "mardi 2 mars 2027, 14\u00a0h\u00a000",
  price: "CHF 1'250.00",
  payment: "Le prix se paie sur place, le jour du cours, en espèces ou par TWINT. Aucun paiement à l’avance.",
  invoice: null,
  ...overrides,
});

const options = (side: WindowSide) => ({ side, owner, today: "2027-02-15" });

/** The pieces above the QR-bill whose text is one of `lines` (the address block), each found once. */
function addressPieces(pieces: TextPiece[], lines: readonly string[]): TextPiece[] {
  const found = pieces.filter((piece) => piece.top < 297 - 105 && lines.includes(piece.str.trim()));
  expect(found.map((piece) => piece.str.trim()).sort()).toEqual([...lines].sort());
  return found;
}

/** Every piece lies inside the window `side` (mm on the sheet). */
function expectInsideWindow(pieces: readonly TextPiece[], side: WindowSide) {
  const window = WINDOWS[side];
  for (const piece of pieces) {
    expect(piece.x, piece.str).toBeGreaterThanOrEqual(window.x);
    expect(piece.right, piece.str).toBeLessThanOrEqual(window.x + window.width);
    expect(piece.top, piece.str).toBeGreaterThanOrEqual(window.y);
    expect(piece.bottom, piece.str).toBeLessThanOrEqual(window.y + window.height);
  }
}

const keep = (name: string) => (process.env.LETTER_PNG ? path.join(process.env.LETTER_PNG, name) : undefined);

describe("a letter for the post", () => {
  it.each(["left", "right"] as const)(
    "puts the address and the sender's line in the C5 window on the %s, and says what the person needs",
    async (side) => {
      const bytes = await renderLetters([letter()], options(side));
      const { pieces, pages, text } = await readPdf(bytes);
      expect(pages).toBe(1);
      expect(await readQrBill(bytes, { keepPng: keep(`letter-${side}.png`) })).toBeNull();
      const address = addressPieces(pieces[0]!, letter().address);
      expectInsideWindow(address, side);
      const senderLine = pieces[0]!.filter((piece) => piece.str.includes("1000 Lausanne") && piece.str.includes("·"));
      expect(senderLine).toHaveLength(1);
      expectInsideWindow(senderLine, side);
      // The other window stays empty: nothing else of the letter shows through it.
      const other = WINDOWS[side === "left" ? "right" : "left"];
      const inOther = pieces[0]!.filter(
        (piece) =>
          piece.top >= other.y &&
          piece.bottom <= other.y + other.height &&
          piece.x >= other.x &&
          piece.right <= other.x + other.width,
      );
      expect(inOther.map((piece) => piece.str)).toEqual([]);
      for (const said of [
        "Bonjour Odette Rochat,",
        "Le smartphone sans stress",
        "mardi 2 mars 2027, 14 h 00 – 16 h 00",
        "mardi 23 mars 2027, 14 h 00 – 16 h 00",
        "Salle communale, Rue du Lac 3, 1800 Vevey",
        "Bus 201",
        "« pomme verte »",
        "079 000 00 00",
        "avant le début du cours (mardi 2 mars 2027, 14 h 00)",
        "Prix : CHF 1'250.00 par personne.",
        "Lausanne, le 15 février 2027",
        "Prénom Nom",
      ])
        expect(text.replace(/\u00a0/g, " "), said).toContain(said);
    },
  );

  it("carries, for a course paid by invoice, that invoice's valid QR-bill on a second sheet, the letter's text at 12 points", async () => {
    const invoice = invoiceRow({
      iban: "CH4431999123000889012",
      clientKind: "person",
      clientName: "Odette Rochat",
      clientAttention: null,
      street: "Avenue des Alpes",
      buildingNumber: "12",
      lines: [{ label: "Le smartphone sans stress (4 séances)", quantity: 1, unitCentimes: 125000 }],
      totalCentimes: 125000,
    });
    const bytes = await renderLetters([letter({ invoice, payment: "Le prix se paie sur facture." })], options("right"));
    const { pages, pieces, pageTexts } = await readPdf(bytes);
    const qr = await readQrBill(bytes, { keepPng: keep("letter-invoice.png") });
    if (process.env.LETTER_PNG) await readQrBill(bytes, { page: 1, keepPng: keep("letter-invoice-first.png") });
    expect(pages).toBe(2);
    expect(checkPayload(qr!)).toMatchObject({
      referenceType: "QRR",
      reference: invoice.reference,
      amount: "1250.00",
      debtorName: "Odette Rochat",
      message: "Facture n° 2026-007",
    });
    expectInsideWindow(addressPieces(pieces[0]!, letter().address), "right");
    // A senior reads the letter: every date and the code word at 12 points (a piece's box is 1.25 × its size).
    const sizeOf = (piece: TextPiece) => (piece.bottom - piece.top) / 1.25 / (25.4 / 72);
    const codeWord = pieces[0]!.find((piece) => piece.str.includes("Votre mot de code"));
    expect(sizeOf(codeWord!)).toBeCloseTo(12, 1);
    expect(pageTexts[0]).toContain("La facture n° 2026-007 est sur la seconde feuille");
    expect(pageTexts[0]).not.toContain("Section paiement");
    // The second sheet names the invoice, its amount and whom it is for, above the payment part.
    expect(pageTexts[1]).toContain("Facture n° 2026-007");
    expect(pageTexts[1]).toContain("Pour Odette Rochat");
    expect(pageTexts[1]).toContain("Montant : CHF 1'250.00, à payer");
    expect(pageTexts[1]).toContain("Section paiement");
    expect(pageTexts[1]).not.toMatch(/pomme verte/);
  });

  it("prints several letters as one PDF, each page naming only its recipient", async () => {
    const other = letter({
      registrationId: 8,
      name: "Jean Favre",
      address: ["Jean Favre", "Rue Centrale 4", "1003 Lausanne"],
      codeWord: "lune bleue",
    });
    const { pages, pageTexts } = await readPdf(await renderLetters([letter(), other], options("left")));
    expect(pages).toBe(2);
    expect(pageTexts[0]).toContain("Odette Rochat");
    expect(pageTexts[0]).not.toContain("Jean Favre");
    expect(pageTexts[0]).not.toContain("lune bleue");
    expect(pageTexts[1]).toContain("Jean Favre");
    expect(pageTexts[1]).not.toContain("Odette");
    expect(pageTexts[1]).not.toContain("pomme verte");
  });
});
