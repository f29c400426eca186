/**
 * The outbox's lease (decision 005): which rows a round may take, and how it
 * takes and gives them back, for the worker of outbox.server.ts.
 *
 * - `pendingOn(channels)`: the rows neither sent nor failed, of `channels`.
 * - `anyDue(db, pending, now)`: whether a round has anything to do (one
 *   indexed read; an idle round stops there).
 * - `expireOverdue(db, pending, now, logger)`: the due rows whose
 *   `not_after` has passed are marked failed ("expired") and logged (id and
 *   kind): a reminder never leaves after its lesson has started.
 * - `claimDue(db, …)`: up to `batchSize` due rows (`not_before` and
 *   `next_attempt_at` passed), oldest first, in one short transaction
 *   (`SELECT … FOR UPDATE SKIP LOCKED`: two workers on one PostgreSQL never
 *   take the same row), each leased (`next_attempt_at` pushed `leaseSeconds`
 *   ahead) with `attempts` + 1. A worker that dies mid-send leaves its rows
 *   to be retried when the lease ends (delivery at least once). Throttled
 *   kinds (`ClaimWindows`) are taken only within their allowance.
 * - `releaseClaimed(db, ids, now)`: rows claimed and not sent (the worker
 *   stopped) given back at once, their claim's attempt not counted.
 *
 * Every time compared or written is the caller's clock's (`clockAt`), never
 * the database's `now()`. @throws the driver's error, each of them.
 */
import { and, asc, eq, gt, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import type { ClaimWindows } from "./claim-windows.server";

/** A row of the `outbox` table as Drizzle reads it. */
export type OutboxRow = typeof outbox.$inferSelect;

/** The channels a worker sends: `mail` with a transport, `sms` with an SMS sender. */
export type OutboxChannel = "mail" | "sms";

/** `clock()` (milliseconds) plus `seconds`, as an SQL timestamp. */
export function clockAt(clock: () => number, seconds = 0): SQL {
  return sql`${new Date(clock() + seconds * 1000).toISOString()}::timestamptz`;
}

/** The rows still to send (neither sent nor failed) of `channels`. */
export function pendingOn(channels: readonly OutboxChannel[]): SQL | undefined {
  return and(isNull(outbox.sentAt), isNull(outbox.failedAt), inArray(outbox.channel, [...channels]));
}

/**
 * Whether any `pending` row is due at `now` (`next_attempt_at` passed): the
 * only rows `expireOverdue` and `claimDue` may touch. An idle round reads
 * this one row at most, where expiring and claiming took five statements
 * (a site polling every 0.2 s spent 57 ms of CPU a second idle, 10 s measured).
 */
export async function anyDue(db: Database, pending: SQL | undefined, now: SQL): Promise<boolean> {
  const due = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(pending, lte(outbox.nextAttemptAt, now)))
    // The earliest due first: read from the pending rows' index (outbox_pending_idx) in its order,
    // never a scan of the whole outbox, however many rows are due or sent.
    .orderBy(asc(outbox.nextAttemptAt))
    .limit(1);
  return due.length > 0;
}

/**
 * Gives up the `pending` rows due at `now` whose `not_after` has passed
 * (failed, "expired"), one warning each (id and kind).
 */
export async function expireOverdue(db: Database, pending: SQL | undefined, now: SQL, logger: Logger): Promise<void> {
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
}

/**
 * Claims up to `batchSize` `pending` rows due at `now` (see the module's
 * comment), the throttled kinds within `windows`' allowance, and records
 * them in `windows`.
 * @returns the claimed rows as they are now (attempts counted), by id.
 */
export async function claimDue(
  db: Database,
  {
    pending,
    now,
    leaseUntil,
    batchSize,
    windows,
  }: { pending: SQL | undefined; now: SQL; leaseUntil: SQL; batchSize: number; windows: ClaimWindows },
): Promise<OutboxRow[]> {
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
    const throttled = Object.keys(windows.rates);
    await pick(otherKinds(throttled), batchSize);
    for (const kind of throttled)
      await pick(eq(outbox.kind, kind), Math.min(windows.allowance(kind), batchSize - ids.length));
    if (ids.length === 0) return [];
    const rows = await tx
      .update(outbox)
      .set({ attempts: sql`${outbox.attempts} + 1`, nextAttemptAt: leaseUntil })
      .where(inArray(outbox.id, ids))
      .returning();
    return rows.sort((a, b) => a.id - b.id);
  });
  windows.record(claimed.map((row) => row.kind));
  return claimed;
}

/** Gives claimed, unsent rows back: due at `now`, their claim's attempt not counted. */
export async function releaseClaimed(db: Database, ids: readonly number[], now: SQL): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(outbox)
    .set({ attempts: sql`${outbox.attempts} - 1`, nextAttemptAt: now })
    .where(and(inArray(outbox.id, [...ids]), isNull(outbox.sentAt)));
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
