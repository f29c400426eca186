/**
 * The waiting list: people wait in arrival order (`id` order, the order
 * the seat locks were granted); a freed seat is given by the owner to a
 * person waiting (`giveSeat`), never taken by a newcomer.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseRegistrations } from "~/db/schema";
import { enqueueMail } from "~/mail/enqueue.server";
import { BOOKING_MAIL, seatGivenMail } from "./mails.server";
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
import { freeSeats, lessonsOf, lockSeats, moveSeats } from "./seats.server";

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
 * The owner gives a freed seat to a person of the waiting list: their
 * registration becomes confirmed if enough seats are free, whoever of them
 * has an e-mail gets "une place pour vous" with a new link (a new token of
 * the registration: only hashes of the first are kept) and the calendar
 * file, and their reminders are queued with that link.
 * @returns false when the person is not waiting or there are not enough free seats.
 */
export async function giveSeat(db: Database, registrationId: number, options: LinkOptions): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [waiting] = await tx.select().from(courseRegistrations).where(eq(courseRegistrations.id, registrationId));
    if (!waiting || waiting.status !== "waiting") return false;
    const group = (await lockSeats(tx, waiting.sessionId))!;
    const session = group.anchor;
    if (freeSeats(group) < waiting.seats || (group.seriesId === null ? session.cancelledAt : !group.lessons.length)) {
      return false;
    }
    await moveSeats(tx, group, waiting.seats);
    const recipients = recipientsOf(waiting);
    const token = await newLink(tx, waiting, recipients, group);
    const mailIds: number[] = [];
    if (token) {
      const title = courseTitle(session);
      const link = manageUrl(options.siteUrl, token);
      for (const { address, reader } of recipients) {
        mailIds.push(
          await enqueueMail(tx, {
            kind: BOOKING_MAIL.seatGiven,
            recipient: address,
            people: peopleOf(waiting),
            ...seatGivenMail({
              courseTitle: title,
              session,
              lessons: lessonsOf(group),
              reader,
              attendeeName: attendeeOf(waiting),
              seats: waiting.seats,
              manageUrl: link,
              payment: waiting,
            }),
            attachments: [groupCalendar(group, title, link, waiting.id)],
          }),
        );
      }
    }
    const reminderMailIds = await queueReminders(tx, group, waiting, token, options);
    await tx
      .update(courseRegistrations)
      .set({ status: "confirmed", reminderMailIds, mailIds: [...waiting.mailIds, ...mailIds, ...reminderMailIds] })
      .where(eq(courseRegistrations.id, waiting.id));
    return true;
  });
}
