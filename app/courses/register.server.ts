/**
 * A registration for a session (the public form, or the owner taking one
 * by telephone): seats under the group's locks (app/courses/seats.server.ts),
 * the mails, the reminders and the owner's notice in one transaction.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseRegistrations } from "~/db/schema";
import { enqueueVisitorMail } from "~/mail/recipient-cap.server";
import { issueToken } from "~/tokens/tokens.server";
import { newCodeWord } from "~/trust/code-word.server";
import { toE164 } from "~/utils/phone";
import { paysByInWords } from "~/content/payment";
import { seatsAllowed, type ClientLimit } from "./limits.server";
import { BOOKING_MAIL, registrationMail } from "./mails.server";
import { ownerRegistrationMail } from "./owner-mails.server";
import {
  courseTitle,
  deskUrl,
  fullName,
  groupCalendar,
  manageUrl,
  ownerPerson,
  peopleOf,
  recipientsOf,
  REGISTRATION_TOKEN_PURPOSE,
  tokenExpiry,
  type LinkOptions,
} from "./registrants.server";
import { queueReminders } from "./reminders.server";
import { paymentOf, registersRelative, type BookingInput } from "./schema";
import { firstStart, freeSeats, groupClosed, lessonsOf, lockSeats, moveSeats } from "./seats.server";
import { cancelDeadlineOf } from "./deadlines.server";
import { firstWaiting, waitingPosition } from "./waiting-list.server";
import { enqueueOwnerNotice } from "./owner-digest.server";

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
  | { outcome: "closed" }
  /** How it pays does not fit the date (`paymentOf`): French messages by field; nothing written. */
  | { outcome: "payment"; errors: Record<string, string[]> };

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
 * each; it closes when its first date begins. How it pays must fit the
 * date's `payment` (`paymentOf`: the choice, and the postal address by
 * invoice), else `payment` with the messages by field.
 * @throws the driver's error when the database fails (nothing is written).
 */
export async function registerForSession(
  db: Database,
  input: BookingInput,
  options: LinkOptions & { source?: "web" | "desk"; clientLimit?: ClientLimit; ownerNoticesPerHour?: number },
): Promise<RegistrationResult> {
  const now = options.now ?? new Date();
  const seats = Number(input.seats);
  return db.transaction(async (tx) => {
    const group = await lockSeats(tx, input.sessionId);
    if (!group || groupClosed(group, now)) return { outcome: "closed" } as const;
    const session = group.anchor;
    const paying = paymentOf(session.payment, input);
    if (!paying.ok) return { outcome: "payment", errors: paying.errors } as const;
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
        ...paying.payment,
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
    // A confirmed seat's cancellation deadline (decision 052): in its mails and its calendar file.
    const cancel = status === "confirmed" ? await cancelDeadlineOf(tx, firstStart(group), now) : undefined;
    const attachments = cancel ? [groupCalendar(group, title, link, row.id, cancel.until)] : null;
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
          payment: row,
          ...(cancel ? { cancel } : {}),
        }),
        attachments,
      });
      if (mailId !== null) mailIds.push(mailId);
    }
    const reminderMailIds = status === "confirmed" ? await queueReminders(tx, group, row, token, options) : [];
    const ownerMailId = await enqueueOwnerNotice(tx, options.ownerNoticesPerHour, now, {
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
        payment: paysByInWords(row),
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
