/**
 * How a registration's reminder reaches its person (issue 30 item 2,
 * decision 051): by e-mail when the attendee or the relative gave one (the
 * mails queued at registration, reminders.server.ts); by SMS when the
 * attendee's telephone is a Swiss mobile number and the person agreed
 * (`sms_consent`); when neither reaches her, on the desk's call list
 * « À appeler demain » (`callList`). E-mail and SMS are independent: a
 * person who ticked the box gets her SMS even with an e-mail.
 *
 * - `reminderChannels(registration, smsDelivers)`.
 * - `runSmsReminders(db, now, options)`: the timed job's run (every minute
 *   on every process): each confirmed registration with a date starting
 *   within the next 24 hours (`REMINDER_BEFORE_MS`; so a reminder that fell
 *   due while the server was down leaves once it is back, until the
 *   lesson starts), registered before its reminder time, gets one SMS for
 *   that date. Once only, on every process: under the registration's row
 *   lock, a date's SMS already in its `mail_ids` (same kind, same
 *   `not_before`) is not written again.
 * - `callList(db, now, smsDelivers)`: the desk's « À appeler demain » (with
 *   those whose SMS reminder the per-number daily cap held: the job puts
 *   them on the date's call list, decision 060).
 * - `smsReminderText`: what the SMS says: the course, the date, the place's
 *   name, the code word and the short link (`/r/{token}`, « Toujours
 *   partant·e ? »); never a person's name.
 */
