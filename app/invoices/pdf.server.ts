/**
 * An invoice as a PDF (A4, `renderInvoicePdf(invoice)` → the file's bytes):
 * the owner's details at the top left, the client's address where the
 * window of a Swiss envelope shows it (right), the number, dates, lines,
 * total and the VAT mention, then the Swiss QR-bill (payment part and
 * receipt, 105 mm at the foot of the page, on a page of its own when the
 * lines leave no room), drawn by `swissqrbill` on `pdfkit`.
 *
 * The QR-bill carries (Swiss Payment Standards, Implementation Guidelines
 * 2.3): the creditor's account and structured address (type "S"), the
 * amount in CHF, the reference (QRR with a QR-IBAN, SCOR otherwise:
 * `invoices.reference`), the client as debtor and "Facture n° …" as the
 * unstructured message. Its texts keep to the standard's character set
 * (`qrText`: typographic quotes and dashes become plain ones).
 *
 * The document is made again from the invoice row each time (the creditor
 * as copied into it), so a mail sent later carries the same invoice.
 * @throws swissqrbill's ValidationError when the invoice's data breaks a
 *   rule of the standard (a postal code too long...): the desk's form keeps
 *   to the limits, so it does not happen with invoices it made.
 *
 * The page, the letterhead, the window's address and the QR-bill are the
 * site's paper (app/paper/layout.server.ts), which imports pdfkit and
 * swissqrbill with the first document made, not when the server starts
 * (about 0.2 s of CPU that most starts never need).
 */
import {
  attachQrBill,
  drawLetterhead,
  drawWindowAddress,
  mm,
  openPaper,
  paperChf,
  qrText,
  shortDate,
  textWidth,
  type PaperDocument,
  type QrBillData,
} from "~/paper/layout.server";
import { formatDate } from "~/utils/format";
import {
  clientAddressLines,
  INVOICE_STATUS_LABELS,
  lineCentimes,
  PAYMENT_METHODS,
  type Invoice,
  type InvoiceLine,
  type PaymentMethod,
} from "./invoices.server";

/**
 * The QR-bill's data of an invoice (creditor and debtor as structured
 * addresses, the amount, the reference, « Facture n° … »): also what a
 * letter for the post prints at its foot for a course paid by invoice.
 */
export function invoiceBillData(invoice: Invoice): QrBillData {
  const { creditor } = invoice;
  return {
    currency: "CHF" as const,
    amount: invoice.totalCentimes / 100,
    reference: invoice.reference,
    creditor: {
      account: creditor.iban,
      name: qrText(creditor.name),
      address: qrText(creditor.street),
      ...(creditor.buildingNumber ? { buildingNumber: qrText(creditor.buildingNumber) } : {}),
      zip: qrText(creditor.postalCode),
      city: qrText(creditor.locality),
      country: creditor.country,
    },
    debtor: {
      name: qrText(invoice.clientName).slice(0, 70),
      address: qrText(invoice.street).slice(0, 70),
      ...(invoice.buildingNumber ? { buildingNumber: qrText(invoice.buildingNumber).slice(0, 16) } : {}),
      zip: qrText(invoice.postalCode).slice(0, 16),
      city: qrText(invoice.locality).slice(0, 35),
      country: invoice.country,
    },
    message: qrText(`Facture n° ${invoice.number}`),
  };
}

/** A quantity the Swiss way: "1", "1.5", "2.25". */
const quantityText = (quantity: number) => String(Number(quantity.toFixed(2)));

/** Facts under a paper's title, one a line: « Date : 25.11.2026 » (the label in a 40 mm column). */
export function drawFacts(document: PaperDocument, facts: readonly [string, string][]): void {
  const left = mm(20);
  const width = textWidth(document);
  for (const [label, value] of facts) {
    const top = document.y;
    document.font("Helvetica").text(`${label} :`, left, top, { width: mm(40) });
    document.text(value, left + mm(40), top, { width: width - mm(40) });
  }
}

/**
 * The table of lines of an invoice or a quote (app/quotes/), from `document.y` between the page's
 * margins: « Désignation », « Quantité », « Prix unitaire », « Montant », one row per line (a long label
 * wraps), then the total in bold. Leaves the cursor at the total's line.
 */
