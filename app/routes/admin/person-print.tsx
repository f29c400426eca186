/**
 * `/admin/personne/export?email=...&telephone=...` (optionally
 * `&personne=marie dupont`, several allowed, when people share the key): what
 * the site holds about the person as a page to read, print to PDF or send
 * (LPD art. 25: the person's data "in an understandable form"), beside the
 * JSON (`/admin/personne.json`): French labels, times in Swiss time written
 * in words ("mardi 12 janvier 2027, 14 h 00"), one section per kind of data,
 * the desk's frame hidden on paper. Guarded by the desk's guard middleware and audited
 * (`export`, counts only) as the JSON is; a desk page, never in the render
 * cache. 400 (French text) without a readable e-mail or telephone.
 */
import { data, Link, useLoaderData } from "react-router";
import { getSiteSettings } from "~/settings/site.server";
import { PrintButton } from "~/courses/print-button";
import { ownerExport } from "~/desk/export.server";
import { deskHandle, deskMeta } from "~/desk/meta";
import { personSearch } from "~/desk/person-query";
import { tableKey } from "~/desk/person-registry.server";
import { exportOf, fieldNamesOf } from "~/features.server";
import { PersonRowList } from "~/desk/person-rows";
import { formatDateTime } from "~/utils/format";
import { typeset } from "~/utils/typography";
import type { Route } from "./+types/person-print";
import { dbContext, clockContext } from "~/context.server";

export const handle = deskHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  const asked = await ownerExport(request, context, "html", exportOf);
  if (asked instanceof Response) throw asked;
  const { query, exported } = asked;
  const now = context.get(clockContext).now();
  const names = await fieldNamesOf(context.get(dbContext), exported.found);
  return data(
    {
      business: (await getSiteSettings(context)).identity.businessName,
      at: formatDateTime(now),
      names: exported.people.map((person) => person.name),
      search: personSearch(query),
      keys: [query.person.email, query.telephone].filter((value): value is string => !!value),
      sections: exported.found.map(({ entry, rows }) => ({
        key: tableKey(entry),
        title: entry.title,
        rows: rows.map((row) => entry.fields(row, names).map(([label, value]) => [label, typeset(value)] as const)),
      })),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Export des données d’une personne", matches);

export default function PersonPrintPage() {
  const page = useLoaderData<typeof loader>();
  const list = new Intl.ListFormat("fr", { type: "conjunction" });
  return (
    <article className="mt-8 max-w-3xl print:mt-0 print:text-black">
      <p className="print:hidden">
        <Link to={`/admin/personne?${page.search}`} className="text-lg underline">
          Retour à la recherche
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">Vos données enregistrées</h1>
      <p className="mt-4 text-lg">
        {typeset(
          `Voici tout ce que ${page.business} a enregistré${page.names.length ? ` au sujet de ${list.format(page.names)}` : ""}, sous ${list.format(page.keys)}, le ${page.at}. Les heures sont celles de la Suisse.`,
        )}
      </p>
      <p className="mt-2 text-lg">
        Vous pouvez demander que ces données soient corrigées ou effacées, par téléphone, par e-mail ou par courrier.
      </p>
      <PrintButton />
      {page.sections.map((section) => (
        <section key={section.key} aria-labelledby={`export-${section.key}`} className="mt-8 break-inside-avoid-page">
          <h2 id={`export-${section.key}`} className="text-2xl font-bold">
            {section.title} ({section.rows.length})
          </h2>
          <PersonRowList rows={section.rows} />
        </section>
      ))}
    </article>
  );
}
