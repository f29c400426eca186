/**
 * `/admin/factures/:id/facture.pdf`: an invoice's PDF with its QR-bill
 * (app/invoices/pdf.server.ts), to print for the post or to look at;
 * shown in the browser (inline), never cached.
 */
import { pdfAnswer } from "~/paper/layout.server";
import { data } from "react-router";
import { idParam } from "~/desk/route-params.server";
import { getInvoice, invoiceFileName } from "~/invoices/invoices.server";
import type { Route } from "./+types/invoice-pdf";
import { dbContext } from "~/context.server";

export async function loader({ context, params }: Route.LoaderArgs) {
  const invoice = await getInvoice(context.get(dbContext), idParam(params.id));
  if (!invoice) throw data(null, { status: 404 });
  // Loaded on the first PDF only: pdfkit and its fonts stay out of the server's memory until then.
  const { renderInvoicePdf } = await import("~/invoices/pdf.server");
  return pdfAnswer(await renderInvoicePdf(invoice), invoiceFileName(invoice));
}
