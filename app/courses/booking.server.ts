/**
 * Registrations for course sessions: seats that never overbook, a waiting
 * list in arrival order, cancellation by link, and the mails of each step,
 * written to the outbox in the same transaction.
 *
 * Concurrency: every change of a session's seats first locks the session's
 * row (`select ... for update`), so registrations for one session run one
 * after the other, in every server process sharing the database, and the
 * waiting list's `id` order is the order the locks were granted (arrival
 * order). The table's check (`seats_taken <= capacity`) is the second line.
 *
 * The same telephone cannot hold two registrations of one session (checked
 * under the lock). The owner may cancel a registration from the desk
 * (`cancelRegistrationByOwner`); every cancellation is mailed to whoever
 * has an e-mail.
 *
 * Links: each registration gets a token of the site's one mechanism
 * (app/tokens/tokens.server.ts, purpose `course-registration`, subject the
 * registration's id), sent in the mails; it opens
 * `/cours/inscription/{token}` (confirmation, calendar file, cancel button
 * that posts) as often as it is followed, until 7 days after the session's
 * start. It is read, never consumed: the cancellation happens once because
 * it changes the registration's status under the session's lock (a second
 * post finds it cancelled and changes nothing).
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { newCodeWord } from "~/trust/code-word.server";
import { toE164 } from "~/utils/phone";
import { courseRegistrations, courseSessions, outbox } from "~/db/schema";
import { enqueueMail, type MailPerson } from "~/mail/enqueue.server";
import { enqueueVisitorMail, type RecipientCap } from "~/mail/recipient-cap.server";
import { issueToken, readToken } from "~/tokens/tokens.server";
import {
  BOOKING_MAIL,
  ownerCancellationMail,
  ownerErasureMail,
  ownerRegistrationMail,
  registrationCancelledMail,
  registrationMail,
  reminderMail,
  seatGivenMail,
  sessionCancelledMail,
  type OwnerPerson,
  type Reader,
} from "./mails.server";
import { calendarAttachment } from "./ics.server";
import { seatsAllowed, type ClientLimit } from "./limits.server";
import { registrationPath } from "./links";
import { registersRelative, type BookingInput } from "./schema";
import { courseBySlug, type SessionRow } from "./sessions.server";

/** A registration row as Drizzle reads it. */
export type RegistrationRow = typeof courseRegistrations.$inferSelect;

/** The purpose of a registration's link token (`link_tokens.purpose`; its subject is the registration's id). */
export const REGISTRATION_TOKEN_PURPOSE = "course-registration";
/** How long after a session's start its links still open the confirmation page. */
const TOKEN_DAYS_AFTER_START = 7;
/** When a registration's links stop opening its page. */
const tokenExpiry = (session: Pick<SessionRow, "startsAt">) =>
  new Date(new Date(session.startsAt).getTime() + TOKEN_DAYS_AFTER_START * 86_400_000);
/** The reminder leaves this long before the start. */
export const REMINDER_BEFORE_MS = 24 * 3_600_000;

/** What `registerForSession` did. */
export type RegistrationResult =
  /** A seat (or two) is taken; `token` opens the confirmation page. */
  | { outcome: "confirmed"; registrationId: number; token: string }
  /** The session is full: on the waiting list at `position` (1 is first). */
  | { outcome: "waiting"; registrationId: number; token: string; position: number }
  /** Fewer seats left than asked for (2 asked, 1 left): nothing written. */
  | { outcome: "too-few-seats"; left: number }
  /** The same telephone is already registered (confirmed or waiting) for this session: nothing written. */
  | { outcome: "already-registered" }
  /** The client address has taken its seats of the day (`clientLimit`, app/courses/limits.server.ts): nothing written. */
  | { outcome: "address-limit" }
  /** No such session, cancelled, or already started: nothing written. */
  | { outcome: "closed" };

