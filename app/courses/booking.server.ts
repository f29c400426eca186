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
 * Series (docs/decisions/027-course-series.md): a registration for a
 * session of a series is a registration for the whole series. It locks
 * every session of the series, in id order (`lockSeats`: the same order in
 * every transaction, so two never wait on each other), takes its seats on
 * each, and points at the series' first session (its anchor, where the
 * waiting list and the telephone check read). Its mails, calendar file and
 * reminders name every date still held.
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
import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
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
  seriesDateCancelledMail,
  seriesDateMovedMail,
  sessionCancelledMail,
  sessionWhen,
  type OwnerPerson,
  type Reader,
} from "./mails.server";
import { calendarAttachment } from "./ics.server";
import { seatsAllowed, type ClientLimit } from "./limits.server";
import { registrationPath } from "./links";
import { registersRelative, type BookingInput } from "./schema";
import { courseBySlug, placeInWords, seriesLessons, type SessionFields, type SessionRow } from "./sessions.server";

/** A registration row as Drizzle reads it. */
export type RegistrationRow = typeof courseRegistrations.$inferSelect;

/** The purpose of a registration's link token (`link_tokens.purpose`; its subject is the registration's id). */
export const REGISTRATION_TOKEN_PURPOSE = "course-registration";
/** How long after a session's start its links still open the confirmation page. */
const TOKEN_DAYS_AFTER_START = 7;
/** When a registration's links stop opening its page: 7 days after its last date. */
const tokenExpiry = (group: SeatGroup) =>
  new Date(new Date(lastStart(group)).getTime() + TOKEN_DAYS_AFTER_START * 86_400_000);
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
  /** The same telephone is already registered (confirmed or waiting) for this session or series (`series`): nothing written. */
  | { outcome: "already-registered"; series: boolean }
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

// --- Seat groups: the sessions one registration holds seats on.

/**
 * The sessions a registration holds its seats on, locked: a single-date
 * session, or every session of a series.
 */
export interface SeatGroup {
  /** The session registrations point at: the single session, or the series' first session by id. */
  anchor: SessionRow;
  /** Every session of the group, cancelled ones too, in id order (the lock order). */
  sessions: SessionRow[];
  /** The dates still held, by start: what the mails, the calendar file and the reminders name. */
  lessons: SessionRow[];
  /** The series' id, or null for a single-date session. */
  seriesId: number | null;
}

/**
 * Locks the sessions of `sessionId`'s group (`select ... for update`):
 * the session alone, or every session of its series in id order (the
 * order every transaction takes them in, so none waits for another in a
 * circle). Seats move on every session of a series together, so each
 * session's check (`seats_taken <= capacity`) holds on every date.
 * @returns undefined when there is no such session.
 */
async function lockSeats(tx: Database, sessionId: number): Promise<SeatGroup | undefined> {
  const [found] = await tx
    .select({ seriesId: courseSessions.seriesId })
    .from(courseSessions)
    .where(eq(courseSessions.id, sessionId));
  if (!found) return undefined;
  if (found.seriesId === null) {
    const session = await lockSession(tx, sessionId);
    return session && { anchor: session, sessions: [session], lessons: [session], seriesId: null };
  }
  const sessions = await tx
    .select()
    .from(courseSessions)
    .where(eq(courseSessions.seriesId, found.seriesId))
    .orderBy(asc(courseSessions.id))
    .for("update");
  return { anchor: sessions[0]!, sessions, lessons: seriesLessons(sessions), seriesId: found.seriesId };
}

/** When the group begins: its first date still held (the anchor's when every date is cancelled). */
const firstStart = (group: SeatGroup) => (group.lessons[0] ?? group.anchor).startsAt;
/** The start of the group's last date still held. */
const lastStart = (group: SeatGroup) => (group.lessons.at(-1) ?? group.anchor).startsAt;
/** Whether the group no longer takes registrations at `now`: cancelled (every date), or begun. */
const groupClosed = (group: SeatGroup, now: Date) =>
  (group.seriesId === null ? group.anchor.cancelledAt !== null : group.lessons.length === 0) ||
  new Date(firstStart(group)).getTime() <= now.getTime();
