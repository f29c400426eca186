/**
 * The intents of the desk's session page (`/admin/cours/:id`), one function
 * each, dispatched by the route's action on the posted `intent`: `edit`
 * (the session's form; a date of a series with people registered moves
 * and tells them, `moveSeriesDate`), `duplicate` (redirects to the copy),
 * `cancel-session` (a ticked box first), `register` (by telephone),
 * `give-seat`, `cancel-registration`, `called` (one line of the call
 * list ticked « appelé·e ») and `offer-declined` (a person offered a seat,
 * without e-mail, said by telephone she cannot come), `keep-course` and
 * `cancel-below-minimum` (a course below its minimum at its go/no-go time,
 * decision 052: kept, or cancelled once `confirm=oui`). Each returns `data(SessionAnswer)`
 * with the status the page shows (400 refused form, 409 conflict, 404
 * unknown registration) or throws a 404 / 303 redirect.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import {
  clockContext,
  dbContext,
  loggerContext,
  ownerContext,
  settingsContext,
  wakeOutboxContext,
} from "~/context.server";
import { audit, type AuditAction } from "~/desk/audit.server";
import type { DeskIntentArgs } from "~/desk/intent.server";
import { errorFields } from "~/db/errors.server";
import { markCalled } from "../calls.server";
import { cancelRegistrationByOwner } from "../cancel.server";
import { readSessionForm } from "../desk.server";
import { registerForSession } from "../register.server";
import { bookingMessages, bookingSchema, smsConsentSchema } from "../schema";
import { setSmsConsent } from "../sms-consent.server";
import { cancelSession, moveSeriesDate } from "../session-changes.server";
import { duplicateSession, updateSession } from "../sessions.server";
import { offerSeatsOf } from "../offer-job.server";
import { declineOfferByOwner, giveSeat } from "../offer-owner.server";
import { cancelBelowMinimum, keepCourse } from "../go-no-go.server";
import { linkOptionsOf } from "../link-options.server";

/** What the session page shows after a post: a message, or a form's errors and values (the call list is the page's). */
export type SessionAnswer = {
  message?: string;
  sessionErrors?: Partial<Record<string, string>>;
  sessionValues?: Record<string, string>;
  registerErrors?: Partial<Record<string, string[]>>;
};

const reply = (answer: SessionAnswer, status = 200) => data(answer, { status });

/** « 2 personnes sans e-mail à appeler : la liste est ci-dessous. », or nothing. */
function callsSentence(count: number): string {
  if (count === 0) return "";
  return ` ${count} personne${count > 1 ? "s" : ""} sans e-mail à appeler : la liste est ci-dessous.`;
}

/** « 3 e-mails d’annulation en route. 1 SMS en route. » and whom to call: what the owner reads after a cancellation. */
const toldSentence = ({ mailed, texted, toCall }: { mailed: number; texted: number; toCall: readonly unknown[] }) =>
  `${mailed} e-mail${mailed > 1 ? "s" : ""} d’annulation en route.${texted ? ` ${texted} SMS en route.` : ""}${callsSentence(toCall.length)}`;

/** The owner's message when the telephone is already registered for the session (the visitor's says to use the link). */
const DESK_ALREADY_REGISTERED =
  "Une inscription à cette séance existe déjà avec ce numéro de téléphone : elle est dans la liste ci-dessus. Pour la changer, annulez-la, puis inscrivez la personne à nouveau.";

/** Records what the owner did and wakes the outbox (a mail was queued). */
async function auditAndWake({ context }: DeskIntentArgs, action: AuditAction, details: Record<string, number>) {
  await audit(
    context.get(dbContext),
    { actor: context.get(ownerContext).userId, action, details },
    context.get(loggerContext),
  );
  context.get(wakeOutboxContext)();
}

