/**
 * `/admin/personne.json?email=...&telephone=...` (optionally
 * `&personne=marie dupont`, when people share the key): every row of the
 * person in every table of the registry (app/desk/person-registry.server.ts,
 * `exportOf`), as a JSON download (`donnees-personne-YYYY-MM-DD.json`) to
 * hand over on a request for access or for the data (LPD art. 25 and 28):
 * `{ exportedAt, search: { email, telephone }, tables: { contacts: [...], ... } }`,
 * rows as stored (times in UTC). The same rows as a page to read or print:
 * `/admin/personne/export`. Audited (`export`, counts only). 400 (French
 * text) without a readable e-mail or telephone.
 */
import { ownerExport } from "~/desk/export.server";
import { tableKey } from "~/desk/person-registry.server";
import { exportOf } from "~/features.server";
import { isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/person-export";
import { clockContext } from "~/context.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const asked = await ownerExport(request, context, "json", exportOf);
  if (asked instanceof Response) return asked;
  const { query, exported } = asked;
  const now = context.get(clockContext).now();
  const body = {
    exportedAt: now.toISOString(),
    search: { email: query.person.email, telephone: query.person.phoneE164 },
    tables: Object.fromEntries(exported.found.map(({ entry, rows }) => [tableKey(entry), rows])),
  };
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="donnees-personne-${isoDateInZurich(now)}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
