/**
 * The site's paper (DESIGN.md section 10, « Paper »; decision 050): one A4
 * layout over pdfkit for every PDF the desk prints (invoices, letters for
 * the post, attendance certificates, later quotes). A mechanism: it imports
 * no feature; a feature draws its own content between these pieces.
 *
 * - `openPaper({ title, author })`: a new A4 document (margins `MARGINS`,
 *   mm) and `finish()`, which ends it and gives its bytes. pdfkit is
 *   imported by the first document made, not when the server starts.
 * - `drawLetterhead(doc, sender)`: the sender's block, top left.
 * - `drawWindowAddress(doc, side, sender, lines)`: the sender's line and
 *   the recipient's address where the window of a Swiss C5, C6/5 or DL
 *   envelope shows them (`WINDOWS`, on the sheet, in mm; left or right).
 * - `attachQrBill(doc, data)`: a Swiss QR-bill (payment part and receipt)
 *   at the foot of the page by swissqrbill (a page of its own when the
 *   content leaves no 105 mm); `qrText` keeps a text within its characters.
 * - `mm`, `shortDate`, `paperText`: millimetres to points; "25.11.2026";
 *   a text within the PDF standard fonts' characters (WinAnsi).
 * - `pdfAnswer(bytes, fileName)`: the desk's inline, uncached PDF answer.
 * - `fitFontSize(doc, blocks, width, height)`: the largest size at which
 *   paragraphs fit a height (a letter keeps to one page above its QR-bill).
 * - `paperChf(centimes)`: every amount on paper, « CHF 1'250.00 » (issue 31,
 *   item 4; the web pages keep `formatChf`'s « CHF 1’250.– »). The QR-bill's
 *   own amount field is swissqrbill's, as the standard wants (« 1 250.00 »).
 * Dates in words are app/utils/format.ts's (`formatDateTime`: « mardi 2 mars
 * 2027, 14 h 00 »; `paperText` keeps « 14 h 00 » on one line).
 */
import type { Data as QrBillData } from "swissqrbill/types";
import { mm, pdfBytes } from "~/utils/pdf-bytes.server";

export { mm };

/** A PDF document of pdfkit. */
export type PaperDocument = PDFKit.PDFDocument;

/** The page's margins in mm (A4, 210 × 297 mm). */
export const MARGINS = { top: 15, bottom: 10, left: 20, right: 15 } as const;

/** The side of the envelope's window. */
export type WindowSide = "left" | "right";