/** Where links in mails point: the site's absolute URL (SITE_URL, no trailing slash). */
export interface LinkOptions {
  siteUrl: string;
  /** The current time (tests pass a fixed clock). */
  now?: Date;
  /** A public action's cap on mails to visitors' addresses (app/mail/recipient-cap.server.ts); absent in the desk. */
  mailCap?: RecipientCap;
}

const manageUrl = (siteUrl: string, token: string) => `${siteUrl}${registrationPath(token)}`;
const deskUrl = (siteUrl: string, sessionId: number) => `${siteUrl}/admin/cours/${sessionId}`;

function courseTitle(session: Pick<SessionRow, "courseId">): string {
  return courseBySlug(session.courseId)?.title ?? session.courseId;
}

const fullName = (first: string, last: string) => `${first} ${last}`;

/** An address a registration's mails go to, and who reads there. */
interface Recipient {
  address: string;
  reader: Reader;
}

type MailedPerson = Pick<
  RegistrationRow,
  "email" | "bookerEmail" | "firstName" | "lastName" | "bookerFirstName" | "bookerLastName"
>;

/**
 * The addresses a registration's mails go to: the attendee's and the
 * relative's, without repeats; an address given for both is the
 * relative's (who typed it reads it).
 */
function recipientsOf(registration: MailedPerson): Recipient[] {
  const recipients = new Map<string, Recipient>();
  if (registration.email) {
    recipients.set(registration.email.toLowerCase(), {
      address: registration.email,
      reader: { name: fullName(registration.firstName, registration.lastName), relative: false },
    });
  }
  if (registration.bookerEmail) {
    const name = fullName(registration.bookerFirstName ?? "", registration.bookerLastName ?? "").trim();
    recipients.set(registration.bookerEmail.toLowerCase(), {
      address: registration.bookerEmail,
      reader: { name, relative: true },
    });
  }
  return [...recipients.values()];
}

const attendeeOf = (registration: Pick<RegistrationRow, "firstName" | "lastName">) =>
  fullName(registration.firstName, registration.lastName);

/**
 * Whether `phone` is already registered (confirmed or waiting) for the
 * session, as the attendee: compared in E.164 (`079 123 45 67` and
 * `+41 79 123 45 67` are one number), or as typed when it cannot be read.
 * Called under the session's lock, so two posts at once cannot both pass.
 */
async function phoneRegistered(tx: Database, sessionId: number, phone: string): Promise<boolean> {
  const e164 = toE164(phone);
  const [row] = await tx
    .select({ id: courseRegistrations.id })
    .from(courseRegistrations)
    .where(
      and(
        eq(courseRegistrations.sessionId, sessionId),
        sql`${courseRegistrations.status} <> 'cancelled'`,
        e164 ? eq(courseRegistrations.phoneE164, e164) : eq(courseRegistrations.phone, phone),
      ),
    )
    .limit(1);
  return row !== undefined;
}

async function lockSession(tx: Database, sessionId: number): Promise<SessionRow | undefined> {
  const [session] = await tx.select().from(courseSessions).where(eq(courseSessions.id, sessionId)).for("update");
  return session;
}

