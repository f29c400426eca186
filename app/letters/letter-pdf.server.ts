/**
 * Letters for the post as one PDF (`renderLetters(letters, options)`):
 * one A4 page per letter, for a Swiss window envelope (the window `side`,
 * app/paper/layout.server.ts `WINDOWS`): the owner's letterhead, the
 * sender's line and the recipient's address in the window, the town and
 * day, then the letter: greeting by name, the course, every date in words,
 * the place and how to get there, the price and how it is paid, the code
 * word, how to cancel and until when, the owner's telephone and name. A
 * registration paid by invoice with an open invoice gets that invoice's
 * QR-bill (`invoiceBillData`, the invoice's own) at the foot of a second
 * sheet that names the invoice, its amount and due date: above a QR-bill
 * the letter's text would shrink to 8–9 points, too small for the people
 * it is for (decision 056). The letter's text is set at 12 points, less
 * only when it cannot fit (at least 9).
 * Each letter names only its recipient. Loaded by the route that prints
 * (pdfkit stays out of the server's start).
 * @throws swissqrbill's ValidationError on an invoice that breaks the standard (see app/invoices/pdf.server.ts).
 */
import type { Invoice } from "~/invoices/invoices.server";
import { invoiceBillData } from "~/invoices/pdf.server";
import {
  attachQrBill,
  drawBlocks,
  drawLetterhead,
  drawWindowAddress,
  fitFontSize,
  MARGINS,
  mm,
  openPaper,
  paperChf,
  paperText,
  textWidth,
  type Block,
  type WindowSide,
} from "~/paper/layout.server";
import { formatDate } from "~/utils/format";
import type { Letter, LetterOwner } from "./letters.server";

/** Where the letter's text starts, mm from the top of the sheet. */
const TEXT_TOP = 96;

/** What every letter of one printing shares. */
export interface LetterOptions {
  side: WindowSide;
  owner: LetterOwner;
  /** The day written on the letters (ISO date, Swiss time). */
  today: string;
}

/** The letter's paragraphs, after the subject. */
function letterBlocks(letter: Letter, owner: LetterOwner): Block[] {
  const series = letter.dates.length > 1;
  return [
    { text: `Bonjour ${letter.name},` },
    {
      text: `Votre inscription au cours « ${letter.course} » est confirmée${letter.seats > 1 ? " (2 places)" : ""}. Voici ce qu’il faut savoir.`,
    },
    { text: series ? `Les ${letter.dates.length} dates du cours :` : "Date :", bold: true, gap: 0.1 },
    { text: letter.dates.map((date) => `– ${date}`).join("\n") },
    { text: "Lieu :", bold: true, gap: 0.1 },
    {
      text: [
        `${letter.place.name}, ${letter.place.address}`,
        letter.place.access ? `Accès : ${letter.place.access}` : "",
      ]
        .filter(Boolean)
        .join("\n"),
    },
    {
      text: `Prix : ${letter.price} par personne. ${letter.payment}${letter.invoice ? ` La facture n° ${letter.invoice.number} est sur la seconde feuille, avec son bulletin de versement QR.` : ""}`,
    },
    ...(letter.codeWord
      ? [
          {
            text: `Votre mot de code : « ${letter.codeWord} ». Quand je vous appelle, je vous le dis au début de l’appel : vous savez ainsi que c’est bien moi.`,
          },
        ]
      : []),
    {
      text: `Un empêchement ? Appelez-moi au ${owner.phone} avant le début du cours (${letter.cancelBy}) : votre place ira à une autre personne. Pour toute question, le même numéro.`,
    },
    { text: "Je me réjouis de vous voir.", gap: 0.4 },
    { text: `Avec mes meilleures salutations,\n${owner.signature}`, gap: 0 },
  ];
}

/** Draws one letter on the current page. */
async function drawLetter(doc: PDFKit.PDFDocument, letter: Letter, { side, owner, today }: LetterOptions) {
  const left = mm(MARGINS.left);
  const width = textWidth(doc);
  drawLetterhead(doc, owner);
  drawWindowAddress(doc, side, owner, letter.address);
  // Fold marks in the left margin, for an envelope C5/6 or DL (the sheet folded in three).
  for (const fold of [105, 210]) doc.moveTo(mm(4), mm(fold)).lineTo(mm(8), mm(fold)).lineWidth(0.5).stroke();

  doc
    .font("Helvetica")
    .fontSize(10)
    .text(paperText(`${owner.locality}, le ${formatDate(today)}`), left, mm(TEXT_TOP), { width, align: "right" });
  doc
    .moveDown(0.6)
    .font("Helvetica-Bold")
    .fontSize(12)
    .text(paperText(`Votre cours : ${letter.course}`), left, undefined, {
      width,
    });
  doc.moveDown(0.6);
  const blocks = letterBlocks(letter, owner);
  drawBlocks(
    doc,
    blocks,
    left,
    width,
    fitFontSize(doc, blocks, width, mm(297 - MARGINS.bottom) - doc.y, { largest: 12, smallest: 9 }),
  );
  if (letter.invoice) await drawBillSheet(doc, letter, letter.invoice, owner);
}

/**
 * The second sheet of a letter paid by invoice: whom and what it is for (the invoice's number, amount
 * and due date, at 12 points) above the invoice's QR-bill, at the foot as the standard places it.
 */
async function drawBillSheet(doc: PDFKit.PDFDocument, letter: Letter, invoice: Invoice, owner: LetterOwner) {
  doc.addPage();
  const left = mm(MARGINS.left);
  const width = textWidth(doc);
  doc
    .font("Helvetica-Bold")
    .fontSize(16)
    .text(paperText(`Facture n° ${invoice.number}`), left, mm(MARGINS.top + 10), { width });
  doc.moveDown(0.5);
  drawBlocks(
    doc,
    [
      { text: `Pour ${letter.name} : cours « ${letter.course} ».` },
      { text: `Montant : ${paperChf(invoice.totalCentimes)}, à payer d’ici au ${formatDate(invoice.dueOn)}.` },
      {
        text: `Payez avec le bulletin ci-dessous, au guichet de la poste ou avec l’application de votre banque (en photographiant le code QR). Une question ? ${owner.phone}.`,
      },
    ],
    left,
    width,
    12,
  );
  await attachQrBill(doc, invoiceBillData(invoice));
}

/**
 * The letters `letters` as one PDF, in their order: one page each, two for a letter paid by invoice.
 * @returns the file's bytes. @throws see the module's comment; RangeError when `letters` is empty.
 */
export async function renderLetters(letters: readonly Letter[], options: LetterOptions): Promise<Buffer> {
  if (letters.length === 0) throw new RangeError("No letter to print");
  const title = letters.length === 1 ? `Lettre à ${letters[0]!.name}` : `Lettres (${letters.length})`;
  const { doc, finish } = await openPaper({ title, author: options.owner.name });
  for (const [index, letter] of letters.entries()) {
    if (index > 0) doc.addPage();
    await drawLetter(doc, letter, options);
  }
  return finish();
}
