/**
 * The reminders of a registration: one mail to each address 24 hours
 * before each date still held (with the cancellation deadline as it
 * stands when it leaves), queued in the outbox with a `not_before`;
 * dropped (when not sent yet) on a cancellation or a change of date.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import type { MailToSend } from "~/mail/enqueue.server";
import { enqueueVisitorMails } from "~/mail/recipient-cap.server";
import { BOOKING_MAIL, reminderMail } from "./mails.server";
import {
  attendeeOf,
  courseTitle,
  manageUrl,
  peopleOf,
  recipientsOf,
  type LinkOptions,
  type RegistrationRow,
} from "./registrants.server";
import { readSiteSettings } from "~/settings/site.server";
import { cancelDeadlineAt } from "./deadlines.server";
import type { SeatGroup } from "./seats.server";
import type { SessionRow } from "./sessions.server";

/** The reminder leaves this long before the start. */
export const REMINDER_BEFORE_MS = 24 * 3_600_000;
/** When the reminder of the date `session` leaves: 24 hours before its start. */
export const reminderTime = (session: Pick<SessionRow, "startsAt">) =>
  new Date(new Date(session.startsAt).getTime() - REMINDER_BEFORE_MS);

/**
 * The reminders to each address 24 hours before each date of the group
 * (`lessons`: every date of a series still held, or the single session;
 * only the date `onlyDate` when given), none for a date whose reminder time
 * is already past: rendered, not written (`queueReminders` writes them; a
 * registration renders them before it takes the series' lock). Each says
 * the cancellation deadline (`cancelDeadlineHours` before the first date,
 * Réglages) as it stands when the reminder leaves (decision 052).
 */
export function reminderMails(
  group: Pick<SeatGroup, "lessons">,
  registration: RegistrationRow,
  token: string | null,
  { siteUrl, now = new Date() }: Pick<LinkOptions, "siteUrl" | "now">,
  onlyDate: number | undefined,
  cancelDeadlineHours: number,
): MailToSend[] {
  const mails: MailToSend[] = [];
  const first = group.lessons[0];
  for (const [index, session] of group.lessons.entries()) {
    if (onlyDate !== undefined && session.id !== onlyDate) continue;
    const notBefore = reminderTime(session);
    if (notBefore.getTime() <= now.getTime()) continue;
    for (const { address, reader } of recipientsOf(registration)) {
      mails.push({
        kind: BOOKING_MAIL.reminder,
        recipient: address,
        notBefore,
        // Past the lesson's start, a reminder is no longer true: given up, never sent late.
        notAfter: new Date(session.startsAt),
        people: peopleOf(registration),
        ...reminderMail({
          courseTitle: courseTitle(session),
          session,
          lesson: group.lessons.length > 1 ? { number: index + 1, of: group.lessons.length } : null,
          reader,
          attendeeName: attendeeOf(registration),
          manageUrl: token ? manageUrl(siteUrl, token) : null,
          payment: registration,
          ...(first ? { cancel: cancelDeadlineAt(first.startsAt, cancelDeadlineHours, notBefore) } : {}),
        }),
      });
    }
  }
  return mails;
}

/**
 * Writes `mails` (visitor mails: `reminderMails`) in `tx`, each under the
 * recipients' daily cap when `mailCap` is given.
 * @returns the ids of the mails written (a mail held by the cap has none).
 */
export async function writeVisitorMails(
  tx: Database,
  mails: readonly MailToSend[],
  mailCap: LinkOptions["mailCap"],
): Promise<number[]> {
  // One count per recipient and one insert for all (`enqueueVisitorMails`): a booking holds its series' lock meanwhile.
  const ids = await enqueueVisitorMails(mailCap, tx, mails);
  return ids.filter((id) => id !== null);
}

/** Queues the reminders `reminderMails` renders, in `tx`. @returns the ids of the mails written. */
export async function queueReminders(
  tx: Database,
  group: Pick<SeatGroup, "lessons">,
  registration: RegistrationRow,
  token: string | null,
  options: LinkOptions,
  onlyDate?: number,
): Promise<number[]> {
  const hours = (await readSiteSettings(tx)).courses.cancelDeadlineHours;
  return writeVisitorMails(tx, reminderMails(group, registration, token, options, onlyDate, hours), options.mailCap);
}

/**
 * Deletes the reminders among `ids` not sent yet.
 * @returns the ids deleted.
 */
export async function dropReminders(tx: Database, ids: number[]): Promise<number[]> {
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
export async function dropRemindersOfDate(
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
