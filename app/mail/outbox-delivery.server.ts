/**
 * The outbox's delivery and retries: one claimed row sent by its channel,
 * and what is recorded of it, for the worker of outbox.server.ts.
 *
 * `new OutboxDelivery(options).send(row, owner)` sends the row (`deliver`:
 * an SMS through the process's `SmsSender`, sms.server.ts; a mail through
 * the SMTP transport), then marks it sent, or records the error. A
 * permanent refusal (a 5xx reply to RCPT TO or DATA: no such address,
 * message refused; `refusalOf`, refusal.server.ts, decision 042) marks the
 * row failed at once; anything else (4xx, connection refused, timeout)
 * schedules the next attempt after an exponential back-off
 * (`backoffMilliseconds`: 1 min, 2, 4, 8, 16, then every 30 minutes,
 * `MAX_RETRY_INTERVAL_MS`: a mail leaves at most 30 minutes after its
 * provider is back). Either way `last_error` keeps the server's words and
 * `error_stage`/`error_code` what the desk says of them. After `maxAttempts`
 * failed attempts (OUTBOX_MAX_ATTEMPTS, 40 by default: about 18 hours) a
 * row is marked failed (`failed_at`), logged at error level with its id,
 * and kept for the owner to read and resend (`resendMail`).
 *
 * A mail goes from MAIL_FROM to its row's `recipient`, or to the owner
 * (`ownerAddress`, CONTACT_NOTIFY_TO) when that is null: such a row fails
 * while CONTACT_NOTIFY_TO is unset. It carries the row's Reply-To, subject,
 * bodies and headers as stored, with the merge tags of layout.server.ts
 * filled as it leaves: the owner's footer (`owner()`, Réglages read once a
 * round by the caller) and the row's unsubscribe link (from its own
 * `List-Unsubscribe` header). A row stored before mails were rendered at
 * write time (a `payload`, no subject) is rendered by the plug whose kind
 * it is (contact: `contact-notification`), as it was then. The features'
 * plugs (`OutboxPlug`, app/features.server.ts) may attach files rendered
 * now (invoices: the PDF of the row's `invoice_id`, no file in the table).
 * Each mail's Message-ID names its row (`outboxMessageId`, on the domain of
 * MAIL_FROM): a provider's later bounce finds it (provider-events.server.ts).
 *
 * Log lines carry row ids, kinds and error codes, never a recipient or a
 * field of a mail (`errorFields`).
 */
import { eq } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { outbox, type MailAttachment } from "~/db/schema";
import { errorFields } from "~/db/errors.server";
import { fillListUnsubscribe, fillOwnerTags, OWNER_TAGS, type MailOwner } from "./layout.server";
import { clockAt, type OutboxRow } from "./outbox-claim.server";
import { refusalOf } from "./refusal.server";
import { mailFromDomain, outboxMessageId } from "./provider-events.server";
import { sendSmsRow, type SmsSender } from "./sms.server";

/** The message handed to the transport: nodemailer's options, the subset the outbox uses. */
export interface OutgoingMail {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  /** The Message-ID header (`outboxMessageId`: names the row, for the provider's later bounces). */
  messageId?: string;
  /** Files attached (nodemailer's `attachments`: file name, MIME type, content): text, or an invoice's PDF. */
  attachments?: (MailAttachment | { filename: string; contentType: string; content: Buffer })[];
}

/** What a mail says to send, without its sender and recipient. */
export type MailContent = Omit<OutgoingMail, "from" | "to" | "messageId">;

/**
 * What a feature does when its mails leave (its plug's `outbox`,
 * app/features.server.ts lists them): files to attach, rendered now from
 * the database (an invoice's PDF), or the content of an older row that
 * stored only its data (`payload`).
 */
export interface OutboxPlug {
  /** Files to attach to `row` (none when it is not the feature's). @throws when what the row names is gone. */
  attachments?(row: OutboxRow, db: Database): Promise<NonNullable<OutgoingMail["attachments"]>>;
  /** The content of a row stored without a body (`subject` null), or null when the row is not the feature's. */
  render?(row: OutboxRow): MailContent | null;
  /**
   * The owner corrected the address `from` to `to` (both lower-cased) of the unsent mails `mailIds`
   * (`correctAndResend`, manage.server.ts): the feature corrects its rows those mails are about, in `tx`.
   */
  addressCorrected?(tx: Database, change: { mailIds: readonly number[]; from: string; to: string }): Promise<void>;
}

/** What the worker needs of a mail transport (nodemailer's `Transporter`). */
export interface MailTransport {
  sendMail(mail: OutgoingMail): Promise<unknown>;
}

const MINUTE = 60_000;

/** The longest wait between two attempts of a mail: a mail leaves at most this long after its provider is back. */
export const MAX_RETRY_INTERVAL_MS = 30 * MINUTE;

/** Delay before attempt `attempts + 1` after `attempts` failures: 1 min doubling, at most `MAX_RETRY_INTERVAL_MS`. */
export function backoffMilliseconds(attempts: number): number {
  return Math.min(MINUTE * 2 ** Math.max(0, attempts - 1), MAX_RETRY_INTERVAL_MS);
}

