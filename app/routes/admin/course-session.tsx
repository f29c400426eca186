/**
 * `/admin/cours/:id`: one session in the desk: its registrants and waiting
 * list (telephone links), the printable attendance list and the CSV, a
 * registration taken by telephone (it counts against capacity), the
 * session's form (a date of a series with people registered may move:
 * they are told, `moveSeriesDate`), "la même, une semaine plus tard" (a date of a series: the
 * same series after its last date, never one date alone), and cancelling the
 * session (a box to tick first; mails every registrant with an e-mail,
 * lists the others to call), and cancelling one registration: its
 * "Annuler l’inscription" link (`?annuler={id}`) asks once, in the
 * person's card, and "Oui, annuler" posts (`cancelRegistrationByOwner`:
 * the seat is freed, whoever has an e-mail is mailed, audited); the
 * waiting list's "Donner la place" then takes the next person in. A burst
 * of registrations from one client address on one day (at least
 * BOOKING_BURST_REGISTRATIONS, app/courses/limits.server.ts `burstsOf`) is
 * flagged above the lists, and on each card of it. "Faire une facture"
 * starts an invoice for a registrant (`/admin/factures/nouvelle?inscription={id}`). Each form
 * posts `intent` to this page's action
 * (`edit|duplicate|cancel-session|register|give-seat|cancel-registration`);
 * all work without JavaScript.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { courses } from "~/content/courses";
import { Field } from "~/components/form-parts";
import { cancelRegistrationByOwner } from "~/courses/cancel.server";
import { registerForSession } from "~/courses/register.server";
import { listRegistrations } from "~/courses/registrations.server";
import { cancelSession, moveSeriesDate } from "~/courses/session-changes.server";
import { giveSeat } from "~/courses/waiting-list.server";
import { readSessionForm, REGISTRATION_STATUS_LABELS, sessionFormValues } from "~/courses/desk.server";
import { burstsOf } from "~/courses/limits.server";
import { bookingMessages, bookingSchema } from "~/courses/schema";
import { SessionForm } from "~/courses/session-form";
import {
  courseBySlug,
  duplicateSession,
  getSession,
  seriesSessions,
  SESSION_STATE_LABELS,
  sessionEnd,
  sessionState,
  updateSession,
} from "~/courses/sessions.server";
import { audit } from "~/desk/audit.server";
import { DeskBackLink, telHref } from "~/desk/frame";
import { idParam } from "~/desk/route-params.server";
import { deskHandle, deskMeta } from "~/desk/meta";
import { readFormData } from "~/guards/body.server";
import { errorFields } from "~/db/errors.server";
import { formatDate, formatDateTimeRange, isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/course-session";
import {
  settingsContext,
  dbContext,
  loggerContext,
  wakeOutboxContext,
  ownerContext,
  clockContext,
} from "~/context.server";

export const handle = deskHandle;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const asked = Number(new URL(request.url).searchParams.get("annuler"));
  const id = idParam(params.id);
  const session = await getSession(context.get(dbContext), id);
  if (!session) throw data(null, { status: 404 });
  const registrations = await listRegistrations(context.get(dbContext), id);
  // A date of a series: its place among the series' dates, each linked (the registrations are the series').
  const dates = session.seriesId === null ? [] : await seriesSessions(context.get(dbContext), [session.seriesId]);
  dates.sort((a, b) => new Date(a.startsAt).getTime() - new Date(b.startsAt).getTime());
  const bursts = burstsOf(registrations, context.get(settingsContext).BOOKING_BURST_REGISTRATIONS);
  const person = (row: (typeof registrations)[number]) => ({
    id: row.id,
    name: `${row.firstName} ${row.lastName}`,
    seats: row.seats,
    phone: row.phone,
    tel: telHref(row.phone),
    email: row.email,
    booker: row.bookerFirstName
      ? { name: `${row.bookerFirstName} ${row.bookerLastName ?? ""}`.trim(), phone: row.bookerPhone ?? "" }
      : null,
    message: row.message,
    codeWord: row.codeWord,
    source: row.source,
    status: REGISTRATION_STATUS_LABELS[row.status] ?? row.status,
    /** "Annuler l’inscription" was followed for this person: the card asks "Oui, annuler". */
    asking: row.id === asked,
    /** Whoever of the attendee and the relative gets the cancellation by e-mail. */
    mailed: Boolean(row.email || row.bookerEmail),
    /** The burst (from one client address on one day) this registration is part of, numbered from 1. */
    burst: bursts.get(row.id) ?? null,
  });
  const burstGroups = [...new Set(bursts.values())].map((group) => {
    const rows = registrations.filter((row) => bursts.get(row.id) === group);
    return {
      group,
      day: formatDate(isoDateInZurich(rows[0]!.createdAt)),
      names: rows.map((row) => `${row.firstName} ${row.lastName}${row.status === "cancelled" ? " (annulée)" : ""}`),
    };
  });
  return {
    id,
    title: courseBySlug(session.courseId)?.title ?? session.courseId,
    when: formatDateTimeRange(session.startsAt, sessionEnd(session)),
    place: `${session.placeName}, ${session.placeAddress}`,
    state: SESSION_STATE_LABELS[sessionState(session, session.waiting, context.get(clockContext).now())],
    cancelled: Boolean(session.cancelledAt),
    seats: `${session.seatsTaken} / ${session.capacity}`,
    free: session.capacity - session.seatsTaken,
    minimum: session.minimum,
    courseId: session.courseId,
    series: dates.map((date, index) => ({
      id: date.id,
      label: `Séance ${index + 1} : ${formatDateTimeRange(date.startsAt, sessionEnd(date))}${date.cancelledAt ? " (annulée)" : ""}`,
    })),
    confirmed: registrations.filter((row) => row.status === "confirmed").map(person),
    waiting: registrations.filter((row) => row.status === "waiting").map(person),
    cancelledCount: registrations.filter((row) => row.status === "cancelled").length,
    burstGroups,
    courses: courses.map((course) => ({ id: course.id, title: course.title })),
    values: sessionFormValues(session),
  };
}