/** The seats free on every session of the group. */
const freeSeats = (group: SeatGroup) =>
  Math.min(...group.sessions.map((session) => session.capacity - session.seatsTaken));

/** Adds `delta` seats (negative: gives them back) to every session of the group, under its locks. */
async function moveSeats(tx: Database, group: SeatGroup, delta: number): Promise<void> {
  await tx
    .update(courseSessions)
    .set({ seatsTaken: sql`${courseSessions.seatsTaken} + ${delta}` })
    .where(
      inArray(
        courseSessions.id,
        group.sessions.map((session) => session.id),
      ),
    );
}

/** What the mails say of the group's dates: every date of a series, nothing more for a single session. */
const lessonsOf = (group: SeatGroup) => (group.seriesId === null ? undefined : group.lessons);

/** The registration's calendar file: one event per date still held. */
const groupCalendar = (group: SeatGroup, courseTitle: string, manageUrl: string) =>
  calendarAttachment({ session: group.anchor, lessons: group.lessons, courseTitle, manageUrl });

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

/** When the reminder of the date `session` leaves: 24 hours before its start. */
const reminderTime = (session: Pick<SessionRow, "startsAt">) =>
  new Date(new Date(session.startsAt).getTime() - REMINDER_BEFORE_MS);

/**
 * Queues the reminder to each address 24 hours before each date of the
 * group (`lessons`: every date of a series still held, or the single
 * session; only the date `onlyDate` when given), none for a date whose
 * reminder time is already past.
 */
