/**
 * Telling every person of a course that it changed (DESIGN.md section 10,
 * « Channels »): one function for every message of that kind, so that each
 * channel is decided in one place. Today: a mail to whoever of the attendee
 * and the relative has an e-mail; otherwise a line of the session's call
 * list (`course_calls`, kept until the owner ticks « appelé·e »). An SMS
 * channel plugs in here, in `tellRegistrants`, before the call list.
 *
 * `tellRegistrants(tx, registrations, notice, { callSessionId, now })`, in
 * the change's transaction (its locks held): each registration told once,
 * its mails joined to its `mail_ids`.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseRegistrations } from "~/db/schema";
import { enqueueMail } from "~/mail/enqueue.server";
import { addCalls } from "./calls.server";
import { belowMinimumCancelledMail } from "./go-no-go-mails.server";
import {
  BOOKING_MAIL,
  seriesDateCancelledMail,
  sessionCancelledMail,
  type RegistrantMail,
  type RenderedMail,
} from "./mails.server";
import { attendeeOf, courseTitle, peopleOf, recipientsOf, toCall, type RegistrationRow } from "./registrants.server";
import type { SessionRow } from "./sessions.server";

/** What the people of a course are told, by kind. */
export type Notice =
  /** The owner cancelled a single-date session. */
  | { kind: "session-cancelled"; session: SessionRow }
  /** The owner cancelled one date of a series; `remaining`: the dates still held. */
  | { kind: "series-date-cancelled"; session: SessionRow; remaining: readonly SessionRow[] }
  /** The owner cancelled a course below its minimum (go/no-go): every date; `lessons`: a series' dates. */
  | { kind: "below-minimum"; session: SessionRow; lessons: readonly SessionRow[] | undefined };

/** What `tellRegistrants` did: how many mails were queued, and whom the owner calls (no e-mail). */
export interface Told {
  mailed: number;
  toCall: { name: string; phone: string }[];
}

/** The mail of `notice` to one reader. */
function noticeMail(notice: Notice, mail: RegistrantMail): RenderedMail {
  switch (notice.kind) {
    case "session-cancelled":
      return sessionCancelledMail(mail);
    case "series-date-cancelled":
      return seriesDateCancelledMail({ ...mail, remaining: notice.remaining });
    case "below-minimum":
      return belowMinimumCancelledMail({ ...mail, lessons: notice.lessons });
  }
}

/**
 * Tells each of `registrations` of `notice` by its channel: a mail to each
 * address it has (`booking-session-cancelled`), else a call of the session
 * `callSessionId`'s list, reason « la séance est annulée ».
 * @throws the driver's error.
 */
export async function tellRegistrants(
  tx: Database,
  registrations: readonly RegistrationRow[],
  notice: Notice,
  { callSessionId, now }: { callSessionId: number; now: Date },
): Promise<Told> {
  const told: Told = { mailed: 0, toCall: [] };
  const uncalled: number[] = [];
  for (const registration of registrations) {
    const recipients = recipientsOf(registration);
    if (recipients.length === 0) {
      told.toCall.push(toCall(registration));
      uncalled.push(registration.id);
      continue;
    }
    const mailIds: number[] = [];
    for (const { address, reader } of recipients) {
      const mail = {
        courseTitle: courseTitle(notice.session),
        session: notice.session,
        reader,
        attendeeName: attendeeOf(registration),
      };
      mailIds.push(
        await enqueueMail(tx, {
          kind: BOOKING_MAIL.sessionCancelled,
          recipient: address,
          people: peopleOf(registration),
          ...noticeMail(notice, mail),
        }),
      );
    }
    told.mailed += mailIds.length;
    await tx
      .update(courseRegistrations)
      .set({ mailIds: sql`${courseRegistrations.mailIds} || ${`{${mailIds.join(",")}}`}::bigint[]` })
      .where(eq(courseRegistrations.id, registration.id));
  }
  await addCalls(tx, callSessionId, uncalled, "cancelled", now);
  return told;
}
