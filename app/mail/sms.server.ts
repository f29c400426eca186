/**
 * SMS, the outbox's second channel (DESIGN.md section 10 "Channels",
 * decision 051). An SMS is an `outbox` row with `channel` "sms": its
 * `recipient` a mobile number in E.164, its `text_body` the message, its
 * `subject` the desk's label of it (never sent). It is claimed, leased,
 * retried, capped and erased like a mail; the worker hands it to the
 * `SmsSender` of the process (app/mail/outbox-delivery.server.ts).
 *
 * - `mobileNumber(phone)`: the E.164 of a Swiss or Liechtenstein mobile
 *   number (libphonenumber-js), or null (a landline, a foreign or wrong
 *   number): only those get an SMS, the others are called.
 * - `smsChannelOf(settings, logger)`: a feature's `SmsChannel` (the cap,
 *   whether SMS leave), from the settings its caller reads.
 * - `enqueueSms(tx, sms, cap)`: writes the row, within `cap.perDay` SMS a
 *   number a day (SMS_PER_NUMBER_PER_DAY), else null (logged, kind only).
 * - `smsSenderFrom(settings, logger)`: the sender SMS_PROVIDER names:
 *   `log` (the default: each SMS is written to the log as its row id and
 *   length, never its number or words, and counts as sent) or `aspsms`
 *   (`aspsmsSender`: ASPSMS's JSON API, `POST {ASPSMS_URL}/SendTextSMS`).
 * - `SmsRefusedError`: a refusal, permanent (the number or the message will
 *   never be accepted: the row fails at once) or not (retried).
 * - `receiptUrls` / `readReceipt`: the signed delivery-receipt links given
 *   to the provider with each SMS (server/sms-receipt.ts answers them).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";
import type { Logger } from "pino";
import type { Settings } from "~/config/settings.server";
import type { Database } from "~/db/client.server";
import { outbox, type NamedPerson } from "~/db/schema";
import { countForRecipient } from "./recipient-cap.server";
import type { Refusal } from "./refusal.server";

/** The countries whose mobile numbers get an SMS (Switzerland, Liechtenstein). */
const SMS_COUNTRIES = new Set(["CH", "LI"]);

/**
 * `phone` (as typed, Swiss when without a country code) in E.164 when it is a
 * valid Swiss or Liechtenstein mobile number, else null. Never throws.
 */
export function mobileNumber(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const parsed = parsePhoneNumberFromString(phone, "CH");
  if (!parsed?.isValid() || parsed.getType() !== "MOBILE") return null;
  return parsed.country && SMS_COUNTRIES.has(parsed.country) ? parsed.number : null;
}

/** One SMS handed to a sender. */
export interface OutgoingSms {
  /** E.164. */
  to: string;
  text: string;
  /** The outbox row's id: names the SMS in receipts and logs. */
  outboxId: number;
}

/** What the outbox needs of an SMS provider. */
export interface SmsSender {
  /** `log` or the provider's name, for the start-up line. */
  name: string;
  /** Whether SMS really leave (false: the log adapter; the call list then lists those people too). */
  delivers: boolean;
  /** Sends one SMS. @throws SmsRefusedError (or any error: temporary) when it did not leave. */
  send(sms: OutgoingSms): Promise<void>;
}

/** An SMS the provider did not take: `refusal.permanent` marks the row failed at once. */
export class SmsRefusedError extends Error {
  override name = "SmsRefusedError";
  constructor(
    message: string,
    readonly refusal: Refusal,
  ) {
    super(message);
  }
}

/** The log adapter: nothing leaves; the row id and the length are logged (never the number nor the words). */
export function logSmsSender(logger: Logger): SmsSender {
  return {
    name: "log",
    delivers: false,
    async send({ outboxId, text }) {
      logger.info({ outboxId, length: text.length }, "sms: SMS_PROVIDER is log, the SMS is logged, not sent");
    },
  };
}

/** ASPSMS's status codes after which an SMS will never leave as it is (11 invalid message text, 20 no recipient). */
const ASPSMS_PERMANENT = new Set(["11", "20"]);

/**
 * ASPSMS's JSON API (https://json.aspsms.com, a Swiss provider): one
 * `POST {endpoint}/SendTextSMS` per SMS, its body
 * `{ UserName, Password, Originator, Recipients: [to], MessageText,
 * URLDeliveryNotification, URLNonDeliveryNotification }`, its answer
 * `{ StatusCode: "1", StatusInfo: "OK" }` when taken. Another status code,
 * an HTTP error or no answer in 15 s is a refusal: permanent for the
 * message's own faults (`ASPSMS_PERMANENT`), temporary otherwise (the
 * account's credits or keys, the service down: the operator fixes them
 * for every SMS at once).
 */
