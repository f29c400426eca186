/**
 * The register of processing activities as a PDF (A4, `renderRegisterPdf`
 * → the file's bytes): the controller, then each processing with the
 * headings of LPD art. 12 al. 2, and the tables that hold its data. Made
 * from the database and Réglages each time, never stored.
 *
 * pdfkit is imported by the first register asked for, not when the server
 * starts (import this module with `await import(...)`).
 */
import { paperText } from "~/paper/layout.server";
import { formatDate } from "~/utils/format";
import { mm, pdfBytes } from "~/utils/pdf-bytes.server";
import type { Controller, RegisterRow } from "./register.server";

/**
 * The register's PDF for `controller` and `rows`, dated `today` (ISO date).
 * @returns the bytes of the file. @throws pdfkit's error (it does not happen with text).
 */
export async function renderRegisterPdf(controller: Controller, rows: readonly RegisterRow[], today: string) {
  const { default: PDFDocument } = await import("pdfkit");
  const title = "Registre des activités de traitement";
  const document = new PDFDocument({
    size: "A4",
    margins: { top: mm(18), bottom: mm(18), left: mm(20), right: mm(18) },
    lang: "fr-CH",
    displayTitle: true,
    bufferPages: true,
    info: { Title: title, Author: controller.businessName, Subject: "LPD art. 12" },
  });
  const bytes = pdfBytes(document);
  const left = mm(20);
  const width = document.page.width - mm(38);
  const text = (value: string, options: PDFKit.Mixins.TextOptions = {}) =>
    document.text(paperText(value), left, undefined, { width, ...options });

  document.font("Helvetica-Bold").fontSize(18);
  text(title);
  document.font("Helvetica").fontSize(10).moveDown(0.3);
  text(`Selon l’art. 12 de la loi fédérale sur la protection des données (LPD). État au ${formatDate(today)}.`);
  document.moveDown(0.8).font("Helvetica-Bold").fontSize(11);
  text("Responsable du traitement");
  document.font("Helvetica").fontSize(10);
  text(`${controller.businessName} (${controller.name})`);
  text(controller.address);
  text(controller.email);

  for (const row of rows) {
    document.moveDown(1);
    if (document.y > document.page.height - mm(60)) document.addPage();
    document.font("Helvetica-Bold").fontSize(13);
    text(row.title);
    const facts: [string, string][] = [
      ["Finalité", row.purpose],
      ["Personnes concernées", row.people.join(" ; ")],
      ["Données", row.data.join(" ; ")],
      ["Conservation", row.retention],
      ["Destinataires", row.recipients.join(" ; ")],
      ["Pays", row.countries.join(", ")],
      ["Mesures de sécurité et garanties", row.safeguards.join(" ; ")],
      ["Tables de la base", row.tables.join(", ") || "aucune"],
    ];
    for (const [label, value] of facts) {
      document.moveDown(0.25).font("Helvetica-Bold").fontSize(9.5);
      text(label);
      document.font("Helvetica").fontSize(9.5);
      text(value);
    }
  }

  const range = document.bufferedPageRange();
  for (let index = 0; index < range.count; index++) {
    document.switchToPage(range.start + index);
    // Below the bottom margin: without this, pdfkit would start a new page for the footer.
    document.page.margins.bottom = 0;
    document
      .font("Helvetica")
      .fontSize(8)
      .text(`${title} – page ${index + 1} sur ${range.count}`, left, document.page.height - mm(12), {
        width,
        align: "center",
        lineBreak: false,
      });
  }
  document.end();
  return bytes;
}
