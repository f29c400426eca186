/**
 * `/admin/demandes.csv?statut=...&q=...`: the inbox's list as filtered
 * (same filter as `/admin`, every matching request, newest first), as a
 * CSV download named `demandes-YYYY-MM-DD.csv` (the day in Swiss time).
 * Format: app/desk/csv.server.ts.
 */
import { requestsCsv } from "~/contact/requests.server";
import { csvDownload } from "~/desk/csv.server";
import { filterOf } from "~/contact/requests";
import { listRequests } from "~/contact/requests.server";
import type { Route } from "./+types/requests-csv";
import { dbContext } from "~/context.server";

/** More than the desk will ever hold: the file has every request of the filter. */
const CSV_MAX_ROWS = 100_000;

export async function loader({ request, context }: Route.LoaderArgs) {
  const rows = await listRequests(context.get(dbContext), { ...filterOf(new URL(request.url)), limit: CSV_MAX_ROWS });
  return csvDownload(requestsCsv(rows), "demandes");
}
