/**
 * `/admin/abonnes.csv`: every newsletter subscriber (state, dates, consent
 * text's version, where the request came from) as a CSV download named
 * `abonnes-YYYY-MM-DD.csv`. Format: app/desk/csv.server.ts.
 */
import { csvDownload, spreadsheetCsv } from "~/desk/csv.server";
import { listSubscribers, SUBSCRIBER_COLUMNS } from "~/newsletter/subscriptions.server";
import type { Route } from "./+types/subscribers-csv";
import { dbContext } from "~/context.server";

export async function loader({ context }: Route.LoaderArgs) {
  return csvDownload(spreadsheetCsv(SUBSCRIBER_COLUMNS, await listSubscribers(context.get(dbContext))), "abonnes");
}
