/**
 * `/admin/cours/:id`: one session in the desk: its registrants and waiting
 * list (telephone links), the printable attendance list and the CSV, a
 * registration taken by telephone (it counts against capacity), the
 * session's form (a date of a series with people registered may move:
 * they are told, `moveSeriesDate`), "la même, une semaine plus tard" (a date of a series: the
 * same series after its last date, never one date alone), and cancelling the
 * session (a box to tick first; mails every registrant with an e-mail,
 * puts the others on the page's « À appeler » list, kept until each is
 * ticked « appelé·e »), and cancelling one registration: its
 * "Annuler l’inscription" link (`?annuler={id}`) asks once, in the
 * person's card, and "Oui, annuler" posts (`cancelRegistrationByOwner`:
 * the seat is freed, whoever has an e-mail is mailed, audited); the
 * waiting list's "Donner la place" then takes the next person in. A burst
 * of registrations from one client address on one day (at least
 * BOOKING_BURST_REGISTRATIONS, app/courses/limits.server.ts `burstsOf`) is
 * flagged above the lists, and on each card of it. "Faire une facture"
 * starts an invoice for a registrant (`/admin/factures/nouvelle?inscription={id}`). The mails of its
 * registrations that did not arrive are listed first, with « Corriger et renvoyer » (posted to
 * `/admin/non-remis`, which comes back here). « Courrier et attestations »
 * (app/letters/paper-section.tsx): letters for the post (`lettres.pdf`),
 * attendance certificates (`attestations.pdf`) and the list to sign
 * (`liste-signatures.pdf`). Each form
 * posts `intent` to this page's action
 * (`edit|duplicate|cancel-session|register|give-seat|cancel-registration|called|offer-declined|keep-course|cancel-below-minimum|letters-sent|letter-address`);
 * all work without JavaScript. One function per intent:
 * app/courses/session-desk/actions.server.ts; the page's data and parts
 * beside it.
 */
import { data, Link, useActionData, useLoaderData } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import {
  cancelBelowMinimumIntent,
  cancelRegistrationIntent,
  cancelSessionIntent,
  duplicateSessionIntent,
  editSession,
  giveSeatIntent,
  keepCourseIntent,
  markCalledIntent,
  offerDeclinedIntent,
  smsConsentIntent,
  registerByPhone,
  unknownIntent,
} from "~/courses/session-desk/actions.server";
import { sessionDeskPage } from "~/courses/session-desk/page.server";
import { PeopleList } from "~/courses/session-desk/people-list";
import { RegisterByPhoneForm } from "~/courses/session-desk/register-form";
import { AnswerNotice, Bursts, CallList, OtherActions, SeriesDates } from "~/courses/session-desk/sections";
import { OfferList } from "~/courses/session-desk/offer-list";
import { GoNoGoDecision } from "~/courses/session-desk/decision";
import { SessionForm } from "~/courses/session-form";
import { DeskBackLink } from "~/desk/frame";
import { deskHandle, deskMeta } from "~/desk/meta";
import { idParam } from "~/desk/route-params.server";
import { readFormData } from "~/guards/body.server";
import type { Route } from "./+types/course-session";
import { dbContext } from "~/context.server";
import { UndeliveredMails, UndeliveredOutcome } from "~/desk/undelivered";
import { undeliveredFor } from "./undelivered/page.server";
import { UNDELIVERED_PATH } from "./undelivered/path";
import { letterAddressIntent, lettersSentIntent, paperSection } from "~/letters/desk.server";
import { PaperSection } from "~/letters/paper-section";

/** What the page says when a PDF had nothing to print (`?courrier=`). */
const PAPER_NOTICES: Record<string, string> = {
  vide: "Aucune lettre à imprimer : les personnes choisies n’ont pas d’adresse postale. Ajoutez-la dans « Courrier et attestations ».",
  personne: "Aucune lettre à imprimer : cochez d’abord les personnes à qui écrire.",
  "aucune-presence": "Aucune attestation à imprimer : personne n’est noté présent. Cochez les présences d’abord.",
};

export const handle = deskHandle;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const asked = Number(new URL(request.url).searchParams.get("annuler"));
  const page = await sessionDeskPage(context, idParam(params.id), asked);
  if (!page) throw data(null, { status: 404 });
  const { mailIds, ...shown } = page;
  const paperNotice = PAPER_NOTICES[new URL(request.url).searchParams.get("courrier") ?? ""] ?? null;
  return {
    ...shown,
    undelivered: await undeliveredFor(context.get(dbContext), { mailIds }),
    outcome: new URL(request.url).searchParams.get("envoi"),
    paper: await paperSection(context.get(dbContext), page.id),
    paperNotice,
    /** « Annuler la session » of the go/no-go was followed: its confirmation is shown. */
    askingCancel: new URL(request.url).searchParams.has("annuler-cours"),
  };
}

