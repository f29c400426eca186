/**
 * `/admin/abonnes.csv`: every newsletter subscriber (state, dates, consent
 * text's version, where the request came from) as a CSV download named
 * `abonnes-YYYY-MM-DD.csv`, streamed 500 subscribers at a time. Format:
 * app/desk/csv.server.ts.
 */
import { csvDownload } from "~/desk/csv.server";
import { subscribersCsvStream } from "~/newsletter/subscriptions.server";
import type { Route } from "./+types/subscribers-csv";
import { dbContext } from "~/context.server";

export async function loader({ context }: Route.LoaderArgs) {
  return csvDownload(subscribersCsvStream(context.get(dbContext)), "abonnes");
}