async function waitingPosition(tx: Database, sessionId: number, registrationId: number): Promise<number> {
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

async function firstWaiting(tx: Database, sessionId: number): Promise<RegistrationRow | undefined> {
  const [row] = await tx
    .select()
    .from(courseRegistrations)
    .where(and(eq(courseRegistrations.sessionId, sessionId), eq(courseRegistrations.status, "waiting")))
    .orderBy(asc(courseRegistrations.id))
    .limit(1);
  return row;
}

/** The people of a registration, for `outbox.named`: the attendee, and the relative who registered them if any. */
export function peopleOf(registration: RegistrationRow): MailPerson[] {
  const attendee = {
    name: fullName(registration.firstName, registration.lastName),
    email: registration.email,
    phone: registration.phone,
  };
  if (!registration.bookerFirstName) return [attendee];
  const booker = {
    name: fullName(registration.bookerFirstName, registration.bookerLastName ?? ""),
    email: registration.bookerEmail,
    phone: registration.bookerPhone,
  };
  return [attendee, booker];
}

const ownerPerson = (registration: RegistrationRow): OwnerPerson => ({
  name: fullName(registration.firstName, registration.lastName),
  phone: registration.phone,
  email: registration.email,
});

/** Queues the reminder to each address, 24 hours before the start (none when that is already past). */
async function queueReminders(
  tx: Database,
  session: SessionRow,
  registration: RegistrationRow,
  token: string | null,
  { siteUrl, now = new Date(), mailCap }: LinkOptions,
): Promise<number[]> {
  const notBefore = new Date(new Date(session.startsAt).getTime() - REMINDER_BEFORE_MS);
  if (notBefore.getTime() <= now.getTime()) return [];
  const ids: (number | null)[] = [];
  for (const { address, reader } of recipientsOf(registration)) {
    ids.push(
      await enqueueVisitorMail(mailCap, tx, {
        kind: BOOKING_MAIL.reminder,
        recipient: address,
        notBefore,
        people: peopleOf(registration),
        ...reminderMail({
          courseTitle: courseTitle(session),
          session,
          reader,
          attendeeName: attendeeOf(registration),
          manageUrl: token ? manageUrl(siteUrl, token) : null,
        }),
      }),
    );
  }
  return ids.filter((id) => id !== null);
}

/**
 * Registers a person for a session (the public form, or the owner for a
 * registration taken by telephone: `source` "desk"), in one transaction:
 * the registration, the session's seats, the mails to the attendee and the
 * relative (confirmation or waiting-list notice), the reminders, and the
 * owner's notice. While anyone waits, newcomers wait too (a freed seat is
 * given by the owner, to the first in line). A telephone already
 * registered for the session (confirmed or waiting) is refused
 * (`already-registered`), checked under the session's lock; so is a
 * client address past its seats of the day (`clientLimit`:
 * `address-limit`). With `mailCap`, the mails to visitors' addresses are
 * capped (a mail held is not written; the registration is).
 * @throws the driver's error when the database fails (nothing is written).
 */
export async function registerForSession(
  db: Database,
  input: BookingInput,
  options: LinkOptions & { source?: "web" | "desk"; clientLimit?: ClientLimit },
): Promise<RegistrationResult> {
  const now = options.now ?? new Date();
  const seats = Number(input.seats);
  return db.transaction(async (tx) => {
    const session = await lockSession(tx, input.sessionId);
    if (!session || session.cancelledAt || new Date(session.startsAt).getTime() <= now.getTime()) {
      return { outcome: "closed" } as const;
    }
    if (await phoneRegistered(tx, session.id, input.phone)) return { outcome: "already-registered" } as const;
    if (!(await seatsAllowed(tx, options.clientLimit, seats))) return { outcome: "address-limit" } as const;
    const anyoneWaiting = (await firstWaiting(tx, session.id)) !== undefined;
    const left = anyoneWaiting ? 0 : session.capacity - session.seatsTaken;
    if (left > 0 && left < seats) return { outcome: "too-few-seats", left } as const;
    const status = left >= seats ? "confirmed" : "waiting";
    if (status === "confirmed") {
      await tx
        .update(courseSessions)
        .set({ seatsTaken: sql`${courseSessions.seatsTaken} + ${seats}` })
        .where(eq(courseSessions.id, session.id));
    }
    const relative = registersRelative(input);
    const [registration] = await tx
      .insert(courseRegistrations)
      .values({
        sessionId: session.id,
        status,
        seats,
        firstName: input.firstName,
        lastName: input.lastName,
        phone: input.phone,
        phoneE164: toE164(input.phone),
        email: input.email || null,
        bookerFirstName: relative ? (input.bookerFirstName ?? null) : null,
        bookerLastName: relative ? (input.bookerLastName ?? null) : null,
        bookerPhone: relative ? (input.bookerPhone ?? null) : null,
        bookerPhoneE164: relative && input.bookerPhone ? toE164(input.bookerPhone) : null,
        bookerEmail: relative ? input.bookerEmail || null : null,
        message: input.message || null,
        source: options.source ?? "web",
        createdAt: now.toISOString(),
        codeWord: newCodeWord(),
        clientKey: options.clientLimit?.key ?? null,
      })
      .returning();
    const row = registration!;
    const token = await issueToken(tx, {
      purpose: REGISTRATION_TOKEN_PURPOSE,
      subject: String(row.id),
      expiresAt: tokenExpiry(session),
    });
    const position = status === "waiting" ? await waitingPosition(tx, session.id, row.id) : null;
    const title = courseTitle(session);
    const attendeeName = fullName(row.firstName, row.lastName);
    const mailIds: number[] = [];
    const link = manageUrl(options.siteUrl, token);
    // A confirmed seat's mails carry the calendar file; a place on the waiting list is not a date yet.
    const attachments =
      status === "confirmed" ? [calendarAttachment({ session, courseTitle: title, manageUrl: link })] : null;
    for (const { address, reader } of recipientsOf(row)) {
      const mailId = await enqueueVisitorMail(options.mailCap, tx, {
        kind: status === "confirmed" ? BOOKING_MAIL.confirmation : BOOKING_MAIL.waiting,
        recipient: address,
        people: peopleOf(row),
        ...registrationMail({
          courseTitle: title,
          session,
          reader,
          attendeeName,
          seats,
          position,
          manageUrl: link,
          codeWord: row.codeWord,
        }),
        attachments,
      });
      if (mailId !== null) mailIds.push(mailId);
    }
    const reminderMailIds = status === "confirmed" ? await queueReminders(tx, session, row, token, options) : [];
    const ownerMailId = await enqueueMail(tx, {
      kind: BOOKING_MAIL.ownerRegistration,
      recipient: null,
      people: peopleOf(row),
      ...ownerRegistrationMail({
        courseTitle: title,
        session,
        attendee: ownerPerson(row),
        booker:
          row.bookerFirstName && row.bookerLastName && row.bookerPhone
            ? {
                name: fullName(row.bookerFirstName, row.bookerLastName),
                phone: row.bookerPhone,
                email: row.bookerEmail,
              }
            : null,
        seats,
        position,
        message: row.message,
        codeWord: row.codeWord,
        deskUrl: deskUrl(options.siteUrl, session.id),
      }),
    });
    await tx
      .update(courseRegistrations)
      .set({ reminderMailIds, mailIds: [...mailIds, ...reminderMailIds, ownerMailId] })
      .where(eq(courseRegistrations.id, row.id));
    return position === null
      ? ({ outcome: "confirmed", registrationId: row.id, token } as const)
      : ({ outcome: "waiting", registrationId: row.id, token, position } as const);
  });
}

/** A registration opened by its link: the row, its session, and its waiting position (null unless waiting). */
export interface RegistrationByToken {
  registration: RegistrationRow;
  session: SessionRow;
  position: number | null;
}

/**
 * The registration whose link token is `token`, while the link is valid at
 * `now` (`readToken`: reading changes nothing, so the page and the calendar
 * file open as often as they are followed).
 * @returns undefined for an unknown, tampered or expired link, or one whose registration was erased.
 * @throws the driver's error.
 */
export async function findRegistrationByToken(
  db: Database,
  token: string,
  now = new Date(),
): Promise<RegistrationByToken | undefined> {
  const link = await readToken(db, { purpose: REGISTRATION_TOKEN_PURPOSE, token, now });
  if (!link) return undefined;
  const [row] = await db
    .select({ registration: courseRegistrations, session: courseSessions })
    .from(courseRegistrations)
    .innerJoin(courseSessions, eq(courseSessions.id, courseRegistrations.sessionId))
    .where(eq(courseRegistrations.id, Number(link.subject)));
  if (!row) return undefined;
  const position =
    row.registration.status === "waiting" ? await waitingPosition(db, row.session.id, row.registration.id) : null;
  return { ...row, position };
}

/** Deletes reminders not sent yet. */
async function dropReminders(tx: Database, ids: number[]): Promise<void> {
  if (ids.length) await tx.delete(outbox).where(and(inArray(outbox.id, ids), isNull(outbox.sentAt)));
}

/** What `cancelRegistration` and `cancelRegistrationByOwner` did. */
export type CancelResult = "cancelled" | "already-cancelled" | "too-late" | "not-found";

/**
 * Cancels registration `registrationId` of session `sessionId` in one
 * transaction under the session's lock: frees its seats (once: a second
 * call finds it cancelled and changes nothing), drops its pending
 * reminders, mails the cancellation to whoever of the attendee and the
 * relative has an e-mail, and, when the person cancelled (`by` "person"),
 * tells the owner, naming the first on the waiting list. Refused once the
 * session has started.
 */
async function cancelUnderLock(
  db: Database,
  ids: { registrationId: number; sessionId: number },
  by: "person" | "owner",
  options: LinkOptions,
): Promise<CancelResult> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const session = await lockSession(tx, ids.sessionId);
    const [registration] = await tx
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.id, ids.registrationId))
      .for("update");
    if (!session || !registration || registration.sessionId !== session.id) return "not-found" as const;
    if (registration.status === "cancelled") return "already-cancelled" as const;
    if (new Date(session.startsAt).getTime() <= now.getTime()) return "too-late" as const;
    await tx
      .update(courseRegistrations)
      .set({ status: "cancelled", cancelledAt: now.toISOString(), reminderMailIds: [] })
      .where(eq(courseRegistrations.id, registration.id));
    const mailIds = registration.mailIds.filter((id) => !registration.reminderMailIds.includes(id));
    if (registration.status === "confirmed") {
      await tx
        .update(courseSessions)
        .set({ seatsTaken: sql`${courseSessions.seatsTaken} - ${registration.seats}` })
        .where(eq(courseSessions.id, session.id));
    }
    await dropReminders(tx, registration.reminderMailIds);
    for (const { address, reader } of recipientsOf(registration)) {
      const mailId = await enqueueVisitorMail(options.mailCap, tx, {
        kind: BOOKING_MAIL.registrationCancelled,
        recipient: address,
        people: peopleOf(registration),
        ...registrationCancelledMail({
          courseTitle: courseTitle(session),
          session,
          reader,
          attendeeName: attendeeOf(registration),
          by,
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
            attendee: ownerPerson(registration),
            seats: registration.seats,
            firstWaiting: waiting ? ownerPerson(waiting) : null,
            deskUrl: deskUrl(options.siteUrl, session.id),
          }),
        }),
      );
    }
    await tx.update(courseRegistrations).set({ mailIds }).where(eq(courseRegistrations.id, registration.id));
    return "cancelled" as const;
  });
}

