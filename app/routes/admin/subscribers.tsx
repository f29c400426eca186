/**
 * `/admin/abonnes`: the newsletter's subscribers, newest first, 50 a page
 * (`?page=`), with their state (en attente de confirmation, confirmé,
 * désabonné) and dates: asked, confirmed, unsubscribed; the consent text's
 * version; a search by address (`?q=`, a GET form that works without
 * JavaScript) and the counts of what it finds. Erasing one goes through the
 * desk's person erasure ("Personne").
 */
import { Form, Link, useLoaderData } from "react-router";
import { askedPage, askedSearch, pageSummary } from "~/components/pages";
import { Pager } from "~/components/pager";
import { buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { DeskBackLink, deskLinkClass } from "~/desk/frame";
import { deskHandle, deskMeta } from "~/desk/meta";
import { subscribersPage } from "~/newsletter/subscriptions.server";
import { subscriberStates, subscriptionSources } from "~/newsletter/words";
import { formatCount, formatDateTime } from "~/utils/format";
import type { Route } from "./+types/subscribers";
import { dbContext } from "~/context.server";

export const handle = deskHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const search = askedSearch(url.searchParams);
  const { rows, confirmed, ...page } = await subscribersPage(
    context.get(dbContext),
    search,
    askedPage(url.searchParams),
  );
  return {
    search,
    query: url.search,
    page,
    confirmed,
    subscribers: rows.map((row) => ({
      id: row.id,
      email: row.email,
      state: subscriberStates[row.status] ?? row.status,
      dates: [
        `demandé le ${formatDateTime(row.requestedAt)}`,
        ...(row.confirmedAt ? [`confirmé le ${formatDateTime(row.confirmedAt)}`] : []),
        ...(row.unsubscribedAt ? [`désabonné le ${formatDateTime(row.unsubscribedAt)}`] : []),
      ].join(" · "),
      consent: `texte du ${row.consentVersion}, depuis ${subscriptionSources[row.source] ?? row.source}`,
    })),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Abonnés", matches);

export default function Subscribers() {
  const { search, query, page, confirmed, subscribers } = useLoaderData<typeof loader>();
  return (
    <div className="mt-8">
      <DeskBackLink to="/admin/lettres">Lettre d’information</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">Abonnés</h1>
      <Form method="get" action="/admin/abonnes" className="mt-6 grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end">
        <div>
          <Label htmlFor="q">Rechercher une adresse</Label>
          <Input id="q" name="q" type="search" defaultValue={search ?? ""} placeholder="E-mail" className="mt-2" />
        </div>
        <button type="submit" className={buttonVariants()}>
          Rechercher
        </button>
      </Form>
      <p className="mt-6 flex flex-wrap items-center gap-4 text-lg">
        <span>
          {pageSummary(page, { one: "adresse", many: "adresses", none: "Aucune adresse" })}
          {page.total > 0 ? `, dont ${formatCount(confirmed)} confirmée${confirmed > 1 ? "s" : ""}` : ""}
          {search ? " pour cette recherche" : ""}.
        </span>
        {search ? (
          <Link to="/admin/abonnes" className={deskLinkClass}>
            Tout afficher
          </Link>
        ) : null}
        <a href="/admin/abonnes.csv" download className={buttonVariants({ variant: "outline" })}>
          Télécharger en CSV
        </a>
      </p>
      <ul className="mt-4 space-y-3">
        {subscribers.map((subscriber) => (
          <li key={subscriber.id} className="rounded-2xl border-2 border-gray-200 bg-white p-4">
            <p className="text-xl font-semibold break-all">{subscriber.email}</p>
            <p className="mt-1 text-lg">{subscriber.state}</p>
            <p className="mt-1 text-lg text-muted">{subscriber.dates}</p>
            <p className="mt-1 text-base text-muted">Consentement : {subscriber.consent}</p>
            <p className="mt-1">
              <Link
                to={`/admin/personne?email=${encodeURIComponent(subscriber.email)}`}
                className={`text-lg ${deskLinkClass}`}
              >
                Données de cette personne
              </Link>
            </p>
          </li>
        ))}
      </ul>
      <Pager pathname="/admin/abonnes" search={query} label="Pages des abonnés" {...page} />
    </div>
  );
}
