/**
 * `/admin`: the contact and callback requests ("Demande de rappel": the
 * half-days that suit), newest first, 50 a page (`?page=`), with their
 * status and code word; a filter
 * by status and a search by name, e-mail or telephone (a GET form: the
 * address can be kept or shared, it works without JavaScript); the count of
 * the filter; the CSV of the list as filtered.
 */
import { Form, Link, useLoaderData } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { deskLinkClass, telHref } from "~/desk/frame";
import { deskHandle, deskMeta } from "~/desk/meta";
import { filterOf } from "~/contact/requests";
import { StatusBadge, StatusOptions } from "~/contact/status-badge";
import { requestsPage } from "~/contact/requests.server";
import { askedPage, pageHref, pageSummary } from "~/components/pages";
import { Pager } from "~/components/pager";
import { kindLabel, requestSubject } from "~/contact/request-kind";
import { formatDateTime } from "~/utils/format";
import { placeholdersLeft } from "~/settings/placeholders.server";
import type { Route } from "./+types/inbox";
import { dbContext } from "~/context.server";

export const handle = deskHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filter = filterOf(url);
  const [{ rows, ...page }, placeholders] = await Promise.all([
    requestsPage(context.get(dbContext), filter, askedPage(url.searchParams)),
    placeholdersLeft(context.get(dbContext)),
  ]);
  return {
    placeholders: placeholders.map(({ label, value, href }) => ({ label, value, href })),
    filter,
    page,
    query: url.search,
    requests: rows.map((row) => ({
      id: row.id,
      name: `${row.firstName} ${row.lastName}`,
      kind: row.kind,
      email: row.email,
      phone: row.phone,
      subject: requestSubject(row),
      codeWord: row.codeWord,
      status: row.status,
      receivedAt: formatDateTime(row.createdAt),
    })),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Demandes", matches);

export default function Inbox() {
  const { filter, page, query, requests, placeholders } = useLoaderData<typeof loader>();
  const filtered = Boolean(filter.status || filter.search);
  return (
    <div className="mt-8">
      <h1 className="text-3xl font-bold">Demandes de contact</h1>
      {placeholders.length > 0 ? <PlaceholderList placeholders={placeholders} /> : null}
      <Form method="get" action="/admin" className="mt-6 grid gap-4 sm:grid-cols-[12rem_1fr_auto] sm:items-end">
        <div>
          <Label htmlFor="statut">Statut</Label>
          <Select id="statut" name="statut" defaultValue={filter.status ?? ""} className="mt-2">
            <option value="">Tous</option>
            <StatusOptions />
          </Select>
        </div>
        <div>
          <Label htmlFor="q">Rechercher</Label>
          <Input
            id="q"
            name="q"
            type="search"
            defaultValue={filter.search ?? ""}
            placeholder="Nom, e-mail ou téléphone"
            className="mt-2"
          />
        </div>
        <button type="submit" className={buttonVariants()}>
          Filtrer
        </button>
      </Form>
      <p className="mt-6 flex flex-wrap items-center gap-4 text-lg">
        <span>
          {pageSummary(page, { one: "demande", many: "demandes", none: "Aucune demande" })}
          {filtered ? " pour ce filtre" : ""}
        </span>
        {filtered ? (
          <Link to="/admin" className={deskLinkClass}>
            Tout afficher
          </Link>
        ) : null}
        {/* The whole filtered list: the filter's parameters, not the page. */}
        <a href={pageHref("/admin/demandes.csv", query, 1)} download className={buttonVariants({ variant: "outline" })}>
          Télécharger en CSV
        </a>
      </p>
      <ul className="mt-4 space-y-3">
        {requests.map((request) => (
          <li key={request.id} className="rounded-2xl border-2 border-gray-200 bg-white p-4">
            <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
              <Link to={`/admin/demandes/${request.id}`} className={`text-xl ${deskLinkClass}`}>
                {request.name}
              </Link>
              <StatusBadge status={request.status} />
              {request.kind === "rappel" ? (
                <span className="rounded-full border-2 border-primary px-3 py-0.5 text-base font-semibold text-primary-strong">
                  {kindLabel(request.kind)}
                </span>
              ) : null}
            </div>
            <p className="mt-1 text-lg text-muted">
              {request.receivedAt} · {request.subject}
            </p>
            {request.codeWord ? <p className="mt-1 text-lg">Mot de code : « {request.codeWord} »</p> : null}
            <p className="mt-1 flex flex-wrap gap-x-4 text-lg break-all">
              <a href={telHref(request.phone)} className={deskLinkClass}>
                {request.phone}
              </a>
              {request.email ? (
                <a href={`mailto:${request.email}`} className={deskLinkClass}>
                  {request.email}
                </a>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
      <Pager pathname="/admin" search={query} label="Pages des demandes" {...page} />
    </div>
  );
}

/**
 * The site's example values still to replace before it goes online, each a link to the field of
 * Réglages (or of an article) that changes it.
 */
function PlaceholderList({ placeholders }: { placeholders: { label: string; value: string; href: string }[] }) {
  return (
    <section aria-labelledby="a-remplacer" className="mt-6 rounded-2xl border-2 border-accent bg-white p-4 sm:p-6">
      <h2 id="a-remplacer" className="text-2xl font-bold">
        À remplacer avant la mise en ligne
      </h2>
      <p className="mt-1 text-lg">
        Ces {placeholders.length} valeurs sont encore les exemples du site. Touchez-en une pour la changer.
      </p>
      <ul className="mt-3 space-y-2 text-lg">
        {placeholders.map((placeholder) => (
          <li key={placeholder.href}>
            <Link to={placeholder.href} className={deskLinkClass}>
              {placeholder.label}
            </Link>{" "}
            <span className="text-muted">({placeholder.value})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
