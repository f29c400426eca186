/**
 * Attendance certificates and the signature list as PDFs, in the site's
 * paper (app/paper/layout.server.ts); loaded by the routes that print.
 *
 * - `renderCertificates(certificates, options)`: one A4 page per person,
 *   naming only that person: the owner's letterhead, « Attestation de
 *   participation », the person, the course, the dates attended, their
 *   total time, the place, the town and day, and a line for the owner's
 *   signature with their name.
 * - `renderSignatureList(list, options)`: one page per date (course, date,
 *   place), a table « Nom » / « Signature » with a row per registrant and
 *   a few blank rows, for a group to sign and the organisation to keep.
 */
import {
  drawBlocks,
  drawLetterhead,
  fitFontSize,
  MARGINS,
  mm,
  openPaper,
  paperText,
  textWidth,
  type Block,
  type Sender,
} from "~/paper/layout.server";
import { formatDate } from "~/utils/format";
import type { Certificate, SignatureList } from "./certificates.server";

/** The owner and the day printed on the papers. */
export interface CertificateOptions {
  owner: Sender & { signature: string };
  /** ISO date, Swiss time. */
  today: string;
}

/** The certificates, one page each. @returns the PDF's bytes. @throws RangeError when there is none. */
export async function renderCertificates(
  certificates: readonly Certificate[],
  { owner, today }: CertificateOptions,
): Promise<Buffer> {
  if (certificates.length === 0) throw new RangeError("No certificate to print");
  const title =
    certificates.length === 1
      ? `Attestation de participation de ${certificates[0]!.name}`
      : `Attestations de participation (${certificates.length})`;
  const { doc, finish } = await openPaper({ title, author: owner.name });
  const left = mm(MARGINS.left);
  const width = textWidth(doc);
  for (const [index, certificate] of certificates.entries()) {
    if (index > 0) doc.addPage();
    drawLetterhead(doc, owner);
    doc
      .font("Helvetica-Bold")
      .fontSize(20)
      .text("Attestation de participation", left, mm(75), { width, align: "center" });
    doc.moveDown(1.5);
    const blocks: Block[] = [
      { text: "Par la présente, j’atteste que" },
      { text: certificate.name, bold: true },
      { text: `a suivi le cours « ${certificate.course} » aux dates suivantes :` },
      { text: certificate.dates.map((date) => `– ${date}`).join("\n") },
      { text: `Durée : ${certificate.hours}.` },
      { text: `Lieu : ${certificate.place}.`, gap: 2 },
      { text: `${owner.locality}, le ${formatDate(today)}`, gap: 3 },
    ];
    drawBlocks(doc, blocks, left, width, fitFontSize(doc, blocks, width, mm(297 - 60) - doc.y, { largest: 12 }));
    const y = doc.y;
    doc
      .moveTo(left + width / 2, y)
      .lineTo(left + width, y)
      .lineWidth(0.6)
      .stroke();
    doc
      .fontSize(10)
      .text(paperText(`${owner.signature}, ${owner.name}`), left + width / 2, y + 4, { width: width / 2 });
  }
  return finish();
}

/** Blank rows under the names: someone who came with a registrant, a second seat. */
const BLANK_ROWS = 3;

/** The signature list, one page per date. @returns the PDF's bytes. @throws RangeError when no date is held. */
export async function renderSignatureList(list: SignatureList, { owner }: CertificateOptions): Promise<Buffer> {
  if (list.dates.length === 0) throw new RangeError("No date to sign for");
  const { doc, finish } = await openPaper({ title: `Liste de présence : ${list.course}`, author: owner.name });
  const left = mm(MARGINS.left);
  const width = textWidth(doc);
  const rowHeight = mm(11);
  const nameWidth = width * 0.5;
  for (const [index, date] of list.dates.entries()) {
    if (index > 0) doc.addPage();
    doc
      .font("Helvetica-Bold")
      .fontSize(16)
      .text(paperText(`Liste de présence : ${list.course}`), left, mm(MARGINS.top), { width });
    doc.font("Helvetica").fontSize(11);
    doc.text(paperText(date.when), { width });
    doc.text(paperText(date.place), { width });
    doc.text(paperText(`Cours donné par ${owner.signature}, ${owner.name}`), { width });
    let y = doc.y + mm(6);
    const row = (name: string, bold = false) => {
      if (y + rowHeight > doc.page.height - mm(MARGINS.bottom)) {
        doc.addPage();
        y = mm(MARGINS.top);
      }
      doc
        .rect(left, y, nameWidth, rowHeight)
        .rect(left + nameWidth, y, width - nameWidth, rowHeight)
        .lineWidth(0.6)
        .stroke();
      doc.font(bold ? "Helvetica-Bold" : "Helvetica");
      if (name)
        doc.text(paperText(name), left + 4, y + mm(3.5), { width: nameWidth - 8, lineBreak: false, ellipsis: true });
      if (bold) doc.text("Signature", left + nameWidth + 4, y + mm(3.5), { width: width - nameWidth - 8 });
      y += rowHeight;
    };
    row("Nom", true);
    for (const name of [...list.names, ...Array<string>(BLANK_ROWS).fill("")]) row(name);
  }
  return finish();
}
