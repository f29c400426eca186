/**
 * What the owner's desk (and the retention job) do with the outbox: read
 * the state of a contact's mails, send a mail again, delete sent mails
 * after a while. The worker (`outbox.server.ts`) does the sending; call
 * `wakeOutbox` after `resendMail` for it to go at once.
 */
import { and, asc, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";

/** One mail's state, as the desk shows it. Times are ISO strings from the database (UTC). */
export interface MailState {
  id: number;
  kind: string;
  /** When it was sent; null while pending or once failed. */
  sentAt: string | null;
  /** Attempts so far (a claim counts as one). */
  attempts: number;
  /** The last failure's message (it may name the recipient: show it to the owner, never log it). */
  lastError: string | null;
  /** When it was given up; null unless failed. */
  failedAt: string | null;
  /** The earliest time it may leave. */
  notBefore: string;
}

/**
 * The mails of contact request `contactId`, oldest first.
 * @throws whatever the driver throws.
 */
export async function mailStateOf(db: Database, { contactId }: { contactId: number }): Promise<MailState[]> {
  return db
    .select({
      id: outbox.id,
      kind: outbox.kind,
      sentAt: outbox.sentAt,
      attempts: outbox.attempts,
      lastError: outbox.lastError,
      failedAt: outbox.failedAt,
      notBefore: outbox.notBefore,
    })
    .from(outbox)
    .where(eq(outbox.contactId, contactId))
    .orderBy(asc(outbox.id));
}

/**
 * Makes mail `id` due again if it is not sent (failed, or pending in its
 * back-off): attempts back to 0, `failed_at` cleared, next attempt now (a
 * scheduled mail still waits for its `not_before`). A sent mail is left as
 * it is. Pressed while the worker is sending that very row, it may go out
 * twice (delivery is at least once).
 * @returns whether a row changed. @throws whatever the driver throws.
 */
export async function resendMail(db: Database, id: number): Promise<boolean> {
  const changed = await db
    .update(outbox)
    .set({ attempts: 0, failedAt: null, nextAttemptAt: sql`greatest(now(), ${outbox.notBefore})` })
    .where(and(eq(outbox.id, id), isNull(outbox.sentAt)))
    .returning({ id: outbox.id });
  return changed.length > 0;
}

const DAY = 86_400_000;

/**
 * Deletes the sent mails whose `sent_at` is more than `days` days before
 * `now` (pending and failed mails are kept).
 * @returns how many rows were deleted. @throws RangeError when `days` is
 *   negative or not finite; whatever the driver throws.
 */
export async function deleteSentMailOlderThan(db: Database, days: number, now = new Date()): Promise<number> {
  if (!Number.isFinite(days) || days < 0) throw new RangeError("days must be a number of days, at least 0");
  const before = new Date(now.getTime() - days * DAY).toISOString();
  const deleted = await db
    .delete(outbox)
    .where(and(isNotNull(outbox.sentAt), lt(outbox.sentAt, before)))
    .returning({ id: outbox.id });
  return deleted.length;
}