/** A rectangle on the sheet, in mm from its top left corner. */
export interface SheetRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Where the window of a Swiss window envelope falls on an A4 sheet folded
 * into it (C5 folded once, C6/5 and DL folded in three: the window keeps
 * the same place on the sheet), left or right: 100 × 45 mm, its top 45 mm
 * below the sheet's top edge, 20 mm from its left or 10 mm from its right
 * edge (SN 010130, as decision 050 explains, with what could not be checked
 * against Swiss Post's own document). The address is drawn 5 mm inside,
 * which absorbs the sheet's play in the envelope.
 */
export const WINDOWS: Record<WindowSide, SheetRect> = {
  left: { x: 20, y: 45, width: 100, height: 45 },
  right: { x: 100, y: 45, width: 100, height: 45 },
};

/** The inside margin between a window's edge and what is printed in it, mm. */
const WINDOW_INSET = 5;

/** Who a paper comes from: the owner's business, as Réglages give it. */
export interface Sender {
  name: string;
  street: string;
  buildingNumber?: string | null;
  postalCode: string;
  locality: string;
  phone?: string | null;
  email?: string | null;
  /** The enterprise number (CHE-…), when there is one. */
  uid?: string | null;
}

/** The sender's street and number: "Chemin de l’Exemple 1". */
const streetLine = (sender: Sender) => [sender.street, sender.buildingNumber].filter(Boolean).join(" ");

/** The sender in one line, as it stands above the window: "Nom · Rue 1 · 1000 Lausanne". */
export const senderLine = (sender: Sender) =>
  [sender.name, streetLine(sender), `${sender.postalCode} ${sender.locality}`].join(" · ");

/**
 * An amount of `centimes` as every paper prints it (issue 31, item 4):
 * « CHF 1'250.00 », « CHF 55.00 », « CHF 0.70 »: a straight apostrophe
 * between thousands, never a comma, and always the centimes.
 * @throws RangeError for a negative or non-integer number of centimes.
 */
export function paperChf(centimes: number): string {
  if (!Number.isSafeInteger(centimes) || centimes < 0) throw new RangeError(`Invalid amount: ${centimes}`);
  const francs = String(Math.floor(centimes / 100)).replace(/\B(?=(\d{3})+$)/g, "'");
  return `CHF ${francs}.${String(centimes % 100).padStart(2, "0")}`;
}

/** An ISO date as "25.11.2026", for short fields. */
export const shortDate = (isoDate: string) => isoDate.split("-").reverse().join(".");

/**
 * `text` as the PDF's standard fonts (Helvetica, WinAnsi) can draw it: the
 * site's invisible word joiners removed, narrow no-break spaces made
 * no-break spaces (« 14 h 00 » stays on one line), characters outside
 * WinAnsi (a Romanian ș, an emoji) replaced by their letter without its
 * accent, or a question mark.
 */
export function paperText(text: string): string {
  return text
    .replace(/\u2060/g, "")
    .replace(/[\u202f\u2009]/g, "\u00a0")
    .replace(WINANSI_OUTSIDE, (char) => {
      const base = char.normalize("NFD")[0] ?? "";
      return base.charCodeAt(0) < 0x100 && /\p{L}/u.test(base) ? base : "?";
    });
}

/** A character the standard fonts' WinAnsi encoding lacks (Latin-1, Œ œ Š š Ÿ Ž ž, typographic quotes, dashes, …, €). */
const WINANSI_OUTSIDE =
  /[^\n\u0020-\u007e\u00a0-\u00ff\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u2013\u2014\u2018-\u201a\u201c-\u201e\u2022\u2026\u20ac]/gu;

/** A paragraph of a paper: its text, bold or not, and the space after it in lines. */
export interface Block {
  text: string;
  bold?: boolean;
  gap?: number;
}

/**
 * The largest font size from `largest` down to `smallest` (by half points)
 * at which `blocks` fit `height` points at `width` points wide (each
 * block's gap after it in lines of that size); `smallest` when none does.
 */
export function fitFontSize(
  doc: PaperDocument,
  blocks: readonly Block[],
  width: number,
  height: number,
  { largest = 11, smallest = 8 } = {},
): number {
  for (let size = largest; size > smallest; size -= 0.5) {
    doc.fontSize(size);
    const needed = blocks.reduce(
      (sum, block) =>
        sum +
        doc.font(block.bold ? "Helvetica-Bold" : "Helvetica").heightOfString(paperText(block.text), { width }) +
        (block.gap ?? 0.6) * doc.currentLineHeight(true),
      0,
    );
    if (needed <= height) return size;
  }
  return smallest;
}

/** Writes `blocks` at the cursor, `size` points, at `x` and `width` points. */
export function drawBlocks(doc: PaperDocument, blocks: readonly Block[], x: number, width: number, size: number) {
  doc.fontSize(size);
  for (const block of blocks) {
    doc.font(block.bold ? "Helvetica-Bold" : "Helvetica").text(paperText(block.text), x, undefined, { width });
    doc.moveDown(block.gap ?? 0.6);
  }
  doc.font("Helvetica");
}

/** An open document and what ends it. */
export interface Paper {
  doc: PaperDocument;
  /** Ends the document. @returns its bytes. @throws pdfkit's error. */
  finish(): Promise<Buffer>;
}

/**
 * A new A4 document in French (Swiss), with `title` and `author` in its
 * properties (a reader's window title). pdfkit's text starts at the
 * top-left margin in Helvetica.
 */
export async function openPaper({ title, author }: { title: string; author: string }): Promise<Paper> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: mm(MARGINS.top), bottom: mm(MARGINS.bottom), left: mm(MARGINS.left), right: mm(MARGINS.right) },
    lang: "fr-CH",
    displayTitle: true,
    info: { Title: title, Author: author, Subject: title },
  });
  const bytes = pdfBytes(doc);
  return {
    doc,
    finish() {
      doc.end();
      return bytes;
    },
  };
}

