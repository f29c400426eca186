/**
 * What a registration prepares before its transaction (decision 055): the
 * row's values (telephones in E.164, the code word) and its mails, rendered
 * for an outcome (confirmed, or waiting at a position) on a group as it was
 * read, and kept: under the series' lock, `registerForSession` takes the
 * mails of the outcome it finds, rendered again only when that outcome or
 * the group's dates differ from what was prepared.
 *
 * - `registrationValues(input, options, now)` → the row to insert, but its
 *   session, series, status and payment;
 * - `preparedMails(input, values, token, options, replyTo).of(group, status, position)`
 *   → `{ title, link, visitor, reminders, owner }` (the visitor mails without
 *   the calendar file, which names the registration's id);
 * - `waitingCount(db, sessionId)`: how many wait now (no lock).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseRegistrations } from "~/db/schema";
import type { MailToSend } from "~/mail/enqueue.server";
import { paysByInWords } from "~/content/payment";
import { newCodeWord } from "~/trust/code-word.server";
import { toE164 } from "~/utils/phone";
import type { ClientLimit } from "./limits.server";
import { cancelDeadlineAt, type CancelDeadline } from "./deadlines.server";
import { BOOKING_MAIL, registrationMail } from "./mails.server";
import { ownerRegistrationMail } from "./owner-mails.server";
import {
  courseTitle,
  deskUrl,
  fullName,
  manageUrl,
  ownerPerson,
  peopleOf,
  recipientsOf,
  type LinkOptions,
  type RegistrationRow,
} from "./registrants.server";
import { reminderMails } from "./reminders.server";
import { paymentOf, registersRelative, type BookingInput } from "./schema";
import { firstStart, lessonsOf, type SeatGroup } from "./seats.server";

/** The values of a new registration that do not depend on the seats. */
export function registrationValues(
  input: BookingInput,
  options: { source?: "web" | "desk"; clientLimit?: ClientLimit },
  now: Date,
) {
  const relative = registersRelative(input);
  return {
    seats: Number(input.seats),
    firstName: input.firstName,
    lastName: input.lastName,
    phone: input.phone,
    phoneE164: toE164(input.phone),
    smsConsent: input.smsConsent === "on",
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
  };
}

/** What a registration writes to the outbox for one outcome. */
export interface RegistrationMails {
  title: string;
  /** The registration's page (its token's link). */
  link: string;
  /** To the attendee and the relative: confirmation or waiting-list notice, without the calendar file. */
  visitor: MailToSend[];
  /** The reminders before each date (confirmed only). */
  reminders: MailToSend[];
  /** The owner's notice. */
  owner: MailToSend;
  /** A confirmed seat's cancellation deadline (decision 052): in its mails and its calendar file. */
  cancel?: CancelDeadline;
}

/** A group's dates as its mails show them: the seats taken left out (they change with every booking). */
const groupShown = (group: SeatGroup) =>
  JSON.stringify([group.anchor, ...group.lessons].map(({ seatsTaken: _seats, ...shown }) => shown));

/**
 * The mails of a registration, rendered once per outcome and group (kept:
 * `of` renders again only for an outcome or dates not seen yet).
 */
export function preparedMails(
  input: BookingInput,
  values: ReturnType<typeof registrationValues>,
  token: string,
  options: LinkOptions & { cancelDeadlineHours: number },
  replyTo: string,
) {
  const kept = new Map<string, RegistrationMails>();
  const link = manageUrl(options.siteUrl, token);
  return {
    of(group: SeatGroup, status: "confirmed" | "waiting", position: number | null): RegistrationMails {
      const key = JSON.stringify([status, position, groupShown(group)]);
      const known = kept.get(key);
      if (known) return known;
      const paying = paymentOf(group.anchor.payment, input);
      // The fields the mails read are those the row is written with (its id is not among them).
      const row = {
        ...values,
        ...(paying.ok ? paying.payment : {}),
        id: 0,
        sessionId: group.anchor.id,
        seriesId: group.seriesId,
        status,
      } as RegistrationRow;
      const session = group.anchor;
      const title = courseTitle(session);
      const cancel =
        status === "confirmed"
          ? cancelDeadlineAt(firstStart(group), options.cancelDeadlineHours, options.now ?? new Date())
          : undefined;
      const attendeeName = fullName(row.firstName, row.lastName);
      const visitor = recipientsOf(row).map(({ address, reader }) => ({
        kind: status === "confirmed" ? BOOKING_MAIL.confirmation : BOOKING_MAIL.waiting,
        recipient: address,
        replyTo,
        people: peopleOf(row),
        ...registrationMail({
          courseTitle: title,
          session,
          lessons: lessonsOf(group),
          reader,
          attendeeName,
          seats: row.seats,
          position,
          manageUrl: link,
          codeWord: row.codeWord,
          payment: row,
          ...(cancel ? { cancel } : {}),
        }),
      }));
      const reminders =
        status === "confirmed"
          ? reminderMails(group, row, token, options, undefined, options.cancelDeadlineHours).map((mail) => ({
              ...mail,
              replyTo,
            }))
          : [];
      const owner: MailToSend = {
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
          seats: row.seats,
          position,
          message: row.message,
          codeWord: row.codeWord,
          payment: paysByInWords(row),
          deskUrl: deskUrl(options.siteUrl, session.id),
        }),
      };
      const mails = { title, link, visitor, reminders, owner, ...(cancel ? { cancel } : {}) };
      kept.set(key, mails);
      return mails;
    },
  };
}

/** How many registrations wait for session `sessionId` now (read without a lock). */
export async function waitingCount(db: Database, sessionId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(courseRegistrations)
    .where(and(eq(courseRegistrations.sessionId, sessionId), eq(courseRegistrations.status, "waiting")));
  return Number(row?.count ?? 0);
}
