/**
 * `/admin/donnees/violations`: the breach log (« Journal des violations »,
 * LPD art. 24, OPDo art. 15 al. 4), the latest discovered first: each
 * breach with its dates, risk and whether the FDPIC (PFPDT) and the people
 * were told; one of high risk not yet announced is marked. Links to a new
 * entry and to each one's page. Kept: nothing here is ever deleted by the
 * site. Cards, one under the other: they read at 375 px.
 */
import { Link, useLoaderData } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { DeskBackLink, deskLinkClass } from "~/desk/frame";
import { deskHandle, deskMeta } from "~/desk/meta";
import { FdpicLink } from "~/privacy/breach-form";
import { listBreaches } from "~/privacy/breaches.server";
import { formatDate } from "~/utils/format";
import type { Route } from "./+types/breaches";
import { dbContext } from "~/context.server";

export const handle = deskHandle;

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Journal des violations", matches);

/** The first `max` characters of `text`, cut at a word, with "…" when cut. */
const excerpt = (text: string, max = 160) =>
  text.length <= max ? text : `${text.slice(0, max).replace(/\s+\S*$/, "")}…`;

export async function loader({ context }: Route.LoaderArgs) {
  const breaches = await listBreaches(context.get(dbContext));
  return {
    breaches: breaches.map((row) => ({
      id: row.id,
      discovered: formatDate(row.discoveredOn),
      what: excerpt(row.whatHappened),
      highRisk: row.highRisk,
      fdpic: row.fdpicToldOn ? `annoncée le ${formatDate(row.fdpicToldOn)}` : "pas annoncée",
      people: row.peopleToldOn ? `informées le ${formatDate(row.peopleToldOn)}` : "pas informées",
      toAnnounce: row.highRisk && !row.fdpicToldOn,
    })),
  };
}

export default function BreachesPage() {
  const { breaches } = useLoaderData<typeof loader>();
  return (
    <div className="mt-8 max-w-4xl text-lg">
      <DeskBackLink to="/admin/donnees">Protection des données</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">Journal des violations</h1>
      <p className="mt-4">
        Notez ici chaque violation de la sécurité des données (perte, vol, envoi à la mauvaise personne, accès non
        autorisé…), même sans risque élevé : la loi demande de les documenter et de garder ce journal au moins deux ans
        (art. 15 de l’ordonnance sur la protection des données). Le site ne l’efface jamais. N’y écrivez aucun nom.
      </p>
      <p className="mt-2">
        Une violation qui présente vraisemblablement un risque élevé pour les personnes s’annonce au PFPDT dans les
        meilleurs délais, avec <FdpicLink />.
      </p>
      <p className="mt-4">
        <Link to="/admin/donnees/violations/nouvelle" className={buttonVariants()}>
          Noter une violation
        </Link>
      </p>
      {breaches.length === 0 ? (
        <p className="mt-6 text-muted">Aucune violation notée.</p>
      ) : (
        <ul className="mt-6 grid gap-3">
          {breaches.map((breach) => (
            <li key={breach.id} className="rounded-2xl border-2 border-gray-200 bg-white p-4">
              <p className="font-bold">
                <Link to={`/admin/donnees/violations/${breach.id}`} className={deskLinkClass}>
                  Découverte le {breach.discovered}
                </Link>
              </p>
              <p className="mt-1 break-words">{breach.what}</p>
              <p className="mt-1">
                Risque {breach.highRisk ? "élevé" : "faible"} · PFPDT : {breach.fdpic} · Personnes : {breach.people}
              </p>
              {breach.toAnnounce ? (
                <p className="mt-2 font-bold text-red-800">Risque élevé, pas encore annoncée au PFPDT.</p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
