/**
 * `/admin/personne.json?email=...&telephone=...`: every row of one person
 * in every table of the registry (app/desk/person.server.ts), as a JSON
 * download (`donnees-personne-YYYY-MM-DD.json`) to hand over on a request
 * for access or for the data (LPD art. 25 and 28):
 * `{ exportedAt, search: { email, telephone }, tables: { contacts: [...], ... } }`,
 * rows as stored (times in UTC). 400 (French text) without a readable
 * e-mail or telephone.
 */
import { requireOwner } from "~/desk/guard.server";
import { findPerson, personKeyOf, tableKey } from "~/desk/person.server";
import { isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/person-export";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOwner(request, context);
  const query = personKeyOf(new URL(request.url).searchParams);
  if (!query.person) {
    const problem =
      query.errors.email ?? query.errors.telephone ?? "Indiquez une adresse e-mail ou un numéro de téléphone.";
    return new Response(problem, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const now = new Date();
  const found = await findPerson(context.db!, query.person);
  const body = {
    exportedAt: now.toISOString(),
    search: { email: query.person.email, telephone: query.person.phoneE164 },
    tables: Object.fromEntries(found.map(({ entry, rows }) => [tableKey(entry), rows])),
  };
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="donnees-personne-${isoDateInZurich(now)}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
