/**
 * `/admin/factures.csv`: every invoice, newest number first, for the
 * accounts (`invoicesCsv`, app/invoices/invoices.server.ts), downloaded as
 * `factures-YYYY-MM-DD.csv`. Format: app/desk/csv.server.ts.
 */
import { csvDownload } from "~/desk/csv.server";
import { requireOwner } from "~/desk/guard.server";
import { invoicesCsv, listInvoices } from "~/invoices/invoices.server";
import type { Route } from "./+types/invoices-csv";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOwner(request, context);
  return csvDownload(invoicesCsv(await listInvoices(context.db!)), "factures");
}
