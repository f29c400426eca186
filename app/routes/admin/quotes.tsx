/**
 * `/admin/devis`: the quotes, newest number first, 50 a page (`?page=`),
 * a search by number, organisation, contact person, locality or e-mail
 * (`?q=`), each with its organisation, total, validity and state (« expiré » from
 * the injected clock). A quote starts from a group's contact request
 * (« Faire un devis » on the request's page) or from « Nouveau devis ».
 * Cards, one under the other: they read at 375 px.
 */
import { Link, useLoaderData } from "react-router";
import { askedPage, askedSearch } from "~/components/pages";
import { Pager } from "~/components/pager";
import { buttonVariants } from "~/components/ui/button";
import { clockContext, dbContext } from "~/context.server";
import { deskLinkClass } from "~/desk/frame";
import { ListSearch } from "~/desk/list-search";
import { deskHandle, deskMeta } from "~/desk/meta";
import { formatCentimes } from "~/invoices/invoices.server";
import { QUOTE_STATE_LABELS, quoteState, quotesPage } from "~/quotes/quotes.server";
import { formatDate, isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/quotes";

export const handle = deskHandle;

export const meta: Route.MetaFunction = () => deskMeta("Devis");

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const today = isoDateInZurich(context.get(clockContext).now());
  const search = askedSearch(url.searchParams);
  const { rows, ...page } = await quotesPage(context.get(dbContext), askedPage(url.searchParams), search);
  return {
    search,
    page,
    query: url.search,
    quotes: rows.map((row) => ({
      id: row.id,
      number: row.number,
      client: row.clientName,
      total: formatCentimes(row.totalCentimes),
      validUntil: formatDate(row.validUntil),
      state: QUOTE_STATE_LABELS[quoteState(row, today)],
    })),
  };
}

export default function QuotesPage() {
  const page = useLoaderData<typeof loader>();
  return (
    <div className="mt-8">
      <h1 className="text-3xl font-bold">Devis</h1>
      <p className="mt-4 flex flex-wrap gap-3">
        <Link to="/admin/devis/nouveau" className={buttonVariants()}>
          Nouveau devis
        </Link>
      </p>
      {page.quotes.length === 0 && !page.search ? (
        <p className="mt-4 text-lg text-muted">
          Aucun devis pour l’instant. Un devis se fait depuis une demande de groupe (« Faire un devis »).
        </p>
      ) : (
        <>
          <ListSearch
            pathname="/admin/devis"
            label="Rechercher un devis"
            hint="Numéro, organisation, personne, localité ou e-mail"
            search={page.search}
            page={page.page}
            noun={{ one: "devis", many: "devis", none: "Aucun devis" }}
          />
          <ul className="mt-4 grid gap-3">
            {page.quotes.map((quote) => (
              <li key={quote.id} className="rounded-2xl border-2 border-gray-200 bg-white p-4 text-lg">
                <p className="font-bold">
                  <Link to={`/admin/devis/${quote.id}`} className={deskLinkClass}>
                    Devis n° {quote.number}
                  </Link>{" "}
                  · {quote.total}
                </p>
                <p className="break-words">{quote.client}</p>
                <p>
                  Valable jusqu’au {quote.validUntil} · <span className="font-semibold">{quote.state}</span>
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
      <Pager pathname="/admin/devis" search={page.query} label="Pages des devis" {...page.page} />
    </div>
  );
}