export const meta: Route.MetaFunction = ({ data: loaded, matches }) =>
  deskMeta(loaded ? `${loaded.title}, séance n° ${loaded.id}` : "Séance introuvable", matches);

type Answer = {
  message?: string;
  toCall?: { name: string; phone: string }[];
  sessionErrors?: Partial<Record<string, string>>;
  sessionValues?: Record<string, string>;
  registerErrors?: Partial<Record<string, string[]>>;
};

/** The owner's message when the telephone is already registered for the session (the visitor's says to use the link). */
const DESK_ALREADY_REGISTERED =
  "Une inscription à cette séance existe déjà avec ce numéro de téléphone : elle est dans la liste ci-dessus. Pour la changer, annulez-la, puis inscrivez la personne à nouveau.";

export async function action({ request, context, params }: Route.ActionArgs) {
  const owner = context.get(ownerContext);
  const id = idParam(params.id);
  const db = context.get(dbContext);
  const form = await readFormData(request, 64 * 1024);
  const intent = form.get("intent");
  const siteUrl = context.get(settingsContext).SITE_URL;
  const reply = (answer: Answer, status = 200) => data(answer, { status });

  if (intent === "edit") {
    const result = readSessionForm(form);
    if (!result.ok) return reply({ sessionErrors: result.errors, sessionValues: result.values }, 400);
    let updated: Awaited<ReturnType<typeof updateSession>>;
    try {
      updated = await updateSession(db, id, result.fields);
    } catch (error) {
      // The table's check: fewer places than seats already taken.
      context.get(loggerContext).warn({ err: errorFields(error) }, "desk: session update refused");
      return reply(
        {
          sessionErrors: {
            capacity: "Plus de places sont déjà prises : le nombre de places ne peut pas être plus bas.",
          },
          sessionValues: Object.fromEntries(form.entries()) as Record<string, string>,
        },
        400,
      );
    }
    if (updated === "not-found") throw data(null, { status: 404 });
    if (updated === "promised") {
      // A date of a series: its registrants are told of the new date (moveSeriesDate); its course stays.
      const moved = await moveSeriesDate(db, id, result.fields, { siteUrl });
      if (moved) {
        await audit(
          db,
          { actor: owner.userId, action: "series-date-moved", details: { session: id } },
          context.get(loggerContext),
        );
        context.get(wakeOutboxContext)();
        return reply({
          message: `Date de la séance changée. ${moved.mailed} e-mail${moved.mailed > 1 ? "s" : ""} en route avec la nouvelle date.`,
          toCall: moved.toCall,
        });
      }
      return reply(
        {
          message:
            "Des personnes sont inscrites : le cours, la date, l’heure, la durée et le lieu ne peuvent plus changer. Pour les changer, annulez la séance (chacun est prévenu) et créez-en une autre.",
          sessionValues: Object.fromEntries(form.entries()) as Record<string, string>,
        },
        409,
      );
    }
    return reply({ message: "Séance enregistrée." });
  }
  if (intent === "duplicate") {
    const copy = await duplicateSession(db, id, 7);
    if (!copy) throw data(null, { status: 404 });
    throw redirect(`/admin/cours/${copy}`, 303);
  }
  if (intent === "cancel-session") {
    if (form.get("confirm") !== "oui") {
      return reply({ message: "Cochez la case pour confirmer l’annulation de la séance." }, 400);
    }
    const result = await cancelSession(db, id);
    if (!result) return reply({ message: "Cette séance est déjà annulée." }, 400);
    await audit(
      db,
      { actor: owner.userId, action: "session-cancelled", details: { session: id } },
      context.get(loggerContext),
    );
    context.get(wakeOutboxContext)();
    return reply({
      message: `Séance annulée. ${result.mailed} e-mail${result.mailed > 1 ? "s" : ""} d’annulation en route.`,
      toCall: result.toCall,
    });
  }
  if (intent === "register") {
    const submission = parseWithZod(form, { schema: bookingSchema });
    if (submission.status !== "success") {
      const errors = Object.entries(submission.error ?? {}).filter(([, messages]) => messages?.length);
      return reply({ registerErrors: Object.fromEntries(errors) as Record<string, string[]> }, 400);
    }
    const result = await registerForSession(db, { ...submission.value, sessionId: id }, { siteUrl, source: "desk" });
    if (result.outcome === "already-registered")
      return reply({ registerErrors: { phone: [DESK_ALREADY_REGISTERED] } }, 409);
    if (result.outcome === "too-few-seats")
      return reply({ registerErrors: { seats: [bookingMessages.lastSeat] } }, 409);
    if (result.outcome === "closed" || result.outcome === "address-limit")
      return reply({ message: bookingMessages.closed }, 409);
    context.get(wakeOutboxContext)();
    return reply({
      message:
        result.outcome === "confirmed"
          ? "Inscription enregistrée."
          : `Séance complète : inscription en liste d’attente, position ${result.position}.`,
    });
  }
  if (intent === "give-seat") {
    const registrationId = Number(form.get("registration"));
    const given = Number.isSafeInteger(registrationId) && (await giveSeat(db, registrationId, { siteUrl }));
    if (given) {
      await audit(
        db,
        { actor: owner.userId, action: "seat-given", details: { session: id, registration: registrationId } },
        context.get(loggerContext),
      );
      context.get(wakeOutboxContext)();
    }
    return given
      ? reply({
          message:
            "La place est donnée. Qui a une adresse e-mail reçoit la confirmation ; appelez les personnes sans e-mail.",
        })
      : reply({ message: "Pas assez de places libres pour cette personne." }, 409);
  }
  if (intent === "cancel-registration") {
    const registrationId = Number(form.get("registration"));
    const result = Number.isSafeInteger(registrationId)
      ? await cancelRegistrationByOwner(db, registrationId, { siteUrl, sessionId: id })
      : "not-found";
    if (result !== "cancelled") {
      const why = {
        "already-cancelled": "Cette inscription était déjà annulée.",
        "too-late": "La séance a commencé : l’inscription ne peut plus être annulée.",
        "not-found": "Cette inscription n’existe pas.",
      } as const;
      return reply({ message: why[result] }, result === "not-found" ? 404 : 409);
    }
    await audit(
      db,
      { actor: owner.userId, action: "registration-cancelled", details: { session: id, registration: registrationId } },
      context.get(loggerContext),
    );
    context.get(wakeOutboxContext)();
    return reply({
      message:
        "L’inscription est annulée et sa place est libre. Qui a une adresse e-mail reçoit la confirmation ; prévenez les autres par téléphone.",
    });
  }
  return reply({ message: "Action inconnue." }, 400);
}

