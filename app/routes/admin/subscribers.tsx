/**
 * `/admin/abonnes`: the newsletter's subscribers with their state (en
 * attente de confirmation, confirmé, désabonné) and dates: asked, confirmed,
 * unsubscribed; the consent text's version. Erasing one goes through the
 * desk's person erasure ("Personne").
 */
import { Link, useLoaderData } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { DeskBackLink, deskLinkClass } from "~/desk/frame";
import { deskHandle, deskMeta } from "~/desk/meta";
import { listSubscribers } from "~/newsletter/subscriptions.server";
import { subscriberStates, subscriptionSources } from "~/newsletter/words";
import { formatDateTime } from "~/utils/format";
import type { Route } from "./+types/subscribers";
import { dbContext } from "~/context.server";

export const handle = deskHandle;

export async function loader({ context }: Route.LoaderArgs) {
  const rows = await listSubscribers(context.get(dbContext));
  return {
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
    confirmed: rows.filter((row) => row.status === "confirmed").length,
  };
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Abonnés", matches);

export default function Subscribers() {
  const { subscribers, confirmed } = useLoaderData<typeof loader>();
  return (
    <div className="mt-8">
      <DeskBackLink to="/admin/lettres">Lettre d’information</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">Abonnés</h1>
      <p className="mt-4 flex flex-wrap items-center gap-4 text-lg">
        <span>
          {subscribers.length} adresse{subscribers.length > 1 ? "s" : ""}, dont {confirmed} confirmée
          {confirmed > 1 ? "s" : ""}.
        </span>
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
    </div>
  );
}
