/**
 * A registration for a session (the public form, or the owner taking one
 * by telephone): seats under the group's locks (app/courses/seats.server.ts),
 * the mails, the reminders and the owner's notice in one transaction, the
 * mails rendered before it (register-mails.server.ts, decision 055).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseRegistrations } from "~/db/schema";
import { ownerReplyTo } from "~/mail/enqueue.server";
import { enqueueVisitorMails } from "~/mail/recipient-cap.server";
import { readSiteSettings } from "~/settings/site.server";
import { issueToken, newToken } from "~/tokens/tokens.server";
import { toE164 } from "~/utils/phone";
import { seatsAllowed, type ClientLimit } from "./limits.server";
import { enqueueOwnerNotice } from "./owner-digest.server";
import { preparedMails, registrationValues, waitingCount } from "./register-mails.server";
import { groupCalendar, REGISTRATION_TOKEN_PURPOSE, tokenExpiry, type LinkOptions } from "./registrants.server";
import { paymentOf, type BookingInput } from "./schema";
import { freeSeats, groupClosed, inSeatTurn, lockSeats, moveSeats, readSeats } from "./seats.server";
import { firstWaiting, waitingPosition } from "./waiting-list.server";

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
 *
 * What waits where (decision 055): everything that does not depend on the
 * seats is prepared before (the row's values, telephones in E.164, the code
 * word, the link's token, the Reply-To); the process's bookings of one
 * series then take turns in memory (`inSeatTurn`), each reading the seats
 * as they stand and rendering its mails before its transaction; the
 * transaction locks the series only to count and write (mails re-rendered
 * inside only when another process changed the outcome meanwhile).
 * @throws the driver's error when the database fails (nothing is written).
 */
export async function registerForSession(
  db: Database,
  input: BookingInput,
  options: LinkOptions & { source?: "web" | "desk"; clientLimit?: ClientLimit; ownerNoticesPerHour?: number },
): Promise<RegistrationResult> {
  const now = options.now ?? new Date();
  const seats = Number(input.seats);
  const ahead = await readSeats(db, input.sessionId);
  if (!ahead) return { outcome: "closed" } as const;
  const token = newToken();
  const draft = registrationValues(input, options, now);
  const settings = await readSiteSettings(db);
  const mails = preparedMails(
    input,
    draft,
    token,
    { ...options, cancelDeadlineHours: settings.courses.cancelDeadlineHours },
    ownerReplyTo(settings.identity),
  );
  return inSeatTurn(ahead, async () => {
    // The outcome as the seats stand after this process's earlier bookings: its mails rendered here, not under the lock.
    const standing = await readSeats(db, input.sessionId);
    if (standing && !groupClosed(standing, now)) {
      const waiting = await waitingCount(db, standing.anchor.id);
      const left = waiting > 0 ? 0 : freeSeats(standing);
      if (left >= seats) mails.of(standing, "confirmed", null);
      else if (left === 0) mails.of(standing, "waiting", waiting + 1);
    }
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
      const [row] = await tx
        .insert(courseRegistrations)
        .values({ ...draft, sessionId: session.id, seriesId: group.seriesId, status, ...paying.payment })
        .returning();
      const registration = row!;
      await issueToken(tx, {
        purpose: REGISTRATION_TOKEN_PURPOSE,
        subject: String(registration.id),
        expiresAt: tokenExpiry(group),
        token,
      });
      const position = status === "waiting" ? await waitingPosition(tx, session.id, registration.id) : null;
      const rendered = mails.of(group, status, position);
      // A confirmed seat's mails carry the calendar file (it names the registration); a place on the waiting list is not a date yet.
      const calendar =
        status === "confirmed"
          ? [groupCalendar(group, rendered.title, rendered.link, registration.id, rendered.cancel?.until)]
          : null;
      // The confirmation (or notice) and the reminders counted and written together: a few statements under the lock.
      const visitor = rendered.visitor.map((mail) => ({ ...mail, attachments: calendar }));
      const written = await enqueueVisitorMails(options.mailCap, tx, [...visitor, ...rendered.reminders]);
      const present = (ids: (number | null)[]) => ids.filter((id) => id !== null);
      const mailIds = present(written.slice(0, visitor.length));
      const reminderMailIds = present(written.slice(visitor.length));
      const ownerMailId = await enqueueOwnerNotice(tx, options.ownerNoticesPerHour, now, rendered.owner);
      await tx
        .update(courseRegistrations)
        .set({ reminderMailIds, mailIds: [...mailIds, ...reminderMailIds, ownerMailId] })
        .where(eq(courseRegistrations.id, registration.id));
      return position === null
        ? ({ outcome: "confirmed", registrationId: registration.id, token } as const)
        : ({ outcome: "waiting", registrationId: registration.id, token, position } as const);
    });
  });
}