/** What a delivery needs: the worker's options (outbox.server.ts's `OutboxWorkerOptions` extends these) and its clock. */
export interface DeliveryOptions {
  db: Database;
  logger: Logger;
  /** null: SMTP is not configured; mails are logged (id and kind) and kept. */
  transport: MailTransport | null;
  /** Where the rows of channel `sms` go (app/mail/sms.server.ts); absent: they wait, like mails without SMTP. */
  sms?: SmsSender;
  /** The sender of every mail (MAIL_FROM). */
  from: string;
  /** What the features do when their mails leave (app/features.server.ts's `OUTBOX_PLUGS`). */
  plugs: readonly OutboxPlug[];
  /** The owner's mailbox (CONTACT_NOTIFY_TO): where rows with a null recipient go. */
  ownerAddress: string | undefined;
  /** Attempts after which a row is marked failed (default 40). */
  maxAttempts?: number;
  /** The worker's clock, in milliseconds since the epoch. */
  clock: () => number;
}

/** Sends claimed rows and records each outcome (see the module's comment). */
export class OutboxDelivery {
  /** The domain of MAIL_FROM, that every Message-ID is on (parsed once: `from` does not change). */
  private readonly messageIdDomain: string;

  constructor(private readonly options: DeliveryOptions) {
    this.messageIdDomain = mailFromDomain(options.from);
  }

  /**
   * Sends one claimed row and records the outcome (sent, failed for good, or the next attempt).
   * @returns whether it left. @throws the driver's error when the outcome cannot be written.
   */
  async send(row: OutboxRow, owner: () => Promise<MailOwner>): Promise<boolean> {
    const { db, logger, maxAttempts = 40, clock } = this.options;
    try {
      await this.deliver(row, owner);
      await db
        .update(outbox)
        .set({ sentAt: clockAt(clock), lastError: null, errorStage: null, errorCode: null })
        .where(eq(outbox.id, row.id));
      logger.info({ outboxId: row.id, kind: row.kind, attempts: row.attempts }, "outbox: mail sent");
      return true;
    } catch (error) {
      // The full text stays in the database, for the owner; the log gets codes only.
      const message = (error as Error).message?.slice(0, 1000) ?? String(error);
      const err = errorFields(error);
      const refusal = refusalOf(error);
      const why = { lastError: message, errorStage: refusal.stage, errorCode: refusal.code };
      if (refusal.permanent || row.attempts >= maxAttempts) {
        await db
          .update(outbox)
          .set({ ...why, failedAt: clockAt(clock) })
          .where(eq(outbox.id, row.id));
        logger.error(
          { outboxId: row.id, kind: row.kind, attempts: row.attempts, stage: refusal.stage, code: refusal.code, err },
          refusal.permanent
            ? "outbox: mail refused for good by the recipient's provider; it stays in the outbox table (failed_at set) for the owner to correct and resend"
            : `outbox: mail given up after ${row.attempts} attempts; it stays in the outbox table (failed_at set) to be read and resent`,
        );
        return false;
      }
      const delay = backoffMilliseconds(row.attempts);
      await db
        .update(outbox)
        .set({ ...why, nextAttemptAt: clockAt(clock, delay / 1000) })
        .where(eq(outbox.id, row.id));
      logger.warn(
        {
          outboxId: row.id,
          kind: row.kind,
          attempts: row.attempts,
          retryInSeconds: delay / 1000,
          stage: refusal.stage,
          code: refusal.code,
          err,
        },
        "outbox: sending failed, will retry",
      );
      return false;
    }
  }

  /** Sends one claimed row by its channel: an SMS through `sms` (`sendSmsRow`), a mail through SMTP. */
  private deliver(row: OutboxRow, owner: () => Promise<MailOwner>): Promise<void> {
    return row.channel === "sms" ? sendSmsRow(this.options.sms, row) : this.deliverMail(row, owner);
  }

  /**
   * Sends one claimed mail, with the files the plugs attach to it (an invoice's PDF, rendered now).
   * @throws when the owner's address is unset, the row cannot be rendered, or SMTP fails.
   */
  private async deliverMail(row: OutboxRow, owner: () => Promise<MailOwner>): Promise<void> {
    const { transport, from, ownerAddress, plugs } = this.options;
    const to = row.recipient ?? ownerAddress;
    if (!to) throw new Error("CONTACT_NOTIFY_TO is not set");
    const content = contentOf(row, plugs);
    for (const plug of plugs) {
      const files = (await plug.attachments?.(row, this.options.db)) ?? [];
      if (files.length) content.attachments = [...(content.attachments ?? []), ...files];
    }
    // A visitor mail's footer: the owner's details as Réglages hold them this round (merge tags, app/mail/layout.server.ts).
    const owned =
      content.text.includes(OWNER_TAGS.text) || content.html?.includes(OWNER_TAGS.html)
        ? fillOwnerTags(content, await owner())
        : content;
    // A letter queued for every subscriber at once: its own unsubscribe link, from its own header.
    const filled = fillListUnsubscribe(owned);
    await transport!.sendMail({ from, to, ...filled, messageId: outboxMessageId(row.id, this.messageIdDomain) });
  }
}

/**
 * What a row says to send: its stored Reply-To, subject, bodies, headers and attached files;
 * for an older row stored with its data only (a payload, no subject), what a plug renders of it.
 * @throws Error when the row has neither a rendered body nor a payload a plug knows.
 */
function contentOf(row: OutboxRow, plugs: readonly OutboxPlug[]): MailContent {
  if (row.subject !== null && row.textBody !== null)
    return {
      subject: row.subject,
      text: row.textBody,
      ...(row.replyTo !== null && { replyTo: row.replyTo }),
      ...(row.htmlBody !== null && { html: row.htmlBody }),
      ...(row.headers !== null && { headers: row.headers }),
      ...(row.attachments !== null && { attachments: row.attachments }),
    };
  if (row.payload !== null)
    for (const plug of plugs) {
      const content = plug.render?.(row);
      if (content) return content;
    }
  throw new Error(`outbox row ${row.id} has no rendered body and no payload of a known kind ("${row.kind}")`);
}
