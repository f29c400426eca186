/**
 * `/admin/donnees`: « Protection des données », the register of processing
 * activities (LPD art. 12) made from the person registry's processings and
 * the owner's Réglages (app/privacy/register.server.ts): the controller,
 * then each processing (purpose, people, data, retention, recipients,
 * countries, safeguards, tables). Printable (the desk's frame and the
 * buttons stay off paper), downloadable as CSV and PDF; links to the breach
 * log. A desk page, guarded by the layout's middleware.
 */
import { Link, useLoaderData } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { PrintButton } from "~/courses/print-button";
import { deskLinkClass } from "~/desk/frame";
import { deskHandle, deskMeta } from "~/desk/meta";
import { PROCESSINGS } from "~/features.server";
import { registerOf } from "~/privacy/register.server";
import { getSiteSettings } from "~/settings/site.server";
import { formatDate, isoDateInZurich } from "~/utils/format";
import { typesetAll } from "~/utils/typography";
import type { Route } from "./+types/data-protection";
import { clockContext } from "~/context.server";

export const handle = deskHandle;

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Protection des données", matches);

export async function loader({ context }: Route.LoaderArgs) {
  const { controller, rows } = registerOf(PROCESSINGS, await getSiteSettings(context));
  return {
    controller,
    // French typography (no-break spaces before « : » and « ; ») in the words; keys and table names as they are.
    rows: rows.map(({ key, tables, ...words }) => ({ key, tables, ...typesetAll(words) })),
    today: formatDate(isoDateInZurich(context.get(clockContext).now())),
  };
}

/** One fact of a processing: a term and its items (a list when there are several). */
function Fact({ term, items }: { term: string; items: readonly string[] }) {
  return (
    <div className="mt-3 break-inside-avoid">
      <dt className="font-bold">{term}</dt>
      <dd className="mt-1">
        {items.length > 1 ? (
          <ul className="list-disc space-y-1 pl-6">
            {items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        ) : (
          items[0]
        )}
      </dd>
    </div>
  );
}

export default function DataProtectionPage() {
  const { controller, rows, today } = useLoaderData<typeof loader>();
  return (
    <article className="mt-8 max-w-4xl text-lg print:mt-0 print:text-base print:text-black">
      <h1 className="text-3xl font-bold">Protection des données</h1>
      <p className="mt-4">
        Le registre des activités de traitement (art. 12 de la loi sur la protection des données, LPD) : ce que le site
        enregistre, pourquoi, combien de temps, et qui le reçoit. Il est tiré des tables du site et de vos Réglages ;
        état au {today}.
      </p>
      <div className="mt-4 flex flex-wrap gap-3 print:hidden">
        <a href="/admin/donnees.pdf" className={buttonVariants()}>
          Télécharger en PDF
        </a>
        <a href="/admin/donnees.csv" download className={buttonVariants({ variant: "outline" })}>
          Télécharger en CSV
        </a>
        <Link to="/admin/donnees/violations" className={buttonVariants({ variant: "outline" })}>
          Journal des violations
        </Link>
      </div>
      <div className="print:hidden">
        <PrintButton />
      </div>
      <p className="mt-4 print:hidden">
        Les prestataires et les durées viennent de vos{" "}
        <Link to="/admin/reglages" className={deskLinkClass}>
          Réglages
        </Link>
        , comme ceux de la politique de confidentialité : les deux disent la même chose.
      </p>
      <section aria-labelledby="responsable" className="mt-8">
        <h2 id="responsable" className="text-2xl font-bold">
          Responsable du traitement
        </h2>
        <p className="mt-2">
          {controller.businessName} ({controller.name})
          <br />
          {controller.address}
          <br />
          {controller.email}
        </p>
      </section>
      {rows.map((row) => (
        <section
          key={row.key}
          aria-labelledby={`traitement-${row.key}`}
          className="mt-8 rounded-2xl border-2 border-gray-200 bg-white p-4 sm:p-5 print:rounded-none print:border-0 print:border-t-2 print:p-0 print:pt-4"
        >
          <h2 id={`traitement-${row.key}`} className="text-2xl font-bold break-words">
            {row.title}
          </h2>
          <dl className="break-words">
            <Fact term="Finalité" items={[row.purpose]} />
            <Fact term="Personnes concernées" items={row.people} />
            <Fact term="Données" items={row.data} />
            <Fact term="Conservation" items={[row.retention]} />
            <Fact term="Destinataires" items={row.recipients} />
            <Fact term="Pays" items={[row.countries.join(", ")]} />
            <Fact term="Mesures de sécurité et garanties" items={row.safeguards} />
            <Fact term="Tables de la base" items={[row.tables.join(", ") || "aucune"]} />
          </dl>
        </section>
      ))}
    </article>
  );
}