export function aspsmsSender({
  endpoint,
  userKey,
  password,
  originator,
  receipts,
  fetchImpl = fetch,
}: {
  /** ASPSMS_URL, without a trailing slash (tests: their fake's). */
  endpoint: string;
  userKey: string;
  password: string;
  /** SMS_FROM: up to 11 letters and digits, or a number. */
  originator: string;
  /** The receipt links of an SMS (`receiptUrls`), or null: no receipt asked. */
  receipts: ((outboxId: number) => { delivered: string; failed: string }) | null;
  fetchImpl?: typeof fetch;
}): SmsSender {
  return {
    name: "aspsms",
    delivers: true,
    async send({ to, text, outboxId }) {
      const links = receipts?.(outboxId);
      let answer: Response;
      try {
        answer = await fetchImpl(`${endpoint}/SendTextSMS`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            UserName: userKey,
            Password: password,
            Originator: originator,
            Recipients: [to],
            MessageText: text,
            ...(links && { URLDeliveryNotification: links.delivered, URLNonDeliveryNotification: links.failed }),
          }),
          signal: AbortSignal.timeout(15_000),
        });
      } catch (error) {
        throw new SmsRefusedError(`ASPSMS did not answer: ${(error as Error).message}`, {
          permanent: false,
          stage: "connection",
          code: null,
        });
      }
      const body = (await answer.json().catch(() => null)) as { StatusCode?: unknown; StatusInfo?: unknown } | null;
      const status = String(body?.StatusCode ?? "");
      if (answer.ok && status === "1") return;
      const permanent = answer.ok && ASPSMS_PERMANENT.has(status);
      throw new SmsRefusedError(
        `ASPSMS refused the SMS: HTTP ${answer.status}, StatusCode ${status || "none"} (${String(body?.StatusInfo ?? "")})`,
        {
          permanent,
          stage: permanent ? (status === "20" ? "recipient" : "message") : "sender",
          code: Number(status) || answer.status,
        },
      );
    },
  };
}

/** The key receipts are signed with, from the provider's password (no setting of its own). */
const receiptKey = (password: string) => createHmac("sha256", password).update("sms-receipt").digest();

/** The signature of a receipt about row `outboxId` saying `state`: 22 base64url characters. */
const receiptSignature = (key: Buffer, outboxId: number, state: string) =>
  createHmac("sha256", key).update(`${outboxId}:${state}`).digest("base64url").slice(0, 22);

/** Where a receipt of an SMS is answered (server/sms-receipt.ts). */
export const SMS_RECEIPT_PATH = "/webhooks/sms";

/**
 * The two receipt links of row `outboxId` (delivered, not delivered), signed
 * with a key derived from `password`; the provider may append a reference,
 * which lands in the last, ignored parameter `ref`.
 */
export function receiptUrls(siteUrl: string, password: string) {
  const key = receiptKey(password);
  const link = (outboxId: number, state: "recu" | "echec") =>
    `${siteUrl}${SMS_RECEIPT_PATH}?${new URLSearchParams({ id: String(outboxId), etat: state, sig: receiptSignature(key, outboxId, state) }).toString()}&ref=`;
  return (outboxId: number) => ({ delivered: link(outboxId, "recu"), failed: link(outboxId, "echec") });
}

/**
 * What a receipt's query says: the row and whether the telephone received it,
 * or null when a parameter is missing or the signature is wrong.
 */
export function readReceipt(query: URLSearchParams, password: string): { outboxId: number; delivered: boolean } | null {
  const id = query.get("id") ?? "";
  const state = query.get("etat");
  const sig = Buffer.from(query.get("sig") ?? "");
  if (!/^[1-9]\d{0,15}$/.test(id) || (state !== "recu" && state !== "echec")) return null;
  const expected = Buffer.from(receiptSignature(receiptKey(password), Number(id), state));
  if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) return null;
  return { outboxId: Number(id), delivered: state === "recu" };
}

/** What a feature needs to send an SMS: the per-number daily cap, whether SMS leave (decision 060). */
export interface SmsChannel {
  /** At most this many SMS to one number a day (SMS_PER_NUMBER_PER_DAY). */
  perDay: number;
  /** Whether SMS leave (SMS_PROVIDER is not `log`): false puts the people reached by SMS only on the call list too. */
  delivers: boolean;
  logger?: Logger;
}

/** The SMS channel of the process's `settings`. */
export function smsChannelOf(
  settings: Pick<Settings, "SMS_PER_NUMBER_PER_DAY" | "SMS_PROVIDER">,
  logger?: Logger,
): SmsChannel {
  return {
    perDay: settings.SMS_PER_NUMBER_PER_DAY,
    delivers: settings.SMS_PROVIDER !== "log",
    ...(logger && { logger }),
  };
}

