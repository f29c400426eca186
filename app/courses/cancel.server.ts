/**
 * Cancellations of a registration: by the person (their link) or by the
 * owner (the desk), under the group's locks; and the owner's notice when
 * an erasure freed seats.
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseRegistrations, courseSessions } from "~/db/schema";
import { enqueueMail } from "~/mail/enqueue.server";
import { enqueueVisitorMail } from "~/mail/recipient-cap.server";
import { BOOKING_MAIL, registrationCancelledMail } from "./mails.server";
import { ownerCancellationMail, ownerErasureMail } from "./owner-mails.server";
import {
  attendeeOf,
  courseTitle,
  deskUrl,
  ownerPerson,
  peopleOf,
  recipientsOf,
  type LinkOptions,
} from "./registrants.server";
import { findRegistrationByToken } from "./registrations.server";
import { dropReminders } from "./reminders.server";
import { firstStart, groupClosed, lessonsOf, lockSeats, moveSeats } from "./seats.server";
import { firstWaiting } from "./waiting-list.server";
import { cancelDeadlineOf } from "./deadlines.server";
import { offerAfterCancellation, offerSeats } from "./offers.server";

/** What `cancelRegistration` and `cancelRegistrationByOwner` did. */
export type CancelResult = "cancelled" | "already-cancelled" | "too-late" | "past-deadline" | "not-found";

/**
 * Cancels registration `registrationId` of session `sessionId` in one
 * transaction under the session's lock: frees its seats (once: a second
 * call finds it cancelled and changes nothing), drops its pending
 * reminders, mails the cancellation to whoever of the attendee and the
 * relative has an e-mail, and, when the person cancelled (`by` "person"),
 * tells the owner, naming the first on the waiting list; then the freed
 * seats (or the one held for her) are offered to the next who waits
 * (`offerAfterCancellation`, decision 049). Refused once the
 * session has started, and, for a confirmed seat cancelled by the person,
 * once the cancellation deadline has passed (`past-deadline`, decision 052).
 */
async function cancelUnderLock(
  db: Database,
  ids: { registrationId: number; sessionId: number },
  by: "person" | "owner",
  options: LinkOptions,
): Promise<CancelResult> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const group = await lockSeats(tx, ids.sessionId);
    const session = group?.anchor;
    const [registration] = await tx
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.id, ids.registrationId))
      .for("update");
    if (!group || !session || !registration || registration.sessionId !== session.id) return "not-found" as const;
    if (registration.status === "cancelled") return "already-cancelled" as const;
    if (new Date(firstStart(group)).getTime() <= now.getTime()) return "too-late" as const;
    // Past the cancellation deadline, a confirmed seat is cancelled by telephone: the owner can (decision 052).
    if (by === "person" && registration.status === "confirmed") {
      if ((await cancelDeadlineOf(tx, firstStart(group), now)).passed) return "past-deadline" as const;
    }
    await tx
      .update(courseRegistrations)
      .set({ status: "cancelled", cancelledAt: now.toISOString(), reminderMailIds: [] })
      .where(eq(courseRegistrations.id, registration.id));
    const mailIds = registration.mailIds.filter((id) => !registration.reminderMailIds.includes(id));
    if (registration.status === "confirmed") await moveSeats(tx, group, -registration.seats);
    await dropReminders(tx, registration.reminderMailIds);
    for (const { address, reader } of recipientsOf(registration)) {
      const mailId = await enqueueVisitorMail(options.mailCap, tx, {
        kind: BOOKING_MAIL.registrationCancelled,
        recipient: address,
        people: peopleOf(registration),
        ...registrationCancelledMail({
          courseTitle: courseTitle(session),
          session,
          lessons: lessonsOf(group),
          reader,
          attendeeName: attendeeOf(registration),
          by,
          waiting: registration.status === "waiting",
        }),
      });
      if (mailId !== null) mailIds.push(mailId);
    }
    if (by === "person") {
      const waiting = registration.status === "confirmed" ? await firstWaiting(tx, session.id) : undefined;
      mailIds.push(
        await enqueueMail(tx, {
          kind: BOOKING_MAIL.ownerCancellation,
          recipient: null,
          people: [...peopleOf(registration), ...(waiting ? peopleOf(waiting) : [])],
          ...ownerCancellationMail({
            courseTitle: courseTitle(session),
            session,
            lessons: lessonsOf(group),
            attendee: ownerPerson(registration),
            seats: registration.seats,
            firstWaiting: waiting ? ownerPerson(waiting) : null,
            deskUrl: deskUrl(options.siteUrl, session.id),
          }),
        }),
      );
    }
    await tx.update(courseRegistrations).set({ mailIds }).where(eq(courseRegistrations.id, registration.id));
    // The freed seats (or the one held for her) go to the next who waits (decision 049).
    await offerAfterCancellation(tx, group, registration, by, options);
    return "cancelled" as const;
  });
}

