/**
 * `/admin/factures`: the invoices, newest first, 50 a page (`?page=`),
 * with what is open and what is overdue (counts and totals), a filter (`?etat=ouvertes|en-retard`),
 * the link to make one from scratch and the CSV for the accounts
 * (`/admin/factures.csv`). Without INVOICE_IBAN the page says « IBAN
 * manquant » and offers no new invoice. Cards, one under the other: they
 * read at 375 px.
 */
import { Link, useLoaderData } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { deskLinkClass } from "~/desk/frame";
import { deskHandle, deskMeta } from "~/desk/meta";
import { invoiceCreditor } from "~/invoices/creditor.server";
import { IbanMissing } from "~/invoices/iban-missing";
import { formatCentimes, INVOICE_STATUS_LABELS, isOverdue, todayInZurich } from "~/invoices/invoices.server";
import { invoicesPage, invoiceTotals } from "~/invoices/list.server";
import { askedPage, pageSummary } from "~/components/pages";
import { Pager } from "~/components/pager";
import { formatDate } from "~/utils/format";
import type { Route } from "./+types/invoices";
import { dbContext } from "~/context.server";

export const handle = deskHandle;

export const meta: Route.MetaFunction = () => deskMeta("Factures");

/** The filters of the list. */
const FILTERS = { toutes: "Toutes", ouvertes: "Ouvertes", "en-retard": "En retard" } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const asked = url.searchParams.get("etat") ?? "toutes";
  const filter = (asked in FILTERS ? asked : "toutes") as keyof typeof FILTERS;
  const today = todayInZurich();
  const db = context.get(dbContext);
  const [{ rows, ...page }, totals] = await Promise.all([
    invoicesPage(db, filter, today, askedPage(url.searchParams)),
    invoiceTotals(db, today),
  ]);
  return {
    ibanMissing: !(await invoiceCreditor(context)).ok,
    filter,
    page,
    query: url.search,
    open: { count: totals.open.count, total: formatCentimes(totals.open.centimes) },
    overdue: { count: totals.overdue.count, total: formatCentimes(totals.overdue.centimes) },
    invoices: rows.map((row) => ({
      id: row.id,
      number: row.number,
      client: row.clientName,
      total: formatCentimes(row.totalCentimes),
      issued: formatDate(row.issuedOn),
      due: formatDate(row.dueOn),
      status: INVOICE_STATUS_LABELS[row.status] ?? row.status,
      overdue: isOverdue(row, today),
    })),
  };
}

export default function InvoicesPage() {
  const page = useLoaderData<typeof loader>();
  return (
    <div className="mt-8">
      <h1 className="text-3xl font-bold">Factures</h1>
      {page.ibanMissing ? <IbanMissing /> : null}
      <p className="mt-4 text-xl">
        {page.open.count} ouverte{page.open.count > 1 ? "s" : ""} ({page.open.total}), dont{" "}
        <strong>
          {page.overdue.count} en retard ({page.overdue.total})
        </strong>
        .
      </p>
      <p className="mt-4 flex flex-wrap gap-3">
        {page.ibanMissing ? null : (
          <Link to="/admin/factures/nouvelle" className={buttonVariants()}>
            Nouvelle facture
          </Link>
        )}
        <a href="/admin/factures.csv" download className={buttonVariants({ variant: "outline" })}>
          Télécharger en CSV
        </a>
      </p>
      <nav aria-label="Filtrer les factures" className="mt-6 flex flex-wrap gap-4 text-lg">
        {Object.entries(FILTERS).map(([key, label]) => (
          <Link
            key={key}
            to={key === "toutes" ? "/admin/factures" : `/admin/factures?etat=${key}`}
            aria-current={page.filter === key ? "page" : undefined}
            className={page.filter === key ? "font-bold" : deskLinkClass}
          >
            {label}
          </Link>
        ))}
      </nav>
      {page.invoices.length === 0 ? (
        <p className="mt-4 text-lg text-muted">Aucune facture ici.</p>
      ) : (
        <>
          <p className="mt-4 text-lg">
            {pageSummary(page.page, { one: "facture", many: "factures", none: "Aucune facture" })}
          </p>
          <ul className="mt-4 grid gap-3">
            {page.invoices.map((invoice) => (
              <li key={invoice.id} className="rounded-2xl border-2 border-gray-200 bg-white p-4 text-lg">
                <p className="font-bold">
                  <Link to={`/admin/factures/${invoice.id}`} className={deskLinkClass}>
                    Facture n° {invoice.number}
                  </Link>{" "}
                  · {invoice.total}
                </p>
                <p className="break-words">{invoice.client}</p>
                <p>
                  Du {invoice.issued}, à payer d’ici au {invoice.due} ·{" "}
                  <span className={invoice.overdue ? "font-bold text-red-800" : "font-semibold"}>
                    {invoice.overdue ? "En retard" : invoice.status}
                  </span>
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
      <Pager pathname="/admin/factures" search={page.query} label="Pages des factures" {...page.page} />
    </div>
  );
}
