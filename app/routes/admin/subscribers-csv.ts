/**
 * `/admin/abonnes.csv`: every newsletter subscriber (state, dates, consent
 * text's version, where the request came from) as a CSV download named
 * `abonnes-YYYY-MM-DD.csv`. Format: app/desk/csv.server.ts.
 */
import { csvDownload, spreadsheetCsv } from "~/desk/csv.server";
import { requireOwner } from "~/desk/guard.server";
import { listSubscribers, SUBSCRIBER_COLUMNS } from "~/newsletter/subscriptions.server";
import type { Route } from "./+types/subscribers-csv";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOwner(request, context);
  return csvDownload(spreadsheetCsv(SUBSCRIBER_COLUMNS, await listSubscribers(context.db!)), "abonnes");
}
