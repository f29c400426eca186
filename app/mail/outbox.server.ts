/**
 * The outbox worker: delivers every row of the `outbox` table (written,
 * already rendered, by `enqueueMail`), in the server process, one round at
 * a time. This module is the round and its polling; the lease is
 * outbox-claim.server.ts, a row's delivery and retries
 * outbox-delivery.server.ts.
 *
 * A round first reads whether any row is due (`anyDue`: an idle round stops
 * there), then gives up the due rows whose `not_after` has passed
 * (`expireOverdue`), then claims up to `batchSize` due rows
 * (`claimDue`: `SELECT ... FOR UPDATE SKIP LOCKED` in a short transaction,
 * each leased `leaseSeconds`), sends them outside any transaction,
 * `concurrency` at a time, and records each outcome (`OutboxDelivery`: sent,
 * failed for good, or retried after a back-off). Rounds follow each other
 * while full batches come back, then every `pollInterval`; `wake()` runs
 * one at once (after a request queued a mail). Every time the worker
 * compares or writes ("due", "now + back-off") is its `clock`'s, never the
 * database's `now()` (tests move it by hand). Two workers on one PostgreSQL
 * never claim the same row; a worker stopped cleanly gives back at once the
 * rows it claimed and did not send. Without a transport (no `SMTP_URL`)
 * each pending mail is logged (its id and kind only) once per process and
 * stays queued. A round that fails (the database) is logged once for the
 * whole outage (`databaseDown`), and retried at the next poll.
 *
 * The owner's details for the mails' footers (Réglages) are read once a
 * round, at the first mail that needs them.
 *
 * `rates` throttles kinds: at most `perMinute` rows of a kind are claimed in
 * any 60 s, counted by this worker (one a process: two processes on one
 * database may each claim that many). Other kinds are not slowed down.
 *
 * A row of channel `sms` (sms.server.ts) goes the same way to `sms`, the
 * process's SMS sender, SMTP or not.
 */
import { asc } from "drizzle-orm";
import { outbox } from "~/db/schema";
import { siteSettingsOrLastKnown } from "~/settings/site.server";
import { errorFields } from "~/db/errors.server";
import { databaseAnswered, databaseDown } from "~/db/outage.server";
import type { MailOwner } from "./layout.server";
import { ClaimWindows } from "./claim-windows.server";
import {
  anyDue,
  claimDue,
  clockAt,
  expireOverdue,
  pendingOn,
  releaseClaimed,
  type OutboxChannel,
} from "./outbox-claim.server";
import { OutboxDelivery, type DeliveryOptions } from "./outbox-delivery.server";

/** The transport and its message, for the worker's callers (tests hand in their own transport). */
export type { MailTransport, OutgoingMail } from "./outbox-delivery.server";

/** The worker's options: what a delivery needs (`DeliveryOptions`), and the round's own. */
export interface OutboxWorkerOptions extends Omit<DeliveryOptions, "clock"> {
  /** Milliseconds between rounds when idle (default 5 s). */
  pollInterval?: number;
  batchSize?: number;
  /** How long a claimed row is reserved for its sender (default 5 min, longer than any SMTP timeout). */
  leaseSeconds?: number;
  /** Mails of a round sent at once (default 1): the pooled transport's connections, SMTP_MAX_CONNECTIONS. */
  concurrency?: number;
  /** Kinds to throttle: kind to the most rows claimed in any 60 s (a whole number, at least 1). */
  rates?: Record<string, number>;
  /** The worker's clock, in milliseconds (due rows, back-off, rate windows; default `Date.now`; tests move it by hand). */
  clock?: () => number;
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
  private readonly delivery: OutboxDelivery;

  /** @throws RangeError when a rate is not a whole number of at least 1. */
  constructor(private readonly options: OutboxWorkerOptions) {
    this.clock = options.clock ?? Date.now;
    this.windows = new ClaimWindows(options.rates ?? {}, this.clock);
    this.delivery = new OutboxDelivery({ ...options, clock: this.clock });
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
    if (!transport) {
      await this.logUnsendable();
      if (channels.length === 0) return { claimed: 0, sent: 0, failed: 0 };
    }

    const pending = pendingOn(channels);
    const now = clockAt(this.clock);
    if (!(await anyDue(db, pending, now))) return { claimed: 0, sent: 0, failed: 0 };
    await expireOverdue(db, pending, now, logger);
    const claimed = await claimDue(db, {
      pending,
      now,
      leaseUntil: clockAt(this.clock, leaseSeconds),
      batchSize,
      windows: this.windows,
    });

    let sent = 0;
    let failed = 0;
    // Up to `concurrency` mails at once, over the pooled transport's connections (SMTP_MAX_CONNECTIONS).
    const concurrency = this.options.concurrency ?? 1;
    // The owner's details for the footers, read once a round (at the first mail that has one), not once a mail.
    let owner: Promise<MailOwner> | undefined;
    const ownerOfRound = () =>
      (owner ??= siteSettingsOrLastKnown({ db, logger }).then((settings) => settings.identity));
    for (let index = 0; index < claimed.length; index += concurrency) {
      if (this.stopping) {
        await releaseClaimed(
          db,
          claimed.slice(index).map((rest) => rest.id),
          clockAt(this.clock),
        );
        break;
      }
      const outcomes = await Promise.all(
        claimed.slice(index, index + concurrency).map((row) => this.delivery.send(row, ownerOfRound)),
      );
      sent += outcomes.filter(Boolean).length;
      failed += outcomes.length - outcomes.filter(Boolean).length;
    }
    return { claimed: claimed.length, sent, failed };
  }

  /** Without SMTP: each pending mail logged once a process (id and kind), to be sent once SMTP is configured. */
  private async logUnsendable(): Promise<void> {
    const rows = await this.options.db
      .select({ id: outbox.id, kind: outbox.kind })
      .from(outbox)
      .where(pendingOn(["mail"]))
      .orderBy(asc(outbox.id))
      .limit(100);
    for (const row of rows) {
      if (this.logged.has(row.id)) continue;
      this.logged.add(row.id);
      this.options.logger.warn(
        { outboxId: row.id, kind: row.kind },
        "outbox: SMTP_URL is not set, mail queued (it will be sent once SMTP is configured)",
      );
    }
  }

  /** The channels this worker can send: `mail` with a transport, `sms` with an SMS sender. */
  private channels(): OutboxChannel[] {
    return [...(this.options.transport ? ["mail" as const] : []), ...(this.options.sms ? ["sms" as const] : [])];
  }
}
