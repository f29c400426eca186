/**
 * The owner changes a session people hold seats on: cancels it (or one
 * date of a series), or moves one date of a series. Under the group's
 * locks, everyone registered is mailed (or listed, to be called).
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseGoNoGo, courseRegistrations, courseSessions } from "~/db/schema";
import { enqueueMail } from "~/mail/enqueue.server";
import { addCalls } from "./calls.server";
import { BOOKING_MAIL, seriesDateMovedMail, sessionWhen } from "./mails.server";
import {
  attendeeOf,
  courseTitle,
  groupCalendar,
  manageUrl,
  newLink,
  peopleOf,
  recipientsOf,
  toCall,
  type RegistrationRow,
  type LinkOptions,
} from "./registrants.server";
import { dropReminders, dropRemindersOfDate, queueReminders } from "./reminders.server";
import { firstStart, lockSeats, seriesLessons, type SeatGroup } from "./seats.server";
import { cancelDeadlineOf } from "./deadlines.server";
import { placeInWords, type SessionFields } from "./sessions.server";
import { withdrawOffers } from "./offers.server";
import type { SmsChannel } from "./sms-channel.server";
import { tellRegistrants, type Told } from "./tell.server";

/** The registrations (confirmed or waiting) of the session or series whose anchor is `anchorId`, in arrival order. */
export function activeRegistrations(tx: Database, anchorId: number): Promise<RegistrationRow[]> {
  return tx
    .select()
    .from(courseRegistrations)
    .where(and(eq(courseRegistrations.sessionId, anchorId), sql`${courseRegistrations.status} <> 'cancelled'`))
    .orderBy(asc(courseRegistrations.id));
}

/** What `cancelSession` did: how many mails went out, and whom to call (no e-mail). */
export type SessionCancellation = Told;

/**
 * The owner cancels a session: it is marked cancelled, pending reminders
 * are dropped, every registrant (confirmed or waiting) with an e-mail is
 * mailed, and those without one are returned, to be called. One date of a
 * series: the registrations of the series stay (the other dates are still
 * held); only that date's reminders are dropped, and the mail says which
 * date is cancelled and lists the dates that remain. Those to call also
 * join the session's call list (`course_calls`), kept until ticked. With
 * `sms` (the process's SMS settings), those who agreed get an SMS too.
 * @returns undefined when there is no such session or it was already cancelled.
 */
export async function cancelSession(
  db: Database,
  sessionId: number,
  now = new Date(),
  sms?: SmsChannel,
): Promise<SessionCancellation | undefined> {
  return db.transaction(async (tx) => {
    const group = await lockSeats(tx, sessionId);
    const session = group?.sessions.find((row) => row.id === sessionId);
    if (!group || !session || session.cancelledAt) return undefined;
    await tx.update(courseSessions).set({ cancelledAt: now.toISOString() }).where(eq(courseSessions.id, sessionId));
    const oneDate = group.seriesId !== null;
    const remaining = group.lessons.filter((lesson) => lesson.id !== sessionId);
    const registrations = await activeRegistrations(tx, group.anchor.id);
    for (const registration of registrations) {
      const dropped = oneDate
        ? await dropRemindersOfDate(tx, registration.reminderMailIds, session)
        : registration.reminderMailIds;
      if (!oneDate) await dropReminders(tx, dropped);
      await tx
        .update(courseRegistrations)
        .set({
          reminderMailIds: registration.reminderMailIds.filter((id) => !dropped.includes(id)),
          mailIds: registration.mailIds.filter((id) => !dropped.includes(id)),
        })
        .where(eq(courseRegistrations.id, registration.id));
    }
    // Everyone told by their channels (a mail, an SMS, the call list), once: app/courses/tell.server.ts.
    const result = await tellRegistrants(
      tx,
      registrations,
      oneDate ? { kind: "series-date-cancelled", session, remaining } : { kind: "session-cancelled", session },
      { callSessionId: sessionId, now, ...(sms && { sms }) },
    );
    // Nothing left to attend: a seat held for someone of the waiting list is held no more (decision 049), and a
    // go/no-go still to decide is decided (decision 052).
    if (!oneDate || remaining.length === 0) {
      await withdrawOffers(tx, group.anchor.id, now);
      await tx
        .update(courseGoNoGo)
        .set({ state: "cancelled", decidedAt: now.toISOString() })
        .where(and(eq(courseGoNoGo.sessionId, group.anchor.id), eq(courseGoNoGo.state, "below")));
    }
    return result;
  });
}

