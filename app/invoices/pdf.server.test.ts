/**
 * The invoice's PDF as a bank app and a reader see it (tests/support/paper.ts:
 * the page rendered by pdfjs-dist, its QR code read by jsQR, the payload
 * checked against the Swiss Payment Standards, IG 2.3, by checks written
 * from that text). The text layer must show the number, lines, total and
 * VAT mention. Set INVOICE_PNG=path to keep the rendered first page.
 */
import { describe, expect, it } from "vitest";
import { checkPayload, invoiceRow as invoice, readPdf, readQrBill } from "../../tests/support/paper";
import { renderInvoicePdf } from "./pdf.server";

describe("an invoice's PDF", () => {
  it("carries a QR-bill with a creditor reference (SCOR) to an ordinary IBAN, and shows number, lines and total", async () => {
    const bill = invoice({ iban: "CH5604835012345678009" });
    const bytes = await renderInvoicePdf(bill);
    const { text, pages } = await readPdf(bytes);
    const qr = await readQrBill(bytes, { keepPng: process.env.INVOICE_PNG });
    expect(pages).toBe(1);
    expect(qr).not.toBeNull();
    const payload = checkPayload(qr!);
    expect(payload).toMatchObject({
      iban: "CH5604835012345678009",
      amount: "392.50",
      referenceType: "SCOR",
      reference: bill.reference,
      debtorName: "Club des aînés de Vevey",
      message: "Facture n° 2026-007",
    });
    // The typographic apostrophe of the address is outside the standard's characters: a plain one in the code.
    expect(qr).toContain("Chemin de l'Exemple");
    expect(text).toContain("Facture n° 2026-007");
    expect(text).toContain("Conférence « Le smartphone sans stress »");
    expect(text).toContain("Assistance informatique à domicile");
    // Amounts as paper writes them (issue 31, item 4): always the centimes; the QR-bill's own field is the standard's.
    expect(text).toMatch(/1 CHF 250\.00 CHF 250\.00/);
    expect(text).toMatch(/1\.5 CHF 95\.00 CHF 142\.50/);
    expect(text).toMatch(/Total CHF 392\.50/);
    expect(text).not.toContain(".–");
    expect(text).toContain("Non assujetti à la TVA");
    expect(text).toContain("À l’attention de Marie-Thérèse Dupont");
    expect(text).toContain("Section paiement");
  });

  it("carries a QR reference (QRR) with a QR-IBAN", async () => {
    const bill = invoice({ iban: "CH4431999123000889012" });
    const payload = checkPayload((await readQrBill(await renderInvoicePdf(bill)))!);
    expect(payload).toMatchObject({ referenceType: "QRR", reference: bill.reference, amount: "392.50" });
  });

  it("says on a cancelled invoice not to pay it", async () => {
    const { text } = await readPdf(
      await renderInvoicePdf(invoice({ iban: "CH5604835012345678009", status: "cancelled" })),
    );
    expect(text).toContain("Annulée : ne pas payer");
  });
});
