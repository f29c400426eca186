/**
 * `/admin/factures.csv`: every invoice, newest number first, for the
 * accounts (`invoicesCsv`, app/invoices/invoices.server.ts), downloaded as
 * `factures-YYYY-MM-DD.csv`. Format: app/desk/csv.server.ts.
 */
import { csvDownload } from "~/desk/csv.server";
import { invoicesCsv, listInvoices } from "~/invoices/invoices.server";
import type { Route } from "./+types/invoices-csv";
import { dbContext } from "~/context.server";

export async function loader({ context }: Route.LoaderArgs) {
  return csvDownload(invoicesCsv(await listInvoices(context.get(dbContext))), "factures");
}