/** Seats an erasure gave back: `seats` of session `sessionId`. */
export interface FreedSeats {
  sessionId: number;
  seats: number;
}

/**
 * After an erasure deleted confirmed registrations (app/desk/person.server.ts),
 * in its transaction: for each session that has not started and is not
 * cancelled, the owner's notice that seats were freed, naming the first on
 * the waiting list (the path of a cancellation: the owner calls them and
 * gives the seat in the desk). The notice joins that person's mails.
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
    const session = await lockSession(tx, sessionId);
    if (!session || session.cancelledAt || new Date(session.startsAt).getTime() <= now.getTime()) continue;
    const waiting = await firstWaiting(tx, sessionId);
    const mailId = await enqueueMail(tx, {
      kind: BOOKING_MAIL.ownerErasure,
      recipient: null,
      people: waiting ? peopleOf(waiting) : [],
      ...ownerErasureMail({
        courseTitle: courseTitle(session),
        session,
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
 * is "not-found" (the desk page of one session cancels only its own).
 * @throws the driver's error (nothing is changed then).
 */
export async function cancelRegistrationByOwner(
  db: Database,
  registrationId: number,
  options: LinkOptions & { sessionId?: number },
): Promise<CancelResult> {
  const [row] = await db
    .select({ sessionId: courseRegistrations.sessionId })
    .from(courseRegistrations)
    .where(eq(courseRegistrations.id, registrationId));
  if (!row || (options.sessionId !== undefined && row.sessionId !== options.sessionId)) return "not-found";
  return cancelUnderLock(db, { registrationId, sessionId: row.sessionId }, "owner", options);
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
    const session = (await lockSession(tx, waiting.sessionId))!;
    if (session.capacity - session.seatsTaken < waiting.seats || session.cancelledAt) return false;
    await tx
      .update(courseSessions)
      .set({ seatsTaken: sql`${courseSessions.seatsTaken} + ${waiting.seats}` })
      .where(eq(courseSessions.id, session.id));
    const recipients = recipientsOf(waiting);
    const token = recipients.length
      ? await issueToken(tx, {
          purpose: REGISTRATION_TOKEN_PURPOSE,
          subject: String(waiting.id),
          expiresAt: tokenExpiry(session),
        })
      : null;
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
              reader,
              attendeeName: attendeeOf(waiting),
              seats: waiting.seats,
              manageUrl: link,
            }),
            attachments: [calendarAttachment({ session, courseTitle: title, manageUrl: link })],
          }),
        );
      }
    }
    const reminderMailIds = await queueReminders(tx, session, waiting, token, options);
    await tx
      .update(courseRegistrations)
      .set({ status: "confirmed", reminderMailIds, mailIds: [...waiting.mailIds, ...mailIds, ...reminderMailIds] })
      .where(eq(courseRegistrations.id, waiting.id));
    return true;
  });
}

