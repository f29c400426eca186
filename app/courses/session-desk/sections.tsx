/**
 * Parts of the desk's session page (`/admin/cours/:id`): the answer to the
 * last post (with the people without e-mail to call), the dates of its
 * series, the bursts of registrations from one connection, and the
 * "other actions" (duplicate; cancel the session once a box is ticked).
 */
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { telHref } from "~/desk/frame";
import type { SessionAnswer } from "./actions.server";
import type { SessionDeskPage } from "./page.server";

/** The action's message, and who has no e-mail and must be called. */
export function AnswerNotice({ answer }: { answer?: SessionAnswer }) {
  if (!answer?.message) return null;
  return (
    <div role="status" className="mt-4 rounded-xl border-2 border-primary bg-primary-soft p-4 text-lg">
      <p>{answer.message}</p>
      {answer.toCall?.length ? (
        <>
          <p className="mt-2 font-semibold">Sans e-mail, à appeler :</p>
          <ul>
            {answer.toCall.map((person) => (
              <li key={`${person.name}-${person.phone}`}>
                {person.name} : <a href={telHref(person.phone)}>{person.phone}</a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
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
