/**
 * Telling every person of a course that it changed (DESIGN.md section 10,
 * « Channels »): one function for every message of that kind, so that each
 * channel is decided in one place (`channelsOf`, the reminders' rule,
 * decision 051): a mail to whoever of the attendee and the relative has an
 * e-mail; an SMS when the attendee's telephone is a mobile and she agreed
 * (decision 060), within the per-number daily cap; a line of the session's
 * call list (`course_calls`, kept until the owner ticks « appelé·e ») when
 * nothing else reaches her, or when the cap held her SMS.
 *
 * `tellRegistrants(tx, registrations, notice, { callSessionId, now, sms })`,
 * in the change's transaction (its locks held): each registration told
 * once, its mails and SMS joined to its `mail_ids`. `sms`: the process's SMS
 * settings, given by the desk's action from the request context (absent:
 * no SMS).
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
import { gsmText } from "./reminder-channels.server";
import type { SessionRow } from "./sessions.server";
import { channelsOf, textRegistrant, type CourseSms, type SmsChannel } from "./sms-channel.server";
import { formatDateTime } from "~/utils/format";

/** The outbox kind of a cancellation's SMS. */
export const CANCELLED_SMS_KIND = "booking-session-cancelled-sms";

/** What the people of a course are told, by kind. */
export type Notice =
  /** The owner cancelled a single-date session. */
  | { kind: "session-cancelled"; session: SessionRow }
  /** The owner cancelled one date of a series; `remaining`: the dates still held. */
  | { kind: "series-date-cancelled"; session: SessionRow; remaining: readonly SessionRow[] }
  /** The owner cancelled a course below its minimum (go/no-go): every date; `lessons`: a series' dates. */
  | { kind: "below-minimum"; session: SessionRow; lessons: readonly SessionRow[] | undefined };

/** What `tellRegistrants` did: how many mails and SMS were queued, and whom the owner calls (nothing else reaches them). */
export interface Told {
  mailed: number;
  texted: number;
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

/** The SMS of `notice` (GSM-spelt, no name; the code word says it is the teacher's). */
export function noticeSms(notice: Notice, codeWord: string | null): CourseSms {
  const course = `« ${courseTitle(notice.session)} »`;
  const when = formatDateTime(notice.session.startsAt);
  const words = {
    "session-cancelled": `Cours ${course}, ${when}, ${notice.session.placeName} : je suis désolé, la séance est annulée. Vous n’avez rien à payer.`,
    "series-date-cancelled": `Cours ${course} : je suis désolé, la séance du ${when} est annulée.${notice.kind === "series-date-cancelled" && notice.remaining.length ? " Les autres séances ont lieu comme prévu." : ""}`,
    "below-minimum": `Cours ${course}, ${notice.kind === "below-minimum" && notice.lessons ? "dès le" : "le"} ${when} : je suis désolé, trop peu de personnes se sont inscrites et le cours n’aura pas lieu. Votre inscription est annulée ; vous n’avez rien à payer.`,
  }[notice.kind];
  return {
    kind: CANCELLED_SMS_KIND,
    label: `SMS : annulation, cours ${course}`,
    text: gsmText([words, ...(codeWord ? [`Mot code : ${codeWord}.`] : [])].join(" ")),
    // Past the lesson's start it is no longer news: given up, never sent late.
    notAfter: new Date(notice.session.startsAt),
  };
}

/**
 * Tells each of `registrations` of `notice` by its channels (`channelsOf`):
 * a mail to each address it has (`booking-session-cancelled`), an SMS
 * (`noticeSms`) when she agreed at a mobile number, and a call of the
 * session `callSessionId`'s list, reason « la séance est annulée », when
 * nothing else reaches her or the daily cap held her SMS.
 * @throws the driver's error.
 */
export async function tellRegistrants(
  tx: Database,
  registrations: readonly RegistrationRow[],
  notice: Notice,
  { callSessionId, now, sms }: { callSessionId: number; now: Date; sms?: SmsChannel },
): Promise<Told> {
  const told: Told = { mailed: 0, texted: 0, toCall: [] };
  const uncalled: number[] = [];
  const held: number[] = [];
  for (const registration of registrations) {
    const recipients = recipientsOf(registration);
    const channels = channelsOf(registration, sms);
    const reached = await textRegistrant(
      tx,
      registration,
      channels,
      sms,
      noticeSms(notice, registration.codeWord),
      now,
    );
    if (reached.call) {
      told.toCall.push(toCall(registration));
      (reached.smsHeld ? held : uncalled).push(registration.id);
    }
    const mailIds: number[] = reached.smsId === null ? [] : [reached.smsId];
    if (reached.smsId !== null) told.texted++;
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
    told.mailed += recipients.length;
    if (mailIds.length === 0) continue;
    await tx
      .update(courseRegistrations)
      .set({ mailIds: sql`${courseRegistrations.mailIds} || ${`{${mailIds.join(",")}}`}::bigint[]` })
      .where(eq(courseRegistrations.id, registration.id));
  }
  await addCalls(tx, callSessionId, uncalled, "cancelled", now);
  await addCalls(tx, callSessionId, held, "cancelled", now, { smsHeld: true });
  return told;
}