/** What `moveSeriesDate` did: how many mails went out, and whom to call (no e-mail). */
export type SeriesDateMove = SessionCancellation;

/**
 * The owner changes one date of a series once people are registered
 * (`fields`: its new start, duration and place; its course as it is):
 * under the series' locks, the date is changed, each registration's
 * reminders still to leave are written again (the moved date's before its
 * new start; the others' numbers, "séance 2 sur 4", by the new order), and every
 * registrant (confirmed or waiting) with an e-mail gets the new date with
 * all the dates, a new link (only hashes of the former are kept) and, when
 * confirmed, the calendar file again; those without one are returned, to
 * be called, and join the date's call list (`course_calls`).
 * @returns undefined when the session is not a date of a series, is cancelled, or its course would change.
 * @throws the driver's error (the capacity check among them).
 */
export async function moveSeriesDate(
  db: Database,
  sessionId: number,
  fields: SessionFields,
  options: LinkOptions,
): Promise<SeriesDateMove | undefined> {
  return db.transaction(async (tx) => {
    const locked = await lockSeats(tx, sessionId);
    const before = locked?.sessions.find((row) => row.id === sessionId);
    if (!locked || locked.seriesId === null || !before || before.cancelledAt || before.courseId !== fields.courseId) {
      return undefined;
    }
    const [moved] = await tx
      .update(courseSessions)
      .set({ ...fields, startsAt: fields.startsAt.toISOString() })
      .where(eq(courseSessions.id, sessionId))
      .returning();
    const sessions = locked.sessions.map((row) => (row.id === sessionId ? moved! : row));
    const group: SeatGroup = { ...locked, sessions, lessons: seriesLessons(sessions), anchor: sessions[0]! };
    const registrations = await activeRegistrations(tx, group.anchor.id);
    const title = courseTitle(moved!);
    const cancel = await cancelDeadlineOf(tx, firstStart(group), options.now ?? new Date());
    const result: SeriesDateMove = { mailed: 0, texted: 0, toCall: [] };
    const uncalled: number[] = [];
    for (const registration of registrations) {
      // Every reminder still to leave is written again: the moved date's, and the others' "séance 2 sur 4",
      // which changes when the date moves past another.
      const dropped = await dropReminders(tx, registration.reminderMailIds);
      const recipients = recipientsOf(registration);
      const token = await newLink(tx, registration, recipients, group);
      const confirmed = registration.status === "confirmed";
      const reminders = confirmed ? await queueReminders(tx, group, registration, token, options) : [];
      const mailIds = registration.mailIds.filter((id) => !dropped.includes(id));
      for (const { address, reader } of recipients) {
        const link = manageUrl(options.siteUrl, token!);
        mailIds.push(
          await enqueueMail(tx, {
            kind: BOOKING_MAIL.dateMoved,
            recipient: address,
            people: peopleOf(registration),
            ...seriesDateMovedMail({
              courseTitle: title,
              session: group.lessons[0] ?? moved!,
              moved: moved!,
              lessons: group.lessons,
              reader,
              attendeeName: attendeeOf(registration),
              before: sessionWhen(before),
              beforePlace: placeInWords(before),
              manageUrl: link,
              waiting: !confirmed,
            }),
            attachments: confirmed ? [groupCalendar(group, title, link, registration.id, cancel.until)] : null,
          }),
        );
        result.mailed += 1;
      }
      await tx
        .update(courseRegistrations)
        .set({
          reminderMailIds: [...registration.reminderMailIds.filter((id) => !dropped.includes(id)), ...reminders],
          mailIds: [...mailIds, ...reminders],
        })
        .where(eq(courseRegistrations.id, registration.id));
      if (recipients.length === 0) {
        result.toCall.push(toCall(registration));
        uncalled.push(registration.id);
      }
    }
    await addCalls(tx, sessionId, uncalled, "moved", options.now);
    return result;
  });
}
