/**
 * The SMS channel of the courses' messages to a registration (decision
 * 060): an offer of a freed seat, a cancellation. Which channels reach the
 * person is `reminderChannels`' one rule (decision 051: e-mail when there
 * is one, SMS when the number is a mobile and she agreed, else the call
 * list); this module sends the SMS it names, within the per-number daily
 * cap, and says whether the owner must call: nothing else reaches her, or
 * the cap held her SMS (the desk then shows why).
 *
 * - `SmsChannel`, `smsChannelOf` (app/mail/sms.server.ts): what the
 *   feature needs of the process's SMS settings, read by the caller from
 *   the request context or the job's settings (never from `process.env`).
 * - `channelsOf(registration, sms)`: `reminderChannels` with no SMS when
 *   the caller has no SMS channel.
 * - `textRegistrant(tx, registration, channels, sms, message, now)`: the
 *   SMS written (or held), and whether to call.
 */
import type { Database } from "~/db/client.server";
import { enqueueSms, type SmsChannel } from "~/mail/sms.server";
import { attendeeOf, type RegistrationRow } from "./registrants.server";
import { reminderChannels, type ReminderChannels } from "./reminder-channels.server";

export { smsChannelOf, type SmsChannel } from "~/mail/sms.server";

/** The channels of a message to `registration`; without `sms` (a caller with no SMS settings), no SMS. */
export function channelsOf(registration: RegistrationRow, sms: SmsChannel | undefined): ReminderChannels {
  const channels = reminderChannels(registration, sms?.delivers ?? false);
  return sms ? channels : { ...channels, sms: null, call: !channels.mail };
}

/** One SMS of a course message, before its number and person are known. */
export interface CourseSms {
  /** The outbox kind ("booking-offer-sms"). */
  kind: string;
  /** The desk's label of it (never sent). */
  label: string;
  /** The words, GSM-spelt (`gsmText`). */
  text: string;
  notAfter?: Date;
}

/** What a message did for one registration. */
export interface Reached {
  /** The SMS row written, or null (no SMS, or the cap held it). */
  smsId: number | null;
  /** The per-number daily cap held the SMS: the owner calls instead, and sees why. */
  smsHeld: boolean;
  /** Nothing else reaches her (no e-mail, and no SMS that leaves), or her SMS was held: the owner calls. */
  call: boolean;
}

/**
 * Writes `message` as an SMS to the number of `channels.sms` (nothing when
 * null), within `sms.perDay` a day, in `tx`.
 * @throws the driver's error.
 */
export async function textRegistrant(
  tx: Database,
  registration: RegistrationRow,
  channels: ReminderChannels,
  sms: SmsChannel | undefined,
  message: CourseSms,
  now: Date,
): Promise<Reached> {
  if (!channels.sms || !sms) return { smsId: null, smsHeld: false, call: channels.call };
  const smsId = await enqueueSms(
    tx,
    {
      kind: message.kind,
      to: channels.sms,
      label: message.label,
      text: message.text,
      person: { name: attendeeOf(registration) },
      ...(message.notAfter && { notAfter: message.notAfter }),
    },
    { perDay: sms.perDay, now, ...(sms.logger && { logger: sms.logger }) },
  );
  return { smsId, smsHeld: smsId === null, call: channels.call || smsId === null };
}