export function drawLineTable(document: PaperDocument, lines: readonly InvoiceLine[], total: number): void {
  const left = mm(20);
  const right = document.page.width - mm(15);
  const width = textWidth(document);
  const columns = {
    label: left,
    quantity: left + width * 0.55,
    unit: left + width * 0.68,
    amount: left + width * 0.84,
  };
  const cell = (text: string, x: number, top: number, cellWidth: number, align: "left" | "right" = "left") =>
    document.text(text, x, top, { width: cellWidth, align });
  let y = document.y + mm(6);
  document.font("Helvetica-Bold").fontSize(10.5);
  cell("Désignation", columns.label, y, columns.quantity - columns.label - 6);
  cell("Quantité", columns.quantity, y, columns.unit - columns.quantity - 6, "right");
  cell("Prix unitaire", columns.unit, y, columns.amount - columns.unit - 6, "right");
  cell("Montant", columns.amount, y, right - columns.amount, "right");
  y = document.y + 3;
  document.moveTo(left, y).lineTo(right, y).lineWidth(0.8).stroke();
  document.font("Helvetica");
  for (const line of lines) {
    const top = y + 4;
    cell(line.label, columns.label, top, columns.quantity - columns.label - 6);
    const bottom = document.y;
    cell(quantityText(line.quantity), columns.quantity, top, columns.unit - columns.quantity - 6, "right");
    cell(paperChf(line.unitCentimes), columns.unit, top, columns.amount - columns.unit - 6, "right");
    cell(paperChf(lineCentimes(line)), columns.amount, top, right - columns.amount, "right");
    y = Math.max(bottom, document.y);
  }
  y += 3;
  document.moveTo(left, y).lineTo(right, y).lineWidth(0.8).stroke();
  document.font("Helvetica-Bold").fontSize(12);
  cell("Total", columns.label, y + 5, columns.amount - columns.label - 6);
  cell(paperChf(total), columns.amount - mm(10), y + 5, right - columns.amount + mm(10), "right");
}

/**
 * The invoice's PDF.
 * @returns the bytes of the file. @throws see the module's comment.
 */
export async function renderInvoicePdf(invoice: Invoice): Promise<Buffer> {
  const { creditor } = invoice;
  const title = `Facture n° ${invoice.number}`;
  const { doc: document, finish } = await openPaper({ title, author: creditor.name });
  const left = mm(20);
  const width = textWidth(document);

  // The owner, top left; the client in the window of a Swiss envelope (right).
  drawLetterhead(document, creditor);
  drawWindowAddress(document, "right", creditor, clientAddressLines(invoice));

  // Number, dates, reference.
  document.font("Helvetica-Bold").fontSize(18).text(`Facture n° ${invoice.number}`, left, mm(92), { width });
  if (invoice.status !== "open") {
    const state =
      invoice.status === "paid"
        ? `Payée le ${formatDate(invoice.paidOn!)} (${PAYMENT_METHODS[invoice.paidBy as PaymentMethod] ?? invoice.paidBy})`
        : `${INVOICE_STATUS_LABELS[invoice.status]} : ne pas payer`;
    document
      .fontSize(12)
      .fillColor(invoice.status === "paid" ? "#14532d" : "#991b1b")
      .text(state, { width });
    document.fillColor("black");
  }
  document.moveDown(0.5).font("Helvetica").fontSize(10.5);
  const facts: [string, string][] = [
    ["Date", shortDate(invoice.issuedOn)],
    ["À payer d’ici au", shortDate(invoice.dueOn)],
    ["Référence", invoice.reference],
  ];
  drawFacts(document, facts);

  drawLineTable(document, invoice.lines, invoice.totalCentimes);
  document.font("Helvetica").fontSize(10).moveDown(1);
  document.text(creditor.vatMention, left, undefined, { width });
  document.moveDown(0.5);
  document.text(
    `Merci de payer ce montant d’ici au ${formatDate(invoice.dueOn)} avec le bulletin de versement QR ci-dessous (application bancaire ou guichet de la poste). Merci de votre confiance.`,
    { width },
  );

  await attachQrBill(document, invoiceBillData(invoice));
  return finish();
}