import { and, asc, eq, gte, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { courseCalls, courseRegistrations, courseSessions, outbox } from "~/db/schema";
import { enqueueSms, mobileNumber } from "~/mail/sms.server";
import { issueToken } from "~/tokens/tokens.server";
import { formatDateTime } from "~/utils/format";
import { utcToZurich, zurichDaysLater, zurichToUtc } from "~/utils/zurich-time.server";
import { addCalls } from "./calls.server";
import { shortReminderPath } from "./links";
import { REGISTRATION_TOKEN_PURPOSE, courseTitle, recipientsOf, type RegistrationRow } from "./registrants.server";
import { REMINDER_BEFORE_MS, reminderTime } from "./reminders.server";
import type { SessionRow } from "./sessions.server";

/** The outbox kind of the SMS reminder. */
export const SMS_REMINDER_KIND = "course-reminder-sms";

/** How a registration's reminder goes: `mail` and `sms` may both hold; `call` when nothing reaches the person. */
export interface ReminderChannels {
  mail: boolean;
  /** The mobile number in E.164, when the person agreed to an SMS there; else null. */
  sms: string | null;
  call: boolean;
}

/**
 * The channels of `registration`'s reminders; with `smsDelivers` false (the
 * log adapter: no SMS leaves), a person reached by SMS only is called too.
 */
export function reminderChannels(
  registration: Pick<
    RegistrationRow,
    "email" | "bookerEmail" | "firstName" | "lastName" | "bookerFirstName" | "bookerLastName" | "phone" | "smsConsent"
  >,
  smsDelivers: boolean,
): ReminderChannels {
  const mail = recipientsOf(registration).length > 0;
  const sms = registration.smsConsent ? mobileNumber(registration.phone) : null;
  return { mail, sms, call: !mail && !(sms && smsDelivers) };
}

/** A registration and one of its dates (a single session, or a date of its series). */
export interface RegistrationDate {
  registration: RegistrationRow;
  session: SessionRow;
}

/**
 * The confirmed registrations' dates starting in [`from`, `to`), dates
 * cancelled left out, by start then registration.
 */
export function registrationDatesWithin(db: Database, from: Date, to: Date): Promise<RegistrationDate[]> {
  return db
    .select({ registration: courseRegistrations, session: courseSessions })
    .from(courseSessions)
    .innerJoin(
      courseRegistrations,
      or(
        and(isNull(courseRegistrations.seriesId), eq(courseRegistrations.sessionId, courseSessions.id)),
        eq(courseRegistrations.seriesId, courseSessions.seriesId),
      ),
    )
    .where(
      and(
        gte(courseSessions.startsAt, from.toISOString()),
        lt(courseSessions.startsAt, to.toISOString()),
        isNull(courseSessions.cancelledAt),
        eq(courseRegistrations.status, "confirmed"),
      ),
    )
    .orderBy(asc(courseSessions.startsAt), asc(courseRegistrations.id));
}

/** GSM 7-bit spellings of the typographic characters the site's texts use (an SMS with them costs twice as much). */
const GSM_SPELLINGS: [RegExp, string][] = [
  [/[\u00a0\u202f]/g, " "],
  [/[’‘]/g, "'"],
  [/[«»“”]/g, '"'],
  [/[–—]/g, "-"],
];

/** What the SMS reminder of `session` says (no name; the code word and the short link `url`). */
export function smsReminderText({
  session,
  codeWord,
  url,
}: {
  session: Pick<SessionRow, "courseId" | "startsAt" | "placeName">;
  codeWord: string | null;
  url: string;
}): string {
  return gsmText(
    [
      `Rappel : cours « ${courseTitle(session)} », ${formatDateTime(session.startsAt)}, ${session.placeName}.`,
      ...(codeWord ? [`Mot code : ${codeWord}.`] : []),
      `Toujours partant·e ? Répondez ici : ${url}`,
    ].join(" "),
  );
}

/** `text` spelt in GSM 7-bit where the site's typography would make it Unicode (« » ’ no-break spaces, ·e). */
export function gsmText(text: string): string {
  return GSM_SPELLINGS.reduce((spelt, [pattern, gsm]) => spelt.replace(pattern, gsm), text).replaceAll("·e", "(e)");
}

/** What the SMS job needs besides the database and the time. */
export interface SmsReminderOptions {
  siteUrl: string;
  /** SMS_PER_NUMBER_PER_DAY. */
  perDay: number;
  logger?: Logger;
}

/**
 * Writes the SMS reminders due at `now` (see the module's comment).
 * @returns how many were written.
 * @throws the driver's error (what was written before stays: each date is its own transaction).
 */
export async function runSmsReminders(
  db: Database,
  now: Date,
  { siteUrl, perDay, logger }: SmsReminderOptions,
): Promise<{ smsReminders: number }> {
  const due = await registrationDatesWithin(db, now, new Date(now.getTime() + REMINDER_BEFORE_MS));
  let written = 0;
  for (const { registration, session } of due) {
    if (!registration.smsConsent || !mobileNumber(registration.phone)) continue;
    const remindAt = reminderTime(session);
    if (new Date(registration.createdAt).getTime() >= remindAt.getTime()) continue;
    const id = await db.transaction(async (tx) => {
      const [locked] = await tx
        .select()
        .from(courseRegistrations)
        .where(eq(courseRegistrations.id, registration.id))
        .for("update");
      const to = locked?.smsConsent ? mobileNumber(locked.phone) : null;
      if (!locked || locked.status !== "confirmed" || !to) return null;
      if (locked.mailIds.length) {
        const [already] = await tx
          .select({ id: outbox.id })
          .from(outbox)
          .where(
            and(
              inArray(outbox.id, locked.mailIds),
              eq(outbox.kind, SMS_REMINDER_KIND),
              eq(outbox.notBefore, remindAt.toISOString()),
            ),
          )
          .limit(1);
        if (already) return null;
      }
      const token = await issueToken(tx, {
        purpose: REGISTRATION_TOKEN_PURPOSE,
        subject: String(locked.id),
        // The link answers until the lesson is over (the registration's own page says the rest).
        expiresAt: new Date(new Date(session.startsAt).getTime() + 86_400_000),
        now,
      });
      const smsId = await enqueueSms(
        tx,
        {
          kind: SMS_REMINDER_KIND,
          to,
          label: `SMS : rappel du cours « ${courseTitle(session)} »`,
          text: smsReminderText({ session, codeWord: locked.codeWord, url: `${siteUrl}${shortReminderPath(token)}` }),
          person: { name: `${locked.firstName} ${locked.lastName}` },
          notBefore: remindAt,
          // Past the lesson's start it is no longer true: given up, never sent late.
          notAfter: new Date(session.startsAt),
        },
        { perDay, now, logger },
      );
      if (smsId === null) {
        // Held by the per-number daily cap: the owner calls instead, once (decision 060).
        const [listed] = await tx
          .select({ id: courseCalls.id })
          .from(courseCalls)
          .where(
            and(
              eq(courseCalls.sessionId, session.id),
              eq(courseCalls.registrationId, locked.id),
              eq(courseCalls.reason, "reminder"),
            ),
          )
          .limit(1);
        if (!listed) await addCalls(tx, session.id, [locked.id], "reminder", now, { smsHeld: true });
        return null;
      }
      await tx
        .update(courseRegistrations)
        .set({
          mailIds: sql`array_append(${courseRegistrations.mailIds}, ${smsId}::bigint)`,
          reminderMailIds: sql`array_append(${courseRegistrations.reminderMailIds}, ${smsId}::bigint)`,
        })
        .where(eq(courseRegistrations.id, locked.id));
      return smsId;
    });
    if (id !== null) written++;
  }
  return { smsReminders: written };
}

/** One line of the call list « À appeler demain ». */
export interface CallLine {
  registrationId: number;
  /** The date's session (a date of a series: that date's). */
  sessionId: number;
  name: string;
  /** The attendee's telephone, as typed. */
  phone: string;
  codeWord: string | null;
  course: string;
  place: string;
  /** The lesson's start, e.g. « 14 h 00 ». */
  time: string;
  /** The date in words, for the list's heading. */
  day: string;
  /** Listed because the per-number daily cap held her SMS reminder (she asked for SMS). */
  smsHeld: boolean;
}

/**
 * The call list of the Swiss day after `now`'s: each confirmed registration
 * with a date that day whom no reminder reaches (`reminderChannels(...).call`:
 * no e-mail, and no SMS, or SMS that do not leave while `smsDelivers` is
 * false), or whose SMS reminder the daily cap held, by start time, then arrival.
 */
export async function callList(db: Database, now: Date, smsDelivers: boolean): Promise<CallLine[]> {
  const tomorrow = zurichDaysLater(startOfZurichDay(now), 1);
  const dates = await registrationDatesWithin(db, tomorrow, zurichDaysLater(tomorrow, 1));
  const held = new Set(
    dates.length
      ? (
          await db
            .select({ sessionId: courseCalls.sessionId, registrationId: courseCalls.registrationId })
            .from(courseCalls)
            .where(
              and(
                eq(courseCalls.reason, "reminder"),
                inArray(
                  courseCalls.sessionId,
                  dates.map(({ session }) => session.id),
                ),
              ),
            )
        ).map((call) => `${call.sessionId}:${call.registrationId}`)
      : [],
  );
  return dates
    .map((date) => ({
      ...date,
      unreached: reminderChannels(date.registration, smsDelivers).call,
      smsHeld: held.has(`${date.session.id}:${date.registration.id}`),
    }))
    .filter(({ unreached, smsHeld }) => unreached || smsHeld)
    .map(({ registration, session, unreached, smsHeld }) => {
      const [day, time] = formatDateTime(session.startsAt).split(", ");
      return {
        registrationId: registration.id,
        sessionId: session.id,
        name: `${registration.firstName} ${registration.lastName}`,
        phone: registration.phone,
        codeWord: registration.codeWord,
        course: courseTitle(session),
        place: `${session.placeName}, ${session.placeAddress}`,
        time: time ?? "",
        day: day ?? "",
        smsHeld: smsHeld && !unreached,
      };
    });
}

/** Midnight of `moment`'s day in Zurich. */
const startOfZurichDay = (moment: Date) => zurichToUtc(utcToZurich(moment).date, "00:00");