/** What `cancelSession` did: how many mails went out, and whom to call (no e-mail). */
export interface SessionCancellation {
  mailed: number;
  toCall: { name: string; phone: string }[];
}

/**
 * The owner cancels a session: it is marked cancelled, pending reminders
 * are dropped, every registrant (confirmed or waiting) with an e-mail is
 * mailed, and those without one are returned, to be called.
 * @returns undefined when there is no such session or it was already cancelled.
 */
export async function cancelSession(
  db: Database,
  sessionId: number,
  now = new Date(),
): Promise<SessionCancellation | undefined> {
  return db.transaction(async (tx) => {
    const session = await lockSession(tx, sessionId);
    if (!session || session.cancelledAt) return undefined;
    await tx.update(courseSessions).set({ cancelledAt: now.toISOString() }).where(eq(courseSessions.id, sessionId));
    const registrations = await tx
      .select()
      .from(courseRegistrations)
      .where(and(eq(courseRegistrations.sessionId, sessionId), sql`${courseRegistrations.status} <> 'cancelled'`))
      .orderBy(asc(courseRegistrations.id));
    const result: SessionCancellation = { mailed: 0, toCall: [] };
    for (const registration of registrations) {
      await dropReminders(tx, registration.reminderMailIds);
      const recipients = recipientsOf(registration);
      const mailIds = registration.mailIds.filter((id) => !registration.reminderMailIds.includes(id));
      for (const { address, reader } of recipients) {
        const mailId = await enqueueMail(tx, {
          kind: BOOKING_MAIL.sessionCancelled,
          recipient: address,
          people: peopleOf(registration),
          ...sessionCancelledMail({
            courseTitle: courseTitle(session),
            session,
            reader,
            attendeeName: attendeeOf(registration),
          }),
        });
        mailIds.push(mailId);
        result.mailed += 1;
      }
      await tx
        .update(courseRegistrations)
        .set({ reminderMailIds: [], mailIds })
        .where(eq(courseRegistrations.id, registration.id));
      if (recipients.length === 0) {
        result.toCall.push({
          name: fullName(registration.firstName, registration.lastName),
          phone: registration.bookerPhone ?? registration.phone,
        });
      }
    }
    return result;
  });
}

/** A session's registrations (confirmed, waiting, cancelled) in arrival order, for the desk. */
export async function listRegistrations(db: Database, sessionId: number): Promise<RegistrationRow[]> {
  return db
    .select()
    .from(courseRegistrations)
    .where(eq(courseRegistrations.sessionId, sessionId))
    .orderBy(asc(courseRegistrations.id));
}