export default function DeskSession() {
  const session = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const registerField = (name: string) => ({
    id: `register-${name}`,
    errorId: `register-${name}-error`,
    errors: answer?.registerErrors?.[name],
  });
  const registerAria = (name: string) =>
    answer?.registerErrors?.[name] ? { "aria-invalid": true, "aria-describedby": `register-${name}-error` } : {};
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
      {answer?.message ? (
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
      ) : null}
      {session.series.length ? (
        <section aria-labelledby="serie" className="mt-4 rounded-2xl border-2 border-gray-200 bg-white p-4 text-lg">
          <h2 id="serie" className="text-xl font-bold">
            Séance {session.series.findIndex((date) => date.id === session.id) + 1} sur {session.series.length} d’une
            série
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
      ) : null}
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

      {session.burstGroups.length ? (
        <section
          aria-labelledby="rafales"
          className="mt-8 rounded-2xl border-2 border-amber-700 bg-amber-50 p-4 text-lg text-amber-950"
        >
          <h2 id="rafales" className="text-2xl font-bold">
            Inscriptions depuis une même connexion
          </h2>
          <ul className="mt-2 grid gap-2">
            {session.burstGroups.map((burst) => (
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
      ) : null}
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

      {!session.cancelled ? (
        <section aria-labelledby="telephone" className="mt-10">
          <h2 id="telephone" className="text-2xl font-bold">
            Inscription prise par téléphone
          </h2>
          <Form method="post" noValidate className="mt-4 grid gap-4 rounded-2xl border-2 border-gray-200 bg-white p-5">
            <input type="hidden" name="intent" value="register" />
            <input type="hidden" name="sessionId" value={session.id} />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field field={registerField("firstName")} label="Prénom">
                <Input id="register-firstName" name="firstName" {...registerAria("firstName")} />
              </Field>
              <Field field={registerField("lastName")} label="Nom">
                <Input id="register-lastName" name="lastName" {...registerAria("lastName")} />
              </Field>
              <Field field={registerField("phone")} label="Téléphone">
                <Input id="register-phone" name="phone" type="tel" {...registerAria("phone")} />
              </Field>
              <Field field={registerField("email")} label="E-mail (facultatif)">
                <Input id="register-email" name="email" type="email" {...registerAria("email")} />
              </Field>
            </div>
            <Field field={registerField("seats")} label="Places">
              <select
                id="register-seats"
                name="seats"
                defaultValue="1"
                className="block min-h-12 w-32 rounded-xl border-2 border-gray-500 bg-white px-3 text-lg"
                {...registerAria("seats")}
              >
                <option value="1">1</option>
                <option value="2">2</option>
              </select>
            </Field>
            <Button type="submit" className="sm:justify-self-start">
              Inscrire
            </Button>
          </Form>
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
    </div>
  );
}

type Person = ReturnType<typeof useLoaderData<typeof loader>>["confirmed"][number];

/**
 * Registrants with their telephone link, e-mail, the relative who
 * registered them and their message; "Donner la place" (waiting list), and
 * "Annuler l’inscription", which asks once in the card ("Oui, annuler").
 */
function PeopleList({
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
          {person.burst ? (
            <p className="font-semibold text-amber-950">
              Même connexion que d’autres inscriptions (connexion {person.burst})
            </p>
          ) : null}
          {person.message ? <p className="whitespace-pre-line text-muted">{person.message}</p> : null}
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
            {!numbered ? (
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
                Annuler l’inscription de {person.name}&nbsp;?
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