export const meta: Route.MetaFunction = ({ data: loaded, matches }) =>
  deskMeta(loaded ? `${loaded.title}, séance n° ${loaded.id}` : "Séance introuvable", matches);

export async function action({ request, context, params }: Route.ActionArgs) {
  const args = { form: await readFormData(request, 64 * 1024), context, id: idParam(params.id) };
  switch (args.form.get("intent")) {
    case "edit":
      return editSession(args);
    case "duplicate":
      return duplicateSessionIntent(args);
    case "cancel-session":
      return cancelSessionIntent(args);
    case "register":
      return registerByPhone(args);
    case "give-seat":
      return giveSeatIntent(args);
    case "cancel-registration":
      return cancelRegistrationIntent(args);
    case "called":
      return markCalledIntent(args);
    case "offer-declined":
      return offerDeclinedIntent(args);
    case "sms-consent":
      return smsConsentIntent(args);
    case "keep-course":
      return keepCourseIntent(args);
    case "cancel-below-minimum":
      return cancelBelowMinimumIntent(args);
    case "letters-sent":
      return lettersSentIntent(args);
    case "letter-address":
      return letterAddressIntent(args);
    default:
      return unknownIntent();
  }
}

export default function DeskSession() {
  const session = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <DeskBackLink to="/admin/cours">Tous les cours</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">{session.title}</h1>
      <p className="mt-2 text-xl first-letter:uppercase">{session.when}</p>
      <p className="text-lg">{session.place}</p>
      <p className="mt-2 text-lg">
        <span className="font-semibold">{session.state}</span> · {session.seats} places prises · minimum{" "}
        {session.minimum}
      </p>
      <AnswerNotice answer={answer} />
      <GoNoGoDecision decision={session.decision} asking={session.askingCancel} />
      <AnswerNotice answer={session.paperNotice ? { message: session.paperNotice } : undefined} />
      <UndeliveredOutcome outcome={session.outcome} />
      <UndeliveredMails mails={session.undelivered} action={UNDELIVERED_PATH} back={`/admin/cours/${session.id}`} />
      <CallList calls={session.calls} />
      <OfferList offers={session.offers} />
      <SeriesDates session={session} />
      <p className="mt-4 flex flex-wrap gap-3">
        <Link to={`/admin/cours/${session.id}/presences`} className={buttonVariants()}>
          Liste de présence
        </Link>
        <a href={`/admin/cours/${session.id}/inscrits.csv`} download className={buttonVariants({ variant: "outline" })}>
          Télécharger en CSV
        </a>
        <a href={`/cours/${session.courseId}`} className={buttonVariants({ variant: "ghost" })}>
          Page publique
        </a>
      </p>

      <Bursts groups={session.burstGroups} />
      <section aria-labelledby="inscrits" className="mt-8">
        <h2 id="inscrits" className="text-2xl font-bold">
          Inscrits ({session.confirmed.reduce((sum, person) => sum + person.seats, 0)} places)
        </h2>
        <PeopleList
          people={session.confirmed}
          empty="Personne n’est encore inscrit."
          sessionId={session.id}
          cancellable={!session.cancelled}
        />
      </section>
      <section aria-labelledby="attente" className="mt-8">
        <h2 id="attente" className="text-2xl font-bold">
          Liste d’attente ({session.waiting.length})
        </h2>
        <PeopleList
          people={session.waiting}
          empty="Personne n’attend."
          sessionId={session.id}
          giveSeat={session.free > 0}
          cancellable={!session.cancelled}
          numbered
        />
        {session.cancelledCount > 0 ? (
          <p className="mt-2 text-lg text-muted">
            {session.cancelledCount} inscription{session.cancelledCount > 1 ? "s" : ""} annulée
            {session.cancelledCount > 1 ? "s" : ""}.
          </p>
        ) : null}
      </section>
      <PaperSection sessionId={session.id} people={session.paper} />

      {!session.cancelled ? (
        <section aria-labelledby="telephone" className="mt-10">
          <h2 id="telephone" className="text-2xl font-bold">
            Inscription prise par téléphone
          </h2>
          <RegisterByPhoneForm sessionId={session.id} errors={answer?.registerErrors} payment={session.payment} />
        </section>
      ) : null}

      <section aria-labelledby="modifier" className="mt-10">
        <h2 id="modifier" className="text-2xl font-bold">
          Modifier la séance
        </h2>
        <SessionForm
          courses={session.courses}
          values={{ ...session.values, ...answer?.sessionValues }}
          errors={answer?.sessionErrors}
          submitLabel="Enregistrer"
          intent="edit"
        />
      </section>
      <OtherActions session={session} />
    </div>
  );
}
