/**
 * The outbox worker: delivers the notifications written by
 * `saveContactRequest`, in the server process.
 *
 * Each round claims up to `batchSize` due rows in a short transaction
 * (`SELECT ... FOR UPDATE SKIP LOCKED`, then `next_attempt_at` pushed one
 * lease ahead and `attempts` + 1), sends them outside any transaction, then
 * marks each sent, or records the error and the next attempt after an
 * exponential back-off (1 min, 2, 4, ... capped at 1 hour). After
 * `maxAttempts` failed attempts (OUTBOX_MAX_ATTEMPTS, 20 by default: about a
 * day) a row is marked failed (`failed_at`), logged at error level with its
 * id, and kept for the owner to read and resend. Two workers on one
 * PostgreSQL never claim the same row; a worker that dies mid-send leaves
 * its rows to be retried when the lease ends (delivery at least once); a
 * worker stopped cleanly gives back at once the rows it claimed and did not
 * send. Without a transport (no `SMTP_URL`) each pending notification is
 * logged (its id and kind only) once per process and stays queued. Log
 * lines carry row ids and error codes, never a field of the request
 * (`errorFields`).
 */
import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import { errorFields } from "~/utils/errors.server";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { buildContactMail, type ContactNotificationPayload } from "./notification.server";
import { CONTACT_NOTIFICATION } from "./save.server";

/** What the worker needs of a mail transport (nodemailer's `Transporter`). */
export interface MailTransport {
  sendMail(mail: ReturnType<typeof buildContactMail>): Promise<unknown>;
}

export interface OutboxWorkerOptions {
  db: Database;
  logger: Logger;
  /** null: SMTP is not configured; notifications are logged and kept. */
  transport: MailTransport | null;
  from: string;
  /** The owner's mailbox (CONTACT_NOTIFY_TO). */
  to: string | undefined;
  /** Milliseconds between rounds when idle (default 5 s). */
  pollInterval?: number;
  batchSize?: number;
  /** How long a claimed row is reserved for its sender (default 5 min, longer than any SMTP timeout). */
  leaseSeconds?: number;
  /** Attempts after which a row is marked failed (default 20). */
  maxAttempts?: number;
}

const MINUTE = 60_000;

/** Delay before attempt `attempts + 1` after `attempts` failures: 1 min doubling, at most 1 hour. */
export function backoffMilliseconds(attempts: number): number {
  return Math.min(MINUTE * 2 ** Math.max(0, attempts - 1), 60 * MINUTE);
}

export class OutboxWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** Set by stop(): the round in progress gives back the rows it has not sent. */
  private stopping = false;
  private readonly logged = new Set<number>();

  constructor(private readonly options: OutboxWorkerOptions) {}

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
      .set({ attempts: sql`${outbox.attempts} - 1`, nextAttemptAt: sql`now()` })
      .where(and(inArray(outbox.id, ids), isNull(outbox.sentAt)));
  }

  private async loop(): Promise<void> {
    if (this.running) return;
    this.running = (async () => {
      try {
        // Keep going while full batches come back, then wait.
        while (!this.stopped && (await this.processOnce()).claimed === (this.options.batchSize ?? 10));
      } catch (error) {
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
    const { db, logger, transport, batchSize = 10, leaseSeconds = 300, maxAttempts = 20 } = this.options;
    const pending = and(isNull(outbox.sentAt), isNull(outbox.failedAt));

    if (!transport) {
      const rows = await db
        .select({ id: outbox.id, kind: outbox.kind })
        .from(outbox)
        .where(pending)
        .orderBy(asc(outbox.id))
        .limit(100);
      for (const row of rows) {
        if (this.logged.has(row.id)) continue;
        this.logged.add(row.id);
        logger.warn(
          { outboxId: row.id, kind: row.kind },
          "outbox: SMTP_URL is not set, notification queued (it will be sent once SMTP is configured)",
        );
      }
      return { claimed: 0, sent: 0, failed: 0 };
    }

    const claimed = await db.transaction(async (tx) => {
      const due = await tx
        .select({ id: outbox.id })
        .from(outbox)
        .where(and(pending, lte(outbox.nextAttemptAt, sql`now()`)))
        .orderBy(asc(outbox.id))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(outbox)
        .set({
          attempts: sql`${outbox.attempts} + 1`,
          nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})`,
        })
        .where(
          inArray(
            outbox.id,
            due.map((row) => row.id),
          ),
        )
        .returning();
    });

    let sent = 0;
    let failed = 0;
    for (const [index, row] of claimed.entries()) {
      if (this.stopping) {
        await this.release(claimed.slice(index).map((rest) => rest.id));
        break;
      }
      try {
        await this.deliver(row.kind, row.payload);
        await db
          .update(outbox)
          .set({ sentAt: sql`now()`, lastError: null })
          .where(eq(outbox.id, row.id));
        sent++;
        logger.info({ outboxId: row.id, attempts: row.attempts }, "outbox: notification sent");
      } catch (error) {
        failed++;
        // The full text stays in the database, for the owner; the log gets codes only.
        const message = (error as Error).message?.slice(0, 1000) ?? String(error);
        const err = errorFields(error);
        if (row.attempts >= maxAttempts) {
          await db
            .update(outbox)
            .set({ lastError: message, failedAt: sql`now()` })
            .where(eq(outbox.id, row.id));
          logger.error(
            { outboxId: row.id, kind: row.kind, attempts: row.attempts, err },
            `outbox: notification given up after ${row.attempts} attempts; it stays in the outbox table (failed_at set) to be read and resent`,
          );
          continue;
        }
        const delay = backoffMilliseconds(row.attempts);
        await db
          .update(outbox)
          .set({ lastError: message, nextAttemptAt: sql`now() + make_interval(secs => ${delay / 1000})` })
          .where(eq(outbox.id, row.id));
        logger.warn(
          { outboxId: row.id, attempts: row.attempts, retryInSeconds: delay / 1000, err },
          "outbox: sending failed, will retry",
        );
      }
    }
    return { claimed: claimed.length, sent, failed };
  }

  private async deliver(kind: string, payload: unknown): Promise<void> {
    const { transport, from, to } = this.options;
    if (kind !== CONTACT_NOTIFICATION) throw new Error(`unknown outbox kind "${kind}"`);
    if (!to) throw new Error("CONTACT_NOTIFY_TO is not set");
    await transport!.sendMail(buildContactMail(payload as ContactNotificationPayload, { from, to }));
  }
}