async function queueReminders(
  tx: Database,
  group: Pick<SeatGroup, "lessons">,
  registration: RegistrationRow,
  token: string | null,
  { siteUrl, now = new Date(), mailCap }: LinkOptions,
  onlyDate?: number,
): Promise<number[]> {
  const ids: (number | null)[] = [];
  for (const [index, session] of group.lessons.entries()) {
    if (onlyDate !== undefined && session.id !== onlyDate) continue;
    const notBefore = reminderTime(session);
    if (notBefore.getTime() <= now.getTime()) continue;
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
            lesson: group.lessons.length > 1 ? { number: index + 1, of: group.lessons.length } : null,
            reader,
            attendeeName: attendeeOf(registration),
            manageUrl: token ? manageUrl(siteUrl, token) : null,
          }),
        }),
      );
    }
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
 * capped (a mail held is not written; the registration is). A session of
 * a series registers for the whole series (`lockSeats`): a seat on each
 * date, the mails and the calendar file with every date, a reminder before
 * each; it closes when its first date begins.
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
    const group = await lockSeats(tx, input.sessionId);
    if (!group || groupClosed(group, now)) return { outcome: "closed" } as const;
    const session = group.anchor;
    if (await phoneRegistered(tx, session.id, input.phone)) {
      return { outcome: "already-registered", series: group.seriesId !== null } as const;
    }
    if (!(await seatsAllowed(tx, options.clientLimit, seats))) return { outcome: "address-limit" } as const;
    const anyoneWaiting = (await firstWaiting(tx, session.id)) !== undefined;
    const left = anyoneWaiting ? 0 : freeSeats(group);
    if (left > 0 && left < seats) return { outcome: "too-few-seats", left } as const;
    const status = left >= seats ? "confirmed" : "waiting";
    if (status === "confirmed") await moveSeats(tx, group, seats);
    const relative = registersRelative(input);
    const [registration] = await tx
      .insert(courseRegistrations)
      .values({
        sessionId: session.id,
        seriesId: group.seriesId,
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
      expiresAt: tokenExpiry(group),
    });
    const position = status === "waiting" ? await waitingPosition(tx, session.id, row.id) : null;
    const title = courseTitle(session);
    const attendeeName = fullName(row.firstName, row.lastName);
    const mailIds: number[] = [];
    const link = manageUrl(options.siteUrl, token);
    // A confirmed seat's mails carry the calendar file; a place on the waiting list is not a date yet.
    const attachments = status === "confirmed" ? [groupCalendar(group, title, link)] : null;
    for (const { address, reader } of recipientsOf(row)) {
      const mailId = await enqueueVisitorMail(options.mailCap, tx, {
        kind: status === "confirmed" ? BOOKING_MAIL.confirmation : BOOKING_MAIL.waiting,
        recipient: address,
        people: peopleOf(row),
        ...registrationMail({
          courseTitle: title,
          session,
          lessons: lessonsOf(group),
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
    const reminderMailIds = status === "confirmed" ? await queueReminders(tx, group, row, token, options) : [];
    const ownerMailId = await enqueueMail(tx, {
      kind: BOOKING_MAIL.ownerRegistration,
      recipient: null,
      people: peopleOf(row),
      ...ownerRegistrationMail({
        courseTitle: title,
        session,
        lessons: lessonsOf(group),
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

/**
 * A registration opened by its link: the row, its session (a series' first
 * session), its dates (`lessons`: every date of its series still held, by
 * start; the session alone for a single date), and its waiting position
 * (null unless waiting).
 */
export interface RegistrationByToken {
  registration: RegistrationRow;
  session: SessionRow;
  lessons: SessionRow[];
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
  const lessons =
    row.session.seriesId === null
      ? [row.session]
      : seriesLessons(await db.select().from(courseSessions).where(eq(courseSessions.seriesId, row.session.seriesId)));
  return { ...row, lessons, position };
}

/** Whether every date of the registration's session or series is cancelled (nothing left to attend). */
export function everyDateCancelled({ session, lessons }: Pick<RegistrationByToken, "session" | "lessons">): boolean {
  return session.seriesId === null ? session.cancelledAt !== null : lessons.length === 0;
}

/** Deletes reminders not sent yet. */
async function dropReminders(tx: Database, ids: number[]): Promise<void> {
  if (ids.length) await tx.delete(outbox).where(and(inArray(outbox.id, ids), isNull(outbox.sentAt)));
}

/**
 * Deletes the reminders among `ids` not sent yet.
 * @returns the ids deleted.
 */
async function dropPendingReminders(tx: Database, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const pending = await tx
    .delete(outbox)
    .where(and(inArray(outbox.id, ids), isNull(outbox.sentAt)))
    .returning({ id: outbox.id });
  return pending.map((row) => row.id);
}

/**
 * Deletes the reminders among `ids` that are about the date `session` (the
 * ones leaving 24 hours before it), sent or not: the sent ones leave the
 * outbox's pending list only by being deleted with their registration.
 * @returns the ids of the reminders of that date (deleted when not sent).
 */
async function dropRemindersOfDate(
  tx: Database,
  ids: number[],
  session: Pick<SessionRow, "startsAt">,
): Promise<number[]> {
  if (!ids.length) return [];
  const ofDate = await tx
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(inArray(outbox.id, ids), eq(outbox.notBefore, reminderTime(session).toISOString())));
  const dateIds = ofDate.map((row) => row.id);
  await dropReminders(tx, dateIds);
  return dateIds;
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
  if (options.sessionId !== undefined && row.sessionId !== options.sessionId) {
    // A series' registration belongs to the page of every date of the series.
    const [page] = await db
      .select({ seriesId: courseSessions.seriesId })
      .from(courseSessions)
      .where(eq(courseSessions.id, options.sessionId));
    if (row.seriesId === null || page?.seriesId !== row.seriesId) return "not-found";
  }
  return cancelUnderLock(db, { registrationId, sessionId: row.sessionId }, "owner", options);
}

/**
 * A new link token for `registration` when a mail will carry it (someone of
 * `recipients`), valid until 7 days after the group's last date; null
 * without a recipient.
 */
async function newLink(
  tx: Database,
  registration: RegistrationRow,
  recipients: readonly Recipient[],
  group: SeatGroup,
): Promise<string | null> {
  if (!recipients.length) return null;
  return issueToken(tx, {
    purpose: REGISTRATION_TOKEN_PURPOSE,
    subject: String(registration.id),
    expiresAt: tokenExpiry(group),
  });
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
            }),
            attachments: [groupCalendar(group, title, link)],
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

/** The registrations (confirmed or waiting) of the session or series whose anchor is `anchorId`, in arrival order. */
function activeRegistrations(tx: Database, anchorId: number): Promise<RegistrationRow[]> {
  return tx
    .select()
    .from(courseRegistrations)
    .where(and(eq(courseRegistrations.sessionId, anchorId), sql`${courseRegistrations.status} <> 'cancelled'`))
    .orderBy(asc(courseRegistrations.id));
}

/** Whom the owner calls about a registration without e-mail: the attendee, at the relative's telephone if any. */
const toCall = (registration: RegistrationRow) => ({
  name: fullName(registration.firstName, registration.lastName),
  phone: registration.bookerPhone ?? registration.phone,
});

/** What `cancelSession` did: how many mails went out, and whom to call (no e-mail). */
export interface SessionCancellation {
  mailed: number;
  toCall: { name: string; phone: string }[];
}

/**
 * The owner cancels a session: it is marked cancelled, pending reminders
 * are dropped, every registrant (confirmed or waiting) with an e-mail is
 * mailed, and those without one are returned, to be called. One date of a
 * series: the registrations of the series stay (the other dates are still
 * held); only that date's reminders are dropped, and the mail says which
 * date is cancelled and lists the dates that remain.
 * @returns undefined when there is no such session or it was already cancelled.
 */
export async function cancelSession(
  db: Database,
  sessionId: number,
  now = new Date(),
): Promise<SessionCancellation | undefined> {
  return db.transaction(async (tx) => {
    const group = await lockSeats(tx, sessionId);
    const session = group?.sessions.find((row) => row.id === sessionId);
    if (!group || !session || session.cancelledAt) return undefined;
    await tx.update(courseSessions).set({ cancelledAt: now.toISOString() }).where(eq(courseSessions.id, sessionId));
    const oneDate = group.seriesId !== null;
    const remaining = group.lessons.filter((lesson) => lesson.id !== sessionId);
    const registrations = await activeRegistrations(tx, group.anchor.id);
    const result: SessionCancellation = { mailed: 0, toCall: [] };
    for (const registration of registrations) {
      const dropped = oneDate
        ? await dropRemindersOfDate(tx, registration.reminderMailIds, session)
        : registration.reminderMailIds;
      if (!oneDate) await dropReminders(tx, dropped);
      const recipients = recipientsOf(registration);
      const mailIds = registration.mailIds.filter((id) => !dropped.includes(id));
      for (const { address, reader } of recipients) {
        const mail = { courseTitle: courseTitle(session), session, reader, attendeeName: attendeeOf(registration) };
        const mailId = await enqueueMail(tx, {
          kind: BOOKING_MAIL.sessionCancelled,
          recipient: address,
          people: peopleOf(registration),
          ...(oneDate ? seriesDateCancelledMail({ ...mail, remaining }) : sessionCancelledMail(mail)),
        });
        mailIds.push(mailId);
        result.mailed += 1;
      }
      await tx
        .update(courseRegistrations)
        .set({ reminderMailIds: registration.reminderMailIds.filter((id) => !dropped.includes(id)), mailIds })
        .where(eq(courseRegistrations.id, registration.id));
      if (recipients.length === 0) result.toCall.push(toCall(registration));
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
 * be called.
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
    const result: SeriesDateMove = { mailed: 0, toCall: [] };
    for (const registration of registrations) {
      // Every reminder still to leave is written again: the moved date's, and the others' "séance 2 sur 4",
      // which changes when the date moves past another.
      const dropped = await dropPendingReminders(tx, registration.reminderMailIds);
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
            attachments: confirmed ? [groupCalendar(group, title, link)] : null,
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
      if (recipients.length === 0) result.toCall.push(toCall(registration));
    }
    return result;
  });
}

/**
 * A session's registrations (confirmed, waiting, cancelled) in arrival
 * order, for the desk: for a date of a series, the series' registrations
 * (each holds a seat on every date).
 */
export async function listRegistrations(db: Database, sessionId: number): Promise<RegistrationRow[]> {
  return db
    .select()
    .from(courseRegistrations)
    .where(
      or(
        eq(courseRegistrations.sessionId, sessionId),
        sql`${courseRegistrations.seriesId} = (select s.series_id from course_sessions s where s.id = ${sessionId})`,
      ),
    )
    .orderBy(asc(courseRegistrations.id));
}
