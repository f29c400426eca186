/**
 * Parts of the desk's session page (`/admin/cours/:id`): the answer to the
 * last post, the call list (people without e-mail to tell of a change,
 * each ticked « appelé·e »), the dates of its series, the bursts of registrations from one connection, and the
 * "other actions" (duplicate; cancel the session once a box is ticked).
 */
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { deskLinkClass } from "~/desk/frame";
import { SMS_HELD_WORDS } from "../call-words";
import type { SessionAnswer } from "./actions.server";
import type { SessionDeskPage } from "./page.server";

/** The action's message. */
export function AnswerNotice({ answer }: { answer?: SessionAnswer }) {
  if (!answer?.message) return null;
  return (
    <div role="status" className="mt-4 rounded-xl border-2 border-primary bg-primary-soft p-4 text-lg">
      <p>{answer.message}</p>
    </div>
  );
}

/**
 * « À appeler »: whom no e-mail nor SMS reaches and who must be told by
 * telephone that the date moved or was cancelled, that a seat is free for
 * them (with the hold's end), or whose SMS the daily cap held (« SMS
 * retenu »); each line has « Appelé·e » (a post) until ticked, then the
 * time it was ticked. Shown while the session has a line.
 */
export function CallList({ calls }: { calls: SessionDeskPage["calls"] }) {
  if (!calls.length) return null;
  const left = calls.filter((call) => !call.calledAt).length;
  return (
    <section
      aria-labelledby="a-appeler"
      className="mt-6 rounded-2xl border-2 border-amber-700 bg-amber-50 p-4 text-lg text-amber-950"
    >
      <h2 id="a-appeler" className="text-2xl font-bold">
        À appeler
      </h2>
      <p className="mt-1">
        {left === 0
          ? "Tout le monde a été appelé."
          : `Ni e-mail ni SMS ne les atteint : prévenez-les par téléphone (${left} encore à appeler).`}
      </p>
      <ul className="mt-3 grid gap-3">
        {calls.map((call) => (
          <li key={call.id} className="rounded-xl border-2 border-amber-200 bg-white p-3">
            <p className="font-semibold">{call.name}</p>
            <p>
              <a href={call.tel} className={deskLinkClass}>
                {call.phone}
              </a>{" "}
              · {call.reason}
            </p>
            {call.holdUntil ? <p>Place gardée jusqu’au {call.holdUntil} : appelez avant.</p> : null}
            {call.offerClosed ? <p>Offre {call.offerClosed} : plus besoin d’appeler pour cette place.</p> : null}
            {call.smsHeld ? <p>{SMS_HELD_WORDS}</p> : null}
            {call.calledAt ? (
              <p className="mt-1">
                <span aria-hidden="true">✓ </span>Appelé·e le {call.calledAt}
              </p>
            ) : (
              <Form method="post" className="mt-2">
                <input type="hidden" name="intent" value="called" />
                <input type="hidden" name="call" value={call.id} />
                <Button type="submit" variant="outline">
                  Appelé·e
                  <span className="sr-only"> : {call.name}</span>
                </Button>
              </Form>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The dates of the session's series, the current one marked, the others linked. */
export function SeriesDates({ session }: { session: Pick<SessionDeskPage, "id" | "series"> }) {
  if (!session.series.length) return null;
  return (
    <section aria-labelledby="serie" className="mt-4 rounded-2xl border-2 border-gray-200 bg-white p-4 text-lg">
      <h2 id="serie" className="text-xl font-bold">
        Séance {session.series.findIndex((date) => date.id === session.id) + 1} sur {session.series.length} d’une série
      </h2>
      <p>Une inscription prend une place à chaque date : les inscrits ci-dessous sont ceux de la série.</p>
      <ul className="mt-2 flex flex-col gap-1">
        {session.series.map((date) => (
          <li key={date.id} className="first-letter:uppercase">
            {date.id === session.id ? (
              <strong aria-current="page">{date.label}</strong>
            ) : (
              <Link to={`/admin/cours/${date.id}`}>{date.label}</Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Registrations made from one connection on one day, to call before the course if unknown. */
export function Bursts({ groups }: { groups: SessionDeskPage["burstGroups"] }) {
  if (!groups.length) return null;
  return (
    <section
      aria-labelledby="rafales"
      className="mt-8 rounded-2xl border-2 border-amber-700 bg-amber-50 p-4 text-lg text-amber-950"
    >
      <h2 id="rafales" className="text-2xl font-bold">
        Inscriptions depuis une même connexion
      </h2>
      <ul className="mt-2 grid gap-2">
        {groups.map((burst) => (
          <li key={burst.group}>
            <span className="font-semibold">Connexion {burst.group}</span>, le {burst.day} : {burst.names.length}{" "}
            inscriptions ({burst.names.join(", ")}).
          </li>
        ))}
      </ul>
      <p className="mt-2">
        Ce peut être une famille ou un club qui inscrit ses membres. Si vous ne connaissez pas ces personnes,
        appelez-les avant le cours.
      </p>
    </section>
  );
}

/** "La même, une semaine plus tard" (or the series after its last date) and "Annuler la séance". */
export function OtherActions({ session }: { session: Pick<SessionDeskPage, "series" | "cancelled"> }) {
  return (
    <section aria-labelledby="autres" className="mt-10 flex flex-wrap gap-3">
      <h2 id="autres" className="sr-only">
        Autres actions
      </h2>
      <Form method="post">
        <input type="hidden" name="intent" value="duplicate" />
        <Button type="submit" variant="outline">
          {session.series.length
            ? "La même série, la semaine après sa dernière date"
            : "La même, une semaine plus tard"}
        </Button>
      </Form>
      {!session.cancelled ? (
        <Form method="post" className="flex flex-col gap-3 rounded-2xl border-2 border-red-800 p-4">
          <input type="hidden" name="intent" value="cancel-session" />
          <Checkbox
            id="confirm-cancel"
            name="confirm"
            value="oui"
            label="Je confirme : chaque personne inscrite sera prévenue (e-mail, ou liste à appeler)."
          />
          <Button type="submit" variant="outline" className="border-red-800 text-red-800 sm:self-start">
            Annuler la séance
          </Button>
        </Form>
      ) : null}
    </section>
  );
}
