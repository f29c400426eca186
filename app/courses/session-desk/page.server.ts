/**
 * What the desk's session page (`/admin/cours/:id`) shows: the session,
 * its series' dates, its registrants and waiting list as cards, the bursts
 * of registrations from one client address on one day (at least
 * BOOKING_BURST_REGISTRATIONS, `burstsOf`), its call list (`callsOf`: who
 * has no e-mail and must be told of a change, ticked « appelé·e » with the
 * time), the seats offered from its waiting list (`offersOf`: to whom, held
 * until when, answered or not; decision 049), the go/no-go still to decide
 * (`goNoGoOf`, decision 052), and the session form's values.
 */
import { mobileNumber } from "~/mail/sms.server";
import { paysByInWords } from "~/content/payment";
import { courses } from "~/content/courses";
import { clockContext, dbContext, settingsContext, type RequestContext } from "~/context.server";
import { telHref } from "~/desk/frame";
import { formatDate, formatDateTime, formatDateTimeRange, isoDateInZurich } from "~/utils/format";
import { CALL_REASON_LABELS, callsOf } from "../calls.server";
import { REGISTRATION_STATUS_LABELS, sessionFormValues } from "../desk.server";
import { burstsOf } from "../limits.server";
import { listRegistrations } from "../registrations.server";
import { OFFER_STATE_LABELS, offerStateAt } from "../offer-rules";
import { offersOf } from "../offer-list.server";
import { goNoGoOf } from "../go-no-go.server";
import { courseBySlug, getSession, seriesSessions, deskSessionStateLabel, sessionEnd } from "../sessions.server";

/** The session page's data. */
export type SessionDeskPage = NonNullable<Awaited<ReturnType<typeof sessionDeskPage>>>;

/** One registrant's card on the session page. */
export type SessionDeskPerson = SessionDeskPage["confirmed"][number];

/**
 * The page of session `id`, or null when there is none. `asked` is the
 * registration whose "Annuler l’inscription" was followed (`?annuler=`).
 */
export async function sessionDeskPage(context: RequestContext, id: number, asked: number) {
  const session = await getSession(context.get(dbContext), id);
  if (!session) return null;
  const [registrations, calls, offers, decision] = await Promise.all([
    listRegistrations(context.get(dbContext), id),
    callsOf(context.get(dbContext), id),
    offersOf(context.get(dbContext), id),
    goNoGoOf(context.get(dbContext), id),
  ]);
  const now = context.get(clockContext).now();
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
    /** She agreed to reminders and messages by SMS (decision 060: the owner may tick or untick it). */
    smsConsent: row.smsConsent,
    /** Her telephone is a Swiss mobile: an SMS can reach it. */
    mobile: mobileNumber(row.phone) !== null,
    /** Whoever of the attendee and the relative gets the cancellation by e-mail. */
    mailed: Boolean(row.email || row.bookerEmail),
    /** The burst (from one client address on one day) this registration is part of, numbered from 1. */
    burst: bursts.get(row.id) ?? null,
    /** How it pays: « Sur place », or « Sur facture » with the address (« Faire une facture » only then). */
    paysBy: row.paysBy,
    payment: paysByInWords(row),
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
    state: deskSessionStateLabel(session, session.waiting, context.get(clockContext).now()),
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
    calls: calls.map((call) => {
      // An offer answered, withdrawn or past its hold needs no call any more (its end is not shown then).
      const state =
        call.offerState && call.holdUntil
          ? offerStateAt({ state: call.offerState, holdUntil: call.holdUntil }, now)
          : null;
      const offerClosed = state === "open" ? null : state;
      return {
        id: call.id,
        name: call.name,
        phone: call.phone,
        tel: telHref(call.phone),
        reason: CALL_REASON_LABELS[call.reason],
        /** An open offer's hold end, in words: call before it. */
        holdUntil: call.holdUntil && !offerClosed ? formatDateTime(call.holdUntil) : null,
        /** An offer no longer open, in words (« acceptée »...): no call needed for it. */
        offerClosed: offerClosed ? OFFER_STATE_LABELS[offerClosed] : null,
        /** The daily cap held an SMS to this person (decision 060). */
        smsHeld: call.smsHeld,
        calledAt: call.calledAt ? formatDateTime(call.calledAt) : null,
      };
    }),
    offers: offers.map((offer) => {
      const state = offerStateAt(offer, now);
      return {
        id: offer.id,
        name: offer.name,
        phone: offer.phone,
        tel: telHref(offer.phone),
        seats: offer.seats,
        state: OFFER_STATE_LABELS[state],
        open: state === "open",
        /** Neither e-mail nor SMS reaches her (or the SMS cap held it): the owner calls, and answers for the person. */
        toCall: offer.channel === "call",
        /** Sent by SMS (no e-mail): her link answers. */
        bySms: offer.channel === "sms",
        holdUntil: formatDateTime(offer.holdUntil),
        offeredAt: formatDateTime(offer.offeredAt),
        closedAt: offer.closedAt ? formatDateTime(offer.closedAt) : null,
      };
    }),
    /** A course below its minimum at its go/no-go time, still to keep or cancel (decision 052); null otherwise. */
    decision: decision && { ...decision, checkedAt: formatDateTime(decision.checkedAt) },
    courses: courses.map((course) => ({ id: course.id, title: course.title })),
    values: sessionFormValues(session),
    /** How the session is paid: what the telephone registration asks. */
    payment: session.payment,
    /** The mails of its registrations (`mail_ids`): the route shows those not delivered. */
    mailIds: registrations.flatMap((row) => row.mailIds),
  };
}
