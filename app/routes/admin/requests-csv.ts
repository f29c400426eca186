/**
 * `/admin/demandes.csv?statut=...&q=...`: the inbox's list as filtered
 * (same filter as `/admin`, every matching request, newest first), as a
 * CSV download named `demandes-YYYY-MM-DD.csv` (the day in Swiss time),
 * streamed 500 requests at a time. Format: app/desk/csv.server.ts.
 */
import { requestsCsvStream } from "~/contact/requests.server";
import { csvDownload } from "~/desk/csv.server";
import { filterOf } from "~/contact/requests";
import type { Route } from "./+types/requests-csv";
import { dbContext } from "~/context.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  return csvDownload(requestsCsvStream(context.get(dbContext), filterOf(new URL(request.url))), "demandes");
}
