/**
 * The people of a registration and what its mails carry: the addresses
 * they go to (`recipientsOf`), the people named in the outbox
 * (`peopleOf`), the owner's view (`ownerPerson`, `toCall`), the link token
 * (`newLink`, purpose `course-registration`, valid until 7 days after the
 * group's last date) and the calendar file (`groupCalendar`).
 */
import type { Database } from "~/db/client.server";
import type { courseRegistrations } from "~/db/schema";
import type { MailPerson } from "~/mail/enqueue.server";
import type { RecipientCap } from "~/mail/recipient-cap.server";
import type { SmsChannel } from "~/mail/sms.server";
import { issueToken } from "~/tokens/tokens.server";
import { calendarAttachment } from "./ics.server";
import { registrationPath } from "./links";
import type { Reader } from "./mails.server";
import type { OwnerPerson } from "./owner-mails.server";
import { lastStart, type SeatGroup } from "./seats.server";
import { courseBySlug, type SessionRow } from "./sessions.server";

/** A registration row as Drizzle reads it. */
export type RegistrationRow = typeof courseRegistrations.$inferSelect;

/** The purpose of a registration's link token (`link_tokens.purpose`; its subject is the registration's id). */
export const REGISTRATION_TOKEN_PURPOSE = "course-registration";
/** How long after a session's start its links still open the confirmation page. */
const TOKEN_DAYS_AFTER_START = 7;
/** When a registration's links stop opening its page: 7 days after its last date. */
export const tokenExpiry = (group: SeatGroup) =>
  new Date(new Date(lastStart(group)).getTime() + TOKEN_DAYS_AFTER_START * 86_400_000);

/** Where links in mails point: the site's absolute URL (SITE_URL, no trailing slash). */
export interface LinkOptions {
  siteUrl: string;
  /** The current time (tests pass a fixed clock). */
  now?: Date;
  /** A public action's cap on mails to visitors' addresses (app/mail/recipient-cap.server.ts); absent in the desk. */
  mailCap?: RecipientCap;
  /** The SMS settings (sms-channel.server.ts) when the message may go by SMS; absent: mail or the call list only. */
  sms?: SmsChannel;
}

/** The page a registration's link opens. */
export const manageUrl = (siteUrl: string, token: string) => `${siteUrl}${registrationPath(token)}`;
/** The desk's page of a session. */
export const deskUrl = (siteUrl: string, sessionId: number) => `${siteUrl}/admin/cours/${sessionId}`;
/** The course's title (its slug when the course is gone from the content). */
export function courseTitle(session: Pick<SessionRow, "courseId">): string {
  return courseBySlug(session.courseId)?.title ?? session.courseId;
}

/** "Prénom Nom". */
export const fullName = (first: string, last: string) => `${first} ${last}`;

/** An address a registration's mails go to, and who reads there. */
export interface Recipient {
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
export function recipientsOf(registration: MailedPerson): Recipient[] {
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

/** The attendee's full name. */
export const attendeeOf = (registration: Pick<RegistrationRow, "firstName" | "lastName">) =>
  fullName(registration.firstName, registration.lastName);
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

/** The attendee as the owner's mails name them. */
export const ownerPerson = (registration: RegistrationRow): OwnerPerson => ({
  name: fullName(registration.firstName, registration.lastName),
  phone: registration.phone,
  email: registration.email,
});
/** The calendar file of registration `registrationId`: one event per date still held (with `cancelUntil`: the deadline). */
export const groupCalendar = (
  group: SeatGroup,
  courseTitle: string,
  manageUrl: string,
  registrationId: number,
  cancelUntil?: Date,
) =>
  calendarAttachment({
    session: group.anchor,
    lessons: group.lessons,
    courseTitle,
    manageUrl,
    registrationId,
    ...(cancelUntil ? { cancelUntil } : {}),
  });
/**
 * A new link token for `registration` when a mail will carry it (someone of
 * `recipients`), valid until 7 days after the group's last date; null
 * without a recipient.
 */
export async function newLink(
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

/** Whom the owner calls about a registration without e-mail: the attendee, at the relative's telephone if any. */
export const toCall = (registration: RegistrationRow) => ({
  name: fullName(registration.firstName, registration.lastName),
  phone: registration.bookerPhone ?? registration.phone,
});