/** The width between the page's margins, in points. */
export const textWidth = (doc: PaperDocument) => doc.page.width - mm(MARGINS.left) - mm(MARGINS.right);

/**
 * The sender's block at the top left: name in bold, street, town,
 * telephone, e-mail and the enterprise number when set. Leaves the cursor
 * below it.
 */
export function drawLetterhead(doc: PaperDocument, sender: Sender): void {
  doc
    .font("Helvetica-Bold")
    .fontSize(12)
    .text(paperText(sender.name), mm(MARGINS.left), mm(MARGINS.top), { width: mm(75) });
  doc.font("Helvetica").fontSize(10);
  for (const line of [
    streetLine(sender),
    `${sender.postalCode} ${sender.locality}`,
    sender.phone,
    sender.email,
    sender.uid ? `IDE ${sender.uid}` : null,
  ])
    if (line) doc.text(paperText(line), { width: mm(75) });
}

/**
 * The sender's line (small, underlined: the post returns an undeliverable
 * letter there) and the recipient's address lines in the window `side`.
 * Long lines are cut to the window's width rather than wrapped out of it.
 */
export function drawWindowAddress(doc: PaperDocument, side: WindowSide, sender: Sender, lines: readonly string[]) {
  const window = WINDOWS[side];
  const x = mm(window.x + WINDOW_INSET);
  const width = mm(window.width - 2 * WINDOW_INSET);
  // One line each: `height` of one line with `ellipsis` cuts what is too long (pdfkit wraps otherwise).
  const oneLine = (text: string, y?: number, underline = false) =>
    doc.text(paperText(text), x, y, { width, height: doc.currentLineHeight(true), ellipsis: true, underline });
  doc.font("Helvetica").fontSize(7);
  oneLine(senderLine(sender), mm(window.y + WINDOW_INSET), true);
  doc.fontSize(11);
  oneLine(lines[0] ?? "", mm(window.y + WINDOW_INSET + 6));
  for (const line of lines.slice(1)) oneLine(line);
}

/** The QR-bill's data, as swissqrbill takes it. */
export type { QrBillData };

/**
 * `text` within the QR-bill's character set (Latin-1 and Latin Extended-A,
 * plus Ș ș Ț ț €): typographic apostrophes, quotes and dashes become ASCII,
 * no-break spaces plain spaces, anything else outside the set a dot.
 */
export function qrText(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/[\u00a0\u202f\u2009]/g, " ")
    .replace(/[^\u0020-\u007e\u00a0-\u017f\u0218-\u021b\u20ac]/g, ".");
}

/**
 * The Swiss QR-bill of `data` at the foot of the current page (105 mm
 * high; on a new page when what is above leaves no room), in French.
 * @throws swissqrbill's ValidationError when `data` breaks a rule of the standard.
 */
export async function attachQrBill(doc: PaperDocument, data: QrBillData): Promise<void> {
  const { SwissQRBill } = await import("swissqrbill/pdf");
  new SwissQRBill(data, { language: "FR" }).attachTo(doc);
}

/**
 * The desk's answer carrying a PDF: shown in the browser (inline) under
 * `fileName`, never cached (a paper names a person).
 */
export function pdfAnswer(bytes: Buffer, fileName: string): Response {
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