/** An SMS to write into the outbox. */
export interface SmsToSend {
  /** Which message ("course-reminder-sms"); the desk names it by its label. */
  kind: string;
  /** A mobile number in E.164 (`mobileNumber`). */
  to: string;
  /** The desk's label of it (never sent), e.g. « SMS : rappel du cours ». */
  label: string;
  text: string;
  /** The person the number is (stored in `outbox.named`: the erasure finds the row by it). */
  person: NamedPerson;
  notBefore?: Date;
  notAfter?: Date;
}

/** The cap on SMS to one number in a day (SMS_PER_NUMBER_PER_DAY). */
export interface SmsCap {
  perDay: number;
  now: Date;
  logger?: Logger;
}

/**
 * Writes `sms` into the outbox in `tx`, unless its number has had
 * `cap.perDay` SMS today (Europe/Zurich), then nothing is written.
 * @returns the row's id, or null when the cap held it.
 * @throws the driver's error.
 */
export async function enqueueSms(tx: Database, sms: SmsToSend, cap: SmsCap): Promise<number | null> {
  if (!(await countForRecipient(tx, `sms:${sms.to}`, cap.perDay, cap.now)).counted) {
    cap.logger?.warn({ kind: sms.kind }, "sms cap: the day's SMS to one number are written, this one is held");
    return null;
  }
  const [row] = await tx
    .insert(outbox)
    .values({
      kind: sms.kind,
      channel: "sms",
      recipient: sms.to,
      subject: sms.label,
      textBody: sms.text,
      named: [{ ...sms.person, phone: sms.to }],
      notAfter: sms.notAfter?.toISOString() ?? null,
      // Due from the cap's clock (the injected one), or its own time (a reminder).
      notBefore: (sms.notBefore ?? cap.now).toISOString(),
      nextAttemptAt: (sms.notBefore ?? cap.now).toISOString(),
    })
    .returning({ id: outbox.id });
  return row!.id;
}

/**
 * The SMS sender SMS_PROVIDER names: ASPSMS (receipts to SITE_URL's
 * `SMS_RECEIPT_PATH`), or the log adapter.
 */
export function smsSenderFrom(
  settings: Pick<
    Settings,
    "SMS_PROVIDER" | "ASPSMS_URL" | "ASPSMS_USERKEY" | "ASPSMS_PASSWORD" | "SMS_FROM" | "SITE_URL"
  >,
  logger: Logger,
): SmsSender {
  if (settings.SMS_PROVIDER !== "aspsms") return logSmsSender(logger);
  return aspsmsSender({
    endpoint: settings.ASPSMS_URL,
    userKey: settings.ASPSMS_USERKEY!,
    password: settings.ASPSMS_PASSWORD!,
    originator: settings.SMS_FROM!,
    receipts: receiptUrls(settings.SITE_URL, settings.ASPSMS_PASSWORD!),
  });
}

/**
 * Records a delivery receipt of SMS row `outboxId`: delivered sets
 * `delivered_at`; not delivered makes the row not delivered, as a mail's
 * bounce does (`sent_at` cleared, `failed_at` set, `error_stage` "bounce"),
 * so that the desk lists it.
 * @returns whether an SMS row of that id was found.
 */
export async function recordSmsReceipt(
  db: Database,
  { outboxId, delivered }: { outboxId: number; delivered: boolean },
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  const rows = await db
    .update(outbox)
    .set(
      delivered
        ? { deliveredAt: at }
        : {
            sentAt: null,
            failedAt: at,
            dismissedAt: null,
            errorStage: "bounce",
            errorCode: null,
            lastError: "SMS non remis au téléphone (accusé de l’opérateur)",
          },
    )
    .where(and(eq(outbox.id, outboxId), eq(outbox.channel, "sms")))
    .returning({ id: outbox.id });
  return rows.length > 0;
}

/**
 * Sends the outbox row `row` of channel `sms` (its `text_body` to its
 * `recipient`) through `sender` (the outbox worker's `deliver`).
 * @throws when there is no sender or the row lacks a number or text, and the sender's refusal (SmsRefusedError).
 */
export async function sendSmsRow(
  sender: SmsSender | undefined,
  row: { id: number; recipient: string | null; textBody: string | null },
): Promise<void> {
  if (!sender || !row.recipient || row.textBody === null)
    throw new Error(`outbox row ${row.id}: an SMS without a sender, a number or a text`);
  await sender.send({ to: row.recipient, text: row.textBody, outboxId: row.id });
}