/** Seats an erasure gave back: `seats` of session `sessionId`. */
export interface FreedSeats {
  sessionId: number;
  seats: number;
}

/**
 * After an erasure deleted confirmed registrations (app/courses/plug.server.ts),
 * in its transaction: for each session that has not started and is not
 * cancelled, the owner's notice that seats were freed, naming the first on
 * the waiting list, who is offered the seats (`offerSeats`, decision 049).
 * The notice joins that person's mails.
 * @returns the ids of the sessions whose seats the owner was told of. @throws the driver's error.
 */
export async function announceFreedSeats(
  tx: Database,
  freed: readonly FreedSeats[],
  options: LinkOptions,
): Promise<number[]> {
  const now = options.now ?? new Date();
  const seatsBySession = new Map<number, number>();
  for (const { sessionId, seats } of freed) seatsBySession.set(sessionId, (seatsBySession.get(sessionId) ?? 0) + seats);
  const told: number[] = [];
  for (const [sessionId, seats] of [...seatsBySession].sort(([a], [b]) => a - b)) {
    const group = await lockSeats(tx, sessionId);
    if (!group || groupClosed(group, now)) continue;
    const session = group.anchor;
    const waiting = await firstWaiting(tx, sessionId);
    const mailId = await enqueueMail(tx, {
      kind: BOOKING_MAIL.ownerErasure,
      recipient: null,
      people: waiting ? peopleOf(waiting) : [],
      ...ownerErasureMail({
        courseTitle: courseTitle(session),
        session,
        lessons: lessonsOf(group),
        seats,
        firstWaiting: waiting ? ownerPerson(waiting) : null,
        deskUrl: deskUrl(options.siteUrl, sessionId),
      }),
    });
    if (waiting) {
      await tx
        .update(courseRegistrations)
        .set({ mailIds: [...waiting.mailIds, mailId] })
        .where(eq(courseRegistrations.id, waiting.id));
    }
    await offerSeats(tx, group, options);
    told.push(sessionId);
  }
  return told;
}

/**
 * The person cancels the registration of link `token` (`cancelUnderLock`,
 * `by` "person": the owner is told who waits first).
 * @throws the driver's error (nothing is changed then).
 */
export async function cancelRegistration(db: Database, token: string, options: LinkOptions): Promise<CancelResult> {
  const found = await findRegistrationByToken(db, token, options.now ?? new Date());
  if (!found) return "not-found";
  return cancelUnderLock(db, { registrationId: found.registration.id, sessionId: found.session.id }, "person", options);
}

/**
 * The owner cancels registration `registrationId` from the desk (a person
 * who called, who has no e-mail and so no link): `cancelUnderLock`, `by`
 * "owner" (no notice to the owner; the desk shows the waiting list and its
 * "Donner la place"). With `sessionId`, a registration of another session
 * is "not-found" (the desk page of one session cancels only its own; every
 * date of a series is the page of the series' registrations).
 * @throws the driver's error (nothing is changed then).
 */
export async function cancelRegistrationByOwner(
  db: Database,
  registrationId: number,
  options: LinkOptions & { sessionId?: number },
): Promise<CancelResult> {
  const [row] = await db
    .select({ sessionId: courseRegistrations.sessionId, seriesId: courseRegistrations.seriesId })
    .from(courseRegistrations)
    .where(eq(courseRegistrations.id, registrationId));
  if (!row) return "not-found";
  if (options.sessionId !== undefined && !(await onDeskPage(db, row, options.sessionId))) return "not-found";
  return cancelUnderLock(db, { registrationId, sessionId: row.sessionId }, "owner", options);
}

/**
 * Whether a registration (its session, its series) is on the desk page of
 * session `sessionId`: its own session's, or, for a series, every date's.
 * @throws the driver's error.
 */
export async function onDeskPage(
  db: Database,
  registration: { sessionId: number; seriesId: number | null },
  sessionId: number,
): Promise<boolean> {
  if (registration.sessionId === sessionId) return true;
  const [page] = await db
    .select({ seriesId: courseSessions.seriesId })
    .from(courseSessions)
    .where(eq(courseSessions.id, sessionId));
  return registration.seriesId !== null && page?.seriesId === registration.seriesId;
}