/** `edit`: saves the session's form; a date of a series with registrants moves and tells them. */
export async function editSession(args: DeskIntentArgs) {
  const { form, context, id } = args;
  const db = context.get(dbContext);
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
    const moved = await moveSeriesDate(db, id, result.fields, {
      siteUrl: context.get(settingsContext).SITE_URL,
      now: context.get(clockContext).now(),
    });
    if (moved) {
      await auditAndWake(args, "series-date-moved", { session: id });
      return reply({
        message: `Date de la séance changée. ${moved.mailed} e-mail${moved.mailed > 1 ? "s" : ""} en route avec la nouvelle date.${callsSentence(moved.toCall.length)}`,
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
  // More seats: offered to the waiting list at once; fewer than held: the latest offers give way (decision 049).
  const offered = await offerSeatsOf(db, id, linkOptionsOf(context));
  if (offered) context.get(wakeOutboxContext)();
  return reply({
    message: offered
      ? `Séance enregistrée. Les places libres sont proposées à ${offered === 1 ? "la première personne" : `${offered} personnes`} de la liste d’attente.`
      : "Séance enregistrée.",
  });
}

/** `duplicate`: the same session (or series) a week later; redirects (303) to the copy. */
export async function duplicateSessionIntent({ context, id }: DeskIntentArgs): Promise<never> {
  const copy = await duplicateSession(context.get(dbContext), id, 7);
  if (!copy) throw data(null, { status: 404 });
  throw redirect(`/admin/cours/${copy}`, 303);
}

/** `cancel-session`: cancels the session once the box is ticked; mails registrants, lists the others. */
export async function cancelSessionIntent(args: DeskIntentArgs) {
  const { form, context, id } = args;
  if (form.get("confirm") !== "oui") {
    return reply({ message: "Cochez la case pour confirmer l’annulation de la séance." }, 400);
  }
  const { now, sms } = linkOptionsOf(context);
  const result = await cancelSession(context.get(dbContext), id, now, sms);
  if (!result) return reply({ message: "Cette séance est déjà annulée." }, 400);
  await auditAndWake(args, "session-cancelled", { session: id });
  return reply({
    message: `Séance annulée. ${toldSentence(result)}`,
  });
}

/** `called`: line `call` of the session's call list is ticked « appelé·e », with the time. */
export async function markCalledIntent({ form, context, id }: DeskIntentArgs) {
  const callId = Number(form.get("call"));
  const ticked =
    Number.isSafeInteger(callId) &&
    (await markCalled(context.get(dbContext), id, callId, context.get(clockContext).now()));
  if (!ticked) return reply({ message: "Cet appel n’est pas dans la liste, ou il est déjà coché." }, 404);
  return reply({ message: "Appel noté." });
}

/** `register`: a registration taken by telephone (the public booking schema, source "desk"). */
export async function registerByPhone({ form, context, id }: DeskIntentArgs) {
  const submission = parseWithZod(form, { schema: bookingSchema });
  if (submission.status !== "success") {
    const errors = Object.entries(submission.error ?? {}).filter(([, messages]) => messages?.length);
    return reply({ registerErrors: Object.fromEntries(errors) as Record<string, string[]> }, 400);
  }
  const result = await registerForSession(
    context.get(dbContext),
    { ...submission.value, sessionId: id },
    { siteUrl: context.get(settingsContext).SITE_URL, source: "desk" },
  );
  if (result.outcome === "already-registered")
    return reply({ registerErrors: { phone: [DESK_ALREADY_REGISTERED] } }, 409);
  if (result.outcome === "too-few-seats") return reply({ registerErrors: { seats: [bookingMessages.lastSeat] } }, 409);
  if (result.outcome === "closed" || result.outcome === "address-limit")
    return reply({ message: bookingMessages.closed }, 409);
  if (result.outcome === "payment") return reply({ registerErrors: result.errors }, 400);
  context.get(wakeOutboxContext)();
  return reply({
    message:
      result.outcome === "confirmed"
        ? "Inscription enregistrée."
        : `Séance complète : inscription en liste d’attente, position ${result.position}.`,
  });
}

/** `give-seat`: the waiting list's person `registration` takes a free seat. */
export async function giveSeatIntent(args: DeskIntentArgs) {
  const { form, context, id } = args;
  const registrationId = Number(form.get("registration"));
  const given =
    Number.isSafeInteger(registrationId) &&
    (await giveSeat(context.get(dbContext), registrationId, linkOptionsOf(context)));
  if (!given) return reply({ message: "Pas assez de places libres pour cette personne." }, 409);
  await auditAndWake(args, "seat-given", { session: id, registration: registrationId });
  return reply({
    message:
      "La place est donnée. Qui a une adresse e-mail reçoit la confirmation ; appelez les personnes sans e-mail.",
  });
}

/** `cancel-registration`: the owner cancels registration `registration`; its seat is freed. */
export async function cancelRegistrationIntent(args: DeskIntentArgs) {
  const { form, context, id } = args;
  const registrationId = Number(form.get("registration"));
  const result = Number.isSafeInteger(registrationId)
    ? await cancelRegistrationByOwner(context.get(dbContext), registrationId, {
        ...linkOptionsOf(context),
        sessionId: id,
      })
    : "not-found";
  if (result !== "cancelled") {
    const why = {
      "already-cancelled": "Cette inscription était déjà annulée.",
      "too-late": "La séance a commencé : l’inscription ne peut plus être annulée.",
      // The deadline binds the person's link only: never the owner's hand.
      "past-deadline": "Le délai d’annulation est passé.",
      "not-found": "Cette inscription n’existe pas.",
    } as const;
    return reply({ message: why[result] }, result === "not-found" ? 404 : 409);
  }
  await auditAndWake(args, "registration-cancelled", { session: id, registration: registrationId });
  return reply({
    message:
      "L’inscription est annulée et sa place est libre. Qui a une adresse e-mail reçoit la confirmation ; prévenez les autres par téléphone.",
  });
}

/** `offer-declined`: the open offer `offer` (a person without e-mail, called) closes; the seat goes to the next. */
export async function offerDeclinedIntent(args: DeskIntentArgs) {
  const { form, context, id } = args;
  const offerId = Number(form.get("offer"));
  const declined =
    Number.isSafeInteger(offerId) &&
    (await declineOfferByOwner(context.get(dbContext), offerId, id, linkOptionsOf(context)));
  if (!declined) return reply({ message: "Cette proposition n’est plus ouverte." }, 409);
  await auditAndWake(args, "offer-declined", { session: id, offer: offerId });
  return reply({ message: "C’est noté : la personne quitte la liste d’attente, la place va à la suivante." });
}

/**
 * `sms-consent`: the owner ticks or unticks « Accepte les SMS » of
 * registration `registration` (a registration of this page only); audited
 * with ids only.
 */
export async function smsConsentIntent(args: DeskIntentArgs) {
  const { form, context, id } = args;
  const submission = parseWithZod(form, { schema: smsConsentSchema });
  if (submission.status !== "success") return reply({ message: "Cette inscription n’existe pas." }, 400);
  const consent = submission.value.smsConsent === "on";
  const registrationId = submission.value.registration;
  const result = await setSmsConsent(context.get(dbContext), { sessionId: id, registrationId, consent });
  if (result === "not-found") return reply({ message: "Cette inscription n’existe pas." }, 404);
  if (result === "changed")
    await audit(
      context.get(dbContext),
      {
        actor: context.get(ownerContext).userId,
        action: consent ? "sms-consent-given" : "sms-consent-withdrawn",
        details: { session: id, registration: registrationId },
      },
      context.get(loggerContext),
    );
  return reply({
    message: consent
      ? "C’est noté : cette personne reçoit désormais ses rappels et messages par SMS (sur un mobile)."
      : "C’est noté : plus de SMS pour cette personne.",
  });
}

/** `keep-course`: « La maintenir quand même »: the course below its minimum runs; the badge goes. */
export async function keepCourseIntent(args: DeskIntentArgs) {
  const { context, id } = args;
  const kept = await keepCourse(context.get(dbContext), id, context.get(clockContext).now());
  if (!kept) return reply({ message: "Il n’y a plus rien à décider pour ce cours." }, 409);
  await audit(
    context.get(dbContext),
    { actor: context.get(ownerContext).userId, action: "course-kept", details: { session: id } },
    context.get(loggerContext),
  );
  return reply({ message: "C’est noté : le cours est maintenu." });
}

/** `cancel-below-minimum`: « Oui, annuler la session »: every date cancelled, everyone told, every seat freed. */
export async function cancelBelowMinimumIntent(args: DeskIntentArgs) {
  const { form, context, id } = args;
  if (form.get("confirm") !== "oui") {
    return reply({ message: "Confirmez d’abord l’annulation de la session avec « Oui, annuler la session »." }, 400);
  }
  const { now, sms } = linkOptionsOf(context);
  const told = await cancelBelowMinimum(context.get(dbContext), id, now, sms);
  if (!told) return reply({ message: "Il n’y a plus rien à décider pour ce cours." }, 409);
  await auditAndWake(args, "course-cancelled-below-minimum", { session: id });
  return reply({
    message: `Session annulée, toutes les places sont libérées. ${toldSentence(told)}`,
  });
}

/** The answer to an intent the page does not know. */
export const unknownIntent = () => reply({ message: "Action inconnue." }, 400);
