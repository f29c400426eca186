/**
 * The outbox worker: delivers every mail of the `outbox` table (written,
 * already rendered, by `enqueueMail`), in the server process.
 *
 * Each round first gives up the due rows whose `not_after` has passed
 * (marked failed, "expired", logged: a reminder never leaves after its
 * lesson has started), then claims up to `batchSize` due rows (`not_before` and
 * `next_attempt_at` passed, neither sent nor failed) in a short transaction
 * (`SELECT ... FOR UPDATE SKIP LOCKED`, then `next_attempt_at` pushed one
 * lease ahead and `attempts` + 1), sends them outside any transaction, then
 * marks each sent, or records the error. A permanent refusal (a 5xx reply
 * to RCPT TO or DATA: no such address, message refused; `refusalOf`,
 * refusal.server.ts, decision 042) marks the row failed at once; anything
 * else (4xx, connection refused, timeout) schedules the next attempt after
 * an exponential back-off (1 min, 2, 4, 8, 16, then every 30 minutes,
 * `MAX_RETRY_INTERVAL_MS`: a mail leaves at most 30 minutes after its
 * provider is back). Either way `last_error` keeps the server's words and
 * `error_stage`/`error_code` what the desk says of them. After `maxAttempts`
 * failed attempts (OUTBOX_MAX_ATTEMPTS, 40 by default: about 18 hours) a
 * row is marked failed (`failed_at`), logged at error level with its id,
 * and kept for the owner to read and resend (`resendMail`). Every time the
 * worker compares or writes ("due", "now + back-off") is its `clock`'s,
 * never the database's `now()` (tests move it by hand). Two workers
 * on one PostgreSQL never claim the same row; a worker that dies mid-send
 * leaves its rows to be retried when the lease ends (delivery at least
 * once); a worker stopped cleanly gives back at once the rows it claimed and
 * did not send. Without a transport (no `SMTP_URL`) each pending mail is
 * logged (its id and kind only) once per process and stays queued.
 *
 * A row's bodies may hold the merge tags of layout.server.ts, filled as the
 * row leaves: the owner's footer (Réglages read once a round) and the row's
 * unsubscribe link (from its own `List-Unsubscribe` header).
 *
 * When a row leaves, the features' plugs (`plugs`, app/features.server.ts)
 * may attach files rendered now (invoices: the PDF of the row's
 * `invoice_id`, no file in the table).
 *
 * Each mail's Message-ID names its row (`outboxMessageId`, on the domain of
 * MAIL_FROM): a provider's later bounce finds it (provider-events.server.ts).
 *
 * A mail goes from MAIL_FROM to its row's `recipient`, or to the owner
 * (`ownerAddress`, CONTACT_NOTIFY_TO) when that is null: such a row fails
 * while CONTACT_NOTIFY_TO is unset. It carries the row's Reply-To, subject,
 * bodies and headers as stored. A row stored before mails were rendered at
 * write time (a `payload`, no subject) is rendered when sent by the plug
 * whose kind it is (contact: `contact-notification`), as it was then.
 *
 * `rates` throttles kinds: at most `perMinute` rows of a kind are claimed in
 * any 60 s, counted by this worker (one a process: two processes on one
 * database may each claim that many). Other kinds are not slowed down.
 *
 * A row of channel `sms` (sms.server.ts) goes the same way to `sms`, the
 * process's SMS sender (`deliver` picks by channel), SMTP or not.
 *
 * Log lines carry row ids, kinds and error codes, never a recipient or a
 * field of a mail (`errorFields`).
 */
