/**
 * A quote as a PDF (A4, `renderQuotePdf(quote)` → the file's bytes), in the
 * invoices' layout: the owner at the top left, the organisation where the
 * window of a Swiss envelope shows it (right), the number and dates, the
 * planned session (course, date and time in words, place, group), the
 * invoices' table of lines and total (`drawLineTable`), the VAT mention and
 * how to accept it. No QR-bill: the invoice made from the quote carries one.
 * Made again from the quote row each time (the creditor as copied into it).
 * @throws pdfkit's error.
 */
import { drawFacts, drawLineTable } from "~/invoices/pdf.server";
import {
  drawBlocks,
  drawLetterhead,
  drawWindowAddress,
  mm,
  openPaper,
  shortDate,
  textWidth,
} from "~/paper/layout.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { quoteAddressLines, quoteCourseTitle, quoteState, type Quote } from "./quotes.server";

/**
 * The quote's PDF; `today` (ISO date, Swiss time) says whether it has expired (then printed on it).
 * @returns the bytes of the file. @throws see the module's comment.
 */
export async function renderQuotePdf(quote: Quote, today: string): Promise<Buffer> {
  const { creditor } = quote;
  const title = `Devis n° ${quote.number}`;
  const { doc: document, finish } = await openPaper({ title, author: creditor.name });
  const left = mm(20);
  const width = textWidth(document);

  drawLetterhead(document, creditor);
  drawWindowAddress(document, "right", creditor, quoteAddressLines(quote));

  document.font("Helvetica-Bold").fontSize(18).text(title, left, mm(92), { width });
  const state = quoteState(quote, today);
  if (state === "expired" || state === "refused") {
    document
      .fontSize(12)
      .fillColor("#991b1b")
      .text(state === "expired" ? "Expiré" : "Refusé", { width });
    document.fillColor("black");
  }
  document.moveDown(0.5).font("Helvetica").fontSize(10.5);
  drawFacts(document, [
    ["Date", shortDate(quote.issuedOn)],
    ["Valable jusqu’au", shortDate(quote.validUntil)],
    ["Séance", `« ${quoteCourseTitle(quote)} »`],
    ["Quand", formatDateTime(quote.startsAt)],
    ["Lieu", `${quote.placeName}, ${quote.placeAddress}`],
    ...(quote.groupSize ? [["Groupe", `${quote.groupSize} personnes`] as [string, string]] : []),
  ]);

  drawLineTable(document, quote.lines, quote.totalCentimes);
  document.font("Helvetica").fontSize(10).moveDown(1);
  drawBlocks(
    document,
    [
      { text: creditor.vatMention, gap: 0.5 },
      {
        text: `Ce devis est valable jusqu’au ${formatDate(quote.validUntil)}. Pour l’accepter, répondez simplement à mon message ou appelez-moi. Vous recevrez ensuite le lien où inscrire les noms des participants, puis la facture après la séance.`,
      },
      { text: `Merci de votre confiance. ${creditor.name}` },
    ],
    left,
    width,
    10,
  );
  return finish();
}
