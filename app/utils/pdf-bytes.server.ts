/**
 * The bytes of a pdfkit document (invoices, the register): `pdfBytes(document)`
 * starts collecting what the document writes, and resolves with the whole
 * file once `document.end()` is called. Imports no pdfkit itself (the
 * callers load it lazily).
 */

/** What `pdfBytes` needs of a pdfkit document. */
interface PdfStream {
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** Collects `document`'s output. @returns the file's bytes once it ends; rejects with its error. */
export function pdfBytes(document: PdfStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  document.on("data", (chunk: Buffer) => chunks.push(chunk));
  return new Promise<Buffer>((resolve, reject) => {
    document.on("end", () => resolve(Buffer.concat(chunks)));
    document.on("error", reject);
  });
}

/** Millimetres to PDF points. */
export const mm = (value: number) => (value * 72) / 25.4;