import { and, asc, eq, gt, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { outbox, type MailAttachment } from "~/db/schema";
import { siteSettingsOrLastKnown } from "~/settings/site.server";
import { errorFields } from "~/db/errors.server";
import { databaseAnswered, databaseDown } from "~/db/outage.server";
import { fillListUnsubscribe, fillOwnerTags, OWNER_TAGS, type MailOwner } from "./layout.server";
import { refusalOf } from "./refusal.server";
import { mailFromDomain, outboxMessageId } from "./provider-events.server";
import { sendSmsRow, type SmsSender } from "./sms.server";
import { ClaimWindows } from "./claim-windows.server";

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

type OutboxRow = typeof outbox.$inferSelect;

/** What the worker needs of a mail transport (nodemailer's `Transporter`). */
export interface MailTransport {
  sendMail(mail: OutgoingMail): Promise<unknown>;
}

export interface OutboxWorkerOptions {
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
  /** Milliseconds between rounds when idle (default 5 s). */
  pollInterval?: number;
  batchSize?: number;
  /** How long a claimed row is reserved for its sender (default 5 min, longer than any SMTP timeout). */
  leaseSeconds?: number;
  /** Attempts after which a row is marked failed (default 40). */
  maxAttempts?: number;
  /** Mails of a round sent at once (default 1): the pooled transport's connections, SMTP_MAX_CONNECTIONS. */
  concurrency?: number;
  /** Kinds to throttle: kind to the most rows claimed in any 60 s (a whole number, at least 1). */
  rates?: Record<string, number>;
  /** The worker's clock, in milliseconds (due rows, back-off, rate windows; default `Date.now`; tests move it by hand). */
  clock?: () => number;
}

const MINUTE = 60_000;

/** The longest wait between two attempts of a mail: a mail leaves at most this long after its provider is back. */
export const MAX_RETRY_INTERVAL_MS = 30 * MINUTE;

/** Delay before attempt `attempts + 1` after `attempts` failures: 1 min doubling, at most `MAX_RETRY_INTERVAL_MS`. */
export function backoffMilliseconds(attempts: number): number {
  return Math.min(MINUTE * 2 ** Math.max(0, attempts - 1), MAX_RETRY_INTERVAL_MS);
}

/**
 * One worker a process: `start()` polls every `pollInterval`, `wake()` runs
 * a round now, `stop()` ends polling, `processOnce()` runs one round (tests).
 */
export class OutboxWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** Set by stop(): the round in progress gives back the rows it has not sent. */
  private stopping = false;
  private readonly logged = new Set<number>();
  private readonly windows: ClaimWindows;
  private readonly clock: () => number;
  /** The domain of MAIL_FROM, that every Message-ID is on (parsed once: `from` does not change). */
  private readonly messageIdDomain: string;

  /** @throws RangeError when a rate is not a whole number of at least 1. */
  constructor(private readonly options: OutboxWorkerOptions) {
    this.clock = options.clock ?? Date.now;
    this.messageIdDomain = mailFromDomain(options.from);
    this.windows = new ClaimWindows(options.rates ?? {}, this.clock);
  }

  /** The clock's time as an SQL timestamp, `seconds` later. */
  private at(seconds = 0): SQL {
    return sql`${new Date(this.clock() + seconds * 1000).toISOString()}::timestamptz`;
  }

  /** Starts polling; runs a first round at once. */
  start(): void {
    this.stopped = false;
    this.stopping = false;
    this.wake();
  }

  /** Runs a round soon (after a new request), unless one is running. */
  wake(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.loop(), 0);
  }

  /**
   * Stops polling: the mail being sent is finished (for at most `waitMs`),
   * the rows claimed but not yet sent are given back at once.
   */
  async stop(waitMs = 5000): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    clearTimeout(this.timer);
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise((resolve) => (timeout = setTimeout(resolve, waitMs)))]);
    clearTimeout(timeout);
  }

  /** Gives claimed, unsent rows back: due now, their claim's attempt not counted. */
  private async release(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.options.db
      .update(outbox)
      .set({ attempts: sql`${outbox.attempts} - 1`, nextAttemptAt: this.at() })
      .where(and(inArray(outbox.id, ids), isNull(outbox.sentAt)));
  }

  private async loop(): Promise<void> {
    if (this.running) return;
    this.running = (async () => {
      try {
        // Keep going while full batches come back, then wait.
        while (!this.stopped && (await this.processOnce()).claimed === (this.options.batchSize ?? 10));
        databaseAnswered(this.options.db, this.options.logger);
      } catch (error) {
        // A database that does not answer is logged once for the whole outage, not at every poll.
        if (!(await databaseDown(this.options.db, this.options.logger, error)))
          this.options.logger.error(
            { err: errorFields(error) },
            "outbox: round failed (database unreachable?), will retry",
          );
      }
    })();
    await this.running;
    this.running = undefined;
    if (!this.stopped) this.timer = setTimeout(() => void this.loop(), this.options.pollInterval ?? 5000);
  }

  /** One round. Returns how many rows it claimed, sent and failed. */
  async processOnce(): Promise<{ claimed: number; sent: number; failed: number }> {
    const { db, logger, transport, batchSize = 10, leaseSeconds = 300 } = this.options;
    const channels = this.channels();
    const pending = and(isNull(outbox.sentAt), isNull(outbox.failedAt), inArray(outbox.channel, channels));

    if (!transport) {
      const rows = await db
        .select({ id: outbox.id, kind: outbox.kind })
        .from(outbox)
        .where(and(isNull(outbox.sentAt), isNull(outbox.failedAt), eq(outbox.channel, "mail")))
        .orderBy(asc(outbox.id))
        .limit(100);
      for (const row of rows) {
        if (this.logged.has(row.id)) continue;
        this.logged.add(row.id);
        logger.warn(
          { outboxId: row.id, kind: row.kind },
          "outbox: SMTP_URL is not set, mail queued (it will be sent once SMTP is configured)",
        );
      }
      if (channels.length === 0) return { claimed: 0, sent: 0, failed: 0 };
    }

    const now = this.at();
    const expired = await db
      .update(outbox)
      .set({
        failedAt: now,
        lastError: "expired: not sent before its not_after (what it says was no longer true)",
        errorStage: "expired",
        errorCode: null,
      })
      // Only rows due now, the ones this round could claim (the pending index's range): a row still
      // waiting for its back-off is given up once due, before any claim, so it never leaves late either.
      .where(and(pending, lte(outbox.nextAttemptAt, now), lte(outbox.notAfter, now)))
      .returning({ id: outbox.id, kind: outbox.kind });
    for (const row of expired)
      logger.warn({ outboxId: row.id, kind: row.kind }, "outbox: mail given up unsent, past its not_after");

    const claimed = await db.transaction(async (tx) => {
      const ids: number[] = [];
      /** Locks up to `limit` due rows matching `where`, oldest first. */
      const pick = async (where: SQL | undefined, limit: number) => {
        if (limit <= 0) return;
        const rows = await tx
          .select({ id: outbox.id })
          .from(outbox)
          .where(and(pending, lte(outbox.nextAttemptAt, now), lte(outbox.notBefore, now), where))
          .orderBy(asc(outbox.id))
          .limit(limit)
          .for("update", { skipLocked: true });
        ids.push(...rows.map((row) => row.id));
      };
      const throttled = Object.keys(this.windows.rates);
      await pick(otherKinds(throttled), batchSize);
      for (const kind of throttled)
        await pick(eq(outbox.kind, kind), Math.min(this.windows.allowance(kind), batchSize - ids.length));
      if (ids.length === 0) return [];
      const rows = await tx
        .update(outbox)
        .set({
          attempts: sql`${outbox.attempts} + 1`,
          nextAttemptAt: this.at(leaseSeconds),
        })
        .where(inArray(outbox.id, ids))
        .returning();
      return rows.sort((a, b) => a.id - b.id);
    });
    this.windows.record(claimed.map((row) => row.kind));

    let sent = 0;
    let failed = 0;
    // Up to `concurrency` mails at once, over the pooled transport's connections (SMTP_MAX_CONNECTIONS).
    const concurrency = this.options.concurrency ?? 1;
    // The owner's details for the footers, read once a round (at the first mail that has one), not once a mail.
    let owner: Promise<MailOwner> | undefined;
    const ownerOfRound = () =>
      (owner ??= siteSettingsOrLastKnown({ db: this.options.db, logger: this.options.logger }).then(
        (settings) => settings.identity,
      ));
    for (let index = 0; index < claimed.length; index += concurrency) {
      if (this.stopping) {
        await this.release(claimed.slice(index).map((rest) => rest.id));
        break;
      }
      const outcomes = await Promise.all(
        claimed.slice(index, index + concurrency).map((row) => this.send(row, ownerOfRound)),
      );
      sent += outcomes.filter(Boolean).length;
      failed += outcomes.length - outcomes.filter(Boolean).length;
    }
    return { claimed: claimed.length, sent, failed };
  }

  /** Sends one claimed row and records the outcome (sent, failed for good, or the next attempt). @returns whether it left. */
  private async send(row: OutboxRow, owner: () => Promise<MailOwner>): Promise<boolean> {
    const { db, logger, maxAttempts = 40 } = this.options;
    try {
      await this.deliver(row, owner);
      await db
        .update(outbox)
        .set({ sentAt: this.at(), lastError: null, errorStage: null, errorCode: null })
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
          .set({ ...why, failedAt: this.at() })
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
        .set({ ...why, nextAttemptAt: this.at(delay / 1000) })
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

  /** The channels this worker can send: `mail` with a transport, `sms` with an SMS sender. */
  private channels(): ("mail" | "sms")[] {
    return [...(this.options.transport ? ["mail" as const] : []), ...(this.options.sms ? ["sms" as const] : [])];
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
 * The rows of any kind but `throttled`, each kind excluded as two ranges
 * (below it or above it): the pending rows' index by kind (migration 0033)
 * then reads only those rows, where `not in` read every pending row, a
 * letter's 10,000 included.
 */
function otherKinds(throttled: readonly string[]): SQL | undefined {
  if (throttled.length === 0) return undefined;
  return and(...throttled.map((kind) => or(lt(outbox.kind, kind), gt(outbox.kind, kind))));
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
