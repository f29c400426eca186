/**
 * `/admin/factures.csv`: every invoice, newest number first, for the
 * accounts (`invoicesCsvStream`, app/invoices/list.server.ts),
 * downloaded as `factures-YYYY-MM-DD.csv`, streamed 500 invoices at a time.
 * Format: app/desk/csv.server.ts.
 */
import { csvDownload } from "~/desk/csv.server";
import { invoicesCsvStream } from "~/invoices/list.server";
import type { Route } from "./+types/invoices-csv";
import { dbContext } from "~/context.server";

export async function loader({ context }: Route.LoaderArgs) {
  return csvDownload(invoicesCsvStream(context.get(dbContext)), "factures");
}
