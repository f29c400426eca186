/**
 * The waiting list: people wait in arrival order (`id` order, the order
 * the seat locks were granted); a freed seat is offered to them
 * (app/courses/offers.server.ts) or given by the owner (`giveSeat`, there
 * too), never taken by a newcomer. `confirmWaiting` takes one of them in.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseRegistrations } from "~/db/schema";
import { enqueueMail } from "~/mail/enqueue.server";
import { BOOKING_MAIL, registrationMail, seatGivenMail } from "./mails.server";
import {
  attendeeOf,
  courseTitle,
  groupCalendar,
  manageUrl,
  newLink,
  peopleOf,
  recipientsOf,
  type LinkOptions,
  type RegistrationRow,
} from "./registrants.server";
import { queueReminders } from "./reminders.server";
import { firstStart, lessonsOf, moveSeats, type SeatGroup } from "./seats.server";
import { cancelDeadlineOf } from "./deadlines.server";

/** The position (1 is first) of waiting registration `registrationId` on session `sessionId`'s list. */
export async function waitingPosition(tx: Database, sessionId: number, registrationId: number): Promise<number> {
  const [row] = await tx
    .select({ position: sql<number>`count(*)::int` })
    .from(courseRegistrations)
    .where(
      and(
        eq(courseRegistrations.sessionId, sessionId),
        eq(courseRegistrations.status, "waiting"),
        sql`${courseRegistrations.id} <= ${registrationId}`,
      ),
    );
  return Number(row!.position);
}

/** The first registration waiting for session `sessionId`, if any. */
export async function firstWaiting(tx: Database, sessionId: number): Promise<RegistrationRow | undefined> {
  const [row] = await tx
    .select()
    .from(courseRegistrations)
    .where(and(eq(courseRegistrations.sessionId, sessionId), eq(courseRegistrations.status, "waiting")))
    .orderBy(asc(courseRegistrations.id))
    .limit(1);
  return row;
}

/**
 * Confirms the waiting registration `waiting` on a locked `group` with
 * enough free seats (the caller checked): its seats are taken, whoever of
 * the attendee and the relative has an e-mail gets `mail` ("une place pour
 * vous" when the owner gives the seat, the usual confirmation when the
 * person accepted an offer) with a new link (a new token of the
 * registration: only hashes of the first are kept) and the calendar file,
 * and its reminders are queued with that link.
 * @returns the new link's token (null without an e-mail). @throws the driver's error.
 */
export async function confirmWaiting(
  tx: Database,
  group: SeatGroup,
  waiting: RegistrationRow,
  options: LinkOptions,
  mail: "seat-given" | "confirmation",
): Promise<string | null> {
  const session = group.anchor;
  await moveSeats(tx, group, waiting.seats);
  const recipients = recipientsOf(waiting);
  const token = await newLink(tx, waiting, recipients, group);
  const mailIds: number[] = [];
  if (token) {
    const title = courseTitle(session);
    const link = manageUrl(options.siteUrl, token);
    const cancel = await cancelDeadlineOf(tx, firstStart(group), options.now ?? new Date());
    const shown = {
      cancel,
      courseTitle: title,
      session,
      lessons: lessonsOf(group),
      attendeeName: attendeeOf(waiting),
      seats: waiting.seats,
      manageUrl: link,
      payment: waiting,
    };
    for (const { address, reader } of recipients) {
      mailIds.push(
        await enqueueMail(tx, {
          kind: mail === "seat-given" ? BOOKING_MAIL.seatGiven : BOOKING_MAIL.confirmation,
          recipient: address,
          people: peopleOf(waiting),
          ...(mail === "seat-given"
            ? seatGivenMail({ ...shown, reader })
            : registrationMail({ ...shown, reader, position: null, codeWord: waiting.codeWord })),
          attachments: [groupCalendar(group, title, link, waiting.id, cancel.until)],
        }),
      );
    }
  }
  const reminderMailIds = await queueReminders(tx, group, waiting, token, options);
  const [current] = await tx
    .select({ mailIds: courseRegistrations.mailIds })
    .from(courseRegistrations)
    .where(eq(courseRegistrations.id, waiting.id));
  await tx
    .update(courseRegistrations)
    .set({
      status: "confirmed",
      reminderMailIds,
      mailIds: [...(current?.mailIds ?? waiting.mailIds), ...mailIds, ...reminderMailIds],
    })
    .where(eq(courseRegistrations.id, waiting.id));
  return token;
}
