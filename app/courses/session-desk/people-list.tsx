/**
 * The session page's registrant cards: telephone link, e-mail, the relative
 * who registered them, code word, burst flag and message; "Donner la
 * place" (waiting list), how they pay ("Faire une facture" for those paying
 * « sur facture » only), « Accepte les SMS » (a box and « Enregistrer »,
 * `intent=sms-consent`: the owner ticks it for a person who agreed by
 * telephone, or unticks it), and "Annuler l’inscription",
 * which asks once in the card ("Oui, annuler") and posts
 * `intent=cancel-registration` to `/admin/cours/{sessionId}`.
 */
import { Form, Link } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { telHref } from "~/desk/frame";
import type { SessionDeskPerson as Person } from "./page.server";
import { ofName } from "~/utils/format";

/**
 * Registrants with their telephone link, e-mail, the relative who
 * registered them and their message; "Donner la place" (waiting list), and
 * "Annuler l’inscription", which asks once in the card ("Oui, annuler").
 */
export function PeopleList({
  people,
  empty,
  sessionId,
  giveSeat,
  cancellable,
  numbered,
}: {
  people: Person[];
  empty: string;
  sessionId: number;
  giveSeat?: boolean;
  cancellable?: boolean;
  numbered?: boolean;
}) {
  if (people.length === 0) return <p className="mt-2 text-lg text-muted">{empty}</p>;
  const List = numbered ? "ol" : "ul";
  return (
    <List className="mt-3 grid gap-3">
      {people.map((person, index) => (
        <li
          key={person.id}
          id={`personne-${person.id}`}
          className="scroll-mt-24 rounded-2xl border-2 border-gray-200 bg-white p-4 text-lg"
        >
          <p className="font-bold">
            {numbered ? `${index + 1}. ` : ""}
            {person.name}
            {person.seats > 1 ? ` (${person.seats} places)` : ""}
            {person.source === "desk" ? " · par téléphone" : ""}
          </p>
          <p>
            <a href={person.tel}>{person.phone}</a>
            {person.email ? (
              <>
                {" · "}
                <a href={`mailto:${person.email}`}>{person.email}</a>
              </>
            ) : (
              " · sans e-mail"
            )}
          </p>
          {person.booker ? (
            <p>
              Inscrit(e) par {person.booker.name}, <a href={telHref(person.booker.phone)}>{person.booker.phone}</a>
            </p>
          ) : null}
          {person.codeWord ? <p>Mot de code : « {person.codeWord} »</p> : null}
          <p>Paiement : {person.payment}</p>
          {person.burst ? (
            <p className="font-semibold text-amber-950">
              Même connexion que d’autres inscriptions (connexion {person.burst})
            </p>
          ) : null}
          {person.message ? <p className="whitespace-pre-line text-muted">{person.message}</p> : null}
          <Form
            key={`sms-${person.id}-${person.smsConsent}`}
            method="post"
            action={`/admin/cours/${sessionId}`}
            className="mt-2 flex flex-wrap items-center gap-x-3"
          >
            <input type="hidden" name="intent" value="sms-consent" />
            <input type="hidden" name="registration" value={person.id} />
            <Checkbox
              id={`sms-${person.id}`}
              name="smsConsent"
              value="on"
              defaultChecked={person.smsConsent}
              label={person.mobile ? "Accepte les SMS" : "Accepte les SMS (numéro fixe : pas de SMS possible)"}
            />
            <Button type="submit" variant="outline">
              Enregistrer<span className="sr-only"> : SMS, {person.name}</span>
            </Button>
          </Form>
          <div className="mt-2 flex flex-wrap gap-3">
            {giveSeat ? (
              <Form method="post" action={`/admin/cours/${sessionId}`}>
                <input type="hidden" name="intent" value="give-seat" />
                <input type="hidden" name="registration" value={person.id} />
                <Button type="submit" variant="outline">
                  Donner la place
                </Button>
              </Form>
            ) : null}
            {!numbered && person.paysBy === "facture" ? (
              <Link
                to={`/admin/factures/nouvelle?inscription=${person.id}`}
                className={buttonVariants({ variant: "outline" })}
              >
                Faire une facture
              </Link>
            ) : null}
            {cancellable && !person.asking ? (
              <Link
                to={`/admin/cours/${sessionId}?annuler=${person.id}#personne-${person.id}`}
                className={buttonVariants({ variant: "ghost" })}
              >
                Annuler l’inscription
              </Link>
            ) : null}
          </div>
          {cancellable && person.asking ? (
            <div
              role="group"
              aria-labelledby={`annuler-${person.id}`}
              className="mt-3 rounded-xl border-2 border-red-800 p-4"
            >
              <p id={`annuler-${person.id}`} className="font-semibold">
                {`Annuler l’inscription ${ofName(person.name)}\u00a0?`}
              </p>
              <p className="mt-1">
                {person.seats > 1 ? "Ses places seront libérées. " : "Sa place sera libérée. "}
                {person.mailed
                  ? "Un e-mail confirmera l’annulation."
                  : "Sans e-mail : prévenez la personne par téléphone."}
              </p>
              <div className="mt-3 flex flex-wrap gap-3">
                <Form method="post" action={`/admin/cours/${sessionId}`}>
                  <input type="hidden" name="intent" value="cancel-registration" />
                  <input type="hidden" name="registration" value={person.id} />
                  <Button type="submit" variant="outline" className="border-red-800 text-red-800">
                    Oui, annuler
                  </Button>
                </Form>
                <Link
                  to={`/admin/cours/${sessionId}#personne-${person.id}`}
                  className={buttonVariants({ variant: "ghost" })}
                >
                  Non, garder
                </Link>
              </div>
            </div>
          ) : null}
        </li>
      ))}
    </List>
  );
}
