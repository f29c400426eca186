/**
 * A quote's PDF as a reader sees it (tests/support/paper.ts: pdfjs renders
 * the page and gives its text): the invoices' layout (letterhead, the
 * organisation in the envelope's window, the same table of lines), the
 * planned session in words, Swiss amounts, no QR-bill; « Expiré » once its
 * validity has passed. Set QUOTE_PNG=path to keep the rendered page.
 */
import { describe, expect, it } from "vitest";
import { invoiceRow, readPdf, readQrBill } from "../../tests/support/paper";
import { zurichToUtc } from "~/courses/sessions.server";
import { renderQuotePdf } from "./pdf.server";
import type { Quote } from "./quotes.server";

/** A quote as the table holds it: CHF 1'250.00 for a talk on mardi 2 mars 2027, 14 h 00. */
function quoteRow(overrides: Partial<Quote> = {}): Quote {
  const { creditor } = invoiceRow({ iban: "CH5604835012345678009" });
  return {
    id: 1,
    year: 2026,
    sequence: 1,
    number: "D-2026-001",
    status: "sent",
    clientName: "Club des aînés de Vevey",
    clientAttention: "Marie-Thérèse Dupont",
    street: "Rue du Lac",
    buildingNumber: "12",
    postalCode: "1800",
    locality: "Vevey",
    country: "CH",
    email: "club@example.ch",
    phone: "021 123 45 67",
    phoneE164: "+41211234567",
    groupSize: 12,
    lines: [
      { label: "Conférence « Le smartphone sans stress »", quantity: 1, unitCentimes: 85000 },
      { label: "Préparation", quantity: 2, unitCentimes: 9500 },
      { label: "Déplacement (km)", quantity: 60, unitCentimes: 70 },
      { label: "Matériel imprimé", quantity: 12, unitCentimes: 1400 },
    ],
    totalCentimes: 125000,
    issuedOn: "2026-11-27",
    validUntil: "2026-12-27",
    courseId: "applications-mobiles",
    startsAt: zurichToUtc("2027-03-02", "14:00").toISOString(),
    durationMinutes: 90,
    placeName: "Salle communale",
    placeAddress: "Rue du Lac 3, 1800 Vevey",
    creditor,
    contactId: null,
    sessionId: null,
    invoiceId: null,
    participants: [],
    sentAt: null,
    decidedAt: null,
    createdAt: "2026-11-27T10:00:00Z",
    ...overrides,
  };
}

describe("a quote's PDF", () => {
  it("shows the organisation in the window, the session in words, the lines and the Swiss total, without a QR-bill", async () => {
    const bytes = await renderQuotePdf(quoteRow(), "2026-11-27");
    const { text, pages, pieces } = await readPdf(bytes);
    expect(pages).toBe(1);
    expect(await readQrBill(bytes, { keepPng: process.env.QUOTE_PNG })).toBeNull();
    expect(text).toContain("Devis n° D-2026-001");
    expect(text).toContain("Valable jusqu’au : 27.12.2026");
    expect(text).toMatch(/mardi 2 mars 2027, 14\s?h\s?00/);
    expect(text).toContain("Salle communale, Rue du Lac 3, 1800 Vevey");
    expect(text).toContain("12 personnes");
    // The invoices' table: designation, quantity, unit price, amount; then the total, as paper writes amounts
    // (issue 31, item 4): an apostrophe between thousands, never a comma, always the centimes.
    expect(text).toMatch(/Désignation Quantité Prix unitaire Montant/);
    expect(text).toMatch(/2 CHF 95\.00 CHF 190\.00/);
    expect(text).toMatch(/60 CHF 0\.70 CHF 42\.00/);
    expect(text).toMatch(/Total CHF 1'250\.00/);
    expect(text).not.toMatch(/1,250|\.–/);
    expect(text).not.toContain("Section paiement");
    // The organisation's address where a right window of a Swiss envelope shows it (100–200 mm, 45–90 mm).
    const club = pieces[0]!.find((piece) => piece.str.startsWith("Club des aînés de Vevey"))!;
    expect(club.x).toBeGreaterThanOrEqual(100);
    expect(club.top).toBeGreaterThanOrEqual(45);
    expect(club.bottom).toBeLessThanOrEqual(90);
  });

  it("says « Expiré » on a sent quote whose validity has passed", async () => {
    const { text } = await readPdf(await renderQuotePdf(quoteRow(), "2026-12-28"));
    expect(text).toMatch(/Devis n° D-2026-001 Expiré/);
  });
});
