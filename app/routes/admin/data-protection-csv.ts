/**
 * `/admin/donnees.csv`: the register of processing activities (LPD art. 12),
 * one line per processing (app/privacy/register.server.ts), downloaded as
 * `registre-traitements-YYYY-MM-DD.csv`. Format: app/desk/csv.server.ts.
 */
import { csvDownload } from "~/desk/csv.server";
import { PROCESSINGS } from "~/features.server";
import { registerCsv, registerOf } from "~/privacy/register.server";
import { getSiteSettings } from "~/settings/site.server";
import type { Route } from "./+types/data-protection-csv";
import { clockContext } from "~/context.server";

export async function loader({ context }: Route.LoaderArgs) {
  const { rows } = registerOf(PROCESSINGS, await getSiteSettings(context));
  return csvDownload(registerCsv(rows), "registre-traitements", context.get(clockContext).now());
}
