/**
 * What the owner's desk (and the retention job) do with the outbox: read
 * the state of a contact's mails, list the mails not delivered
 * (`undeliveredMails`) with their reason in French, send a mail again
 * (`resendMail`), correct its address and send it again
 * (`correctAndResend`), leave it aside (`dismissMail`), delete sent mails
 * after a while. The worker (`outbox.server.ts`) does the sending; call
 * `wakeOutbox` after a resend for it to go at once.
 */
import { and, asc, desc, eq, isNotNull, isNull, lt, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import type { OutboxPlug } from "./outbox-delivery.server";
import { refusalReason } from "./refusal.server";
import { mailsTo, UNDELIVERED } from "./undelivered.server";

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
    .set({
      attempts: 0,
      failedAt: null,
      dismissedAt: null,
      nextAttemptAt: sql`greatest(now(), ${outbox.notBefore})`,
    })
    .where(and(eq(outbox.id, id), isNull(outbox.sentAt)))
    .returning({ id: outbox.id });
  return changed.length > 0;
}

/** A mail not delivered, as the desk lists it. */
export interface UndeliveredMail {
  id: number;
  kind: string;
  /** The address it was for; null: the owner's own mailbox (CONTACT_NOTIFY_TO). */
  recipient: string | null;
  subject: string | null;
  /** When it was given up (ISO, UTC). */
  failedAt: string;
  /** Why, in French: « L’adresse n’existe pas chez son fournisseur (550) ». */
  reason: string;
}

/**
 * The mails not delivered (`UNDELIVERED`) that also match `where` (all when
 * absent), the latest first, at most `limit`.
 * @throws whatever the driver throws.
 */
export async function undeliveredMails(db: Database, where?: SQL, limit = 100): Promise<UndeliveredMail[]> {
  const rows = await db
    .select({
      id: outbox.id,
      kind: outbox.kind,
      recipient: outbox.recipient,
      subject: outbox.subject,
      failedAt: outbox.failedAt,
      stage: outbox.errorStage,
      code: outbox.errorCode,
    })
    .from(outbox)
    .where(and(UNDELIVERED, where))
    .orderBy(desc(outbox.failedAt), desc(outbox.id))
    .limit(limit);
  return rows.map(({ stage, code, failedAt, ...row }) => ({
    ...row,
    failedAt: failedAt!,
    reason: refusalReason(stage, code),
  }));
}

/**
 * Whether the address in `email` (a column or value) was refused for good by
 * its provider (a 5xx at RCPT TO, or a permanent bounce or a complaint its
 * provider reported later, decision 044; still its address): the newsletter
 * sends it no more letters. As an SQL condition.
 */
export const refusedForGood = (email: SQL | AnyColumn): SQL =>
  sql`exists (select 1 from ${outbox} where lower(${outbox.recipient}) = lower(${email}) and ${refusedRow})`;

/** An outbox row that says its recipient was refused for good (`refusedForGood`). */
const refusedRow = sql`${outbox.failedAt} is not null and ((${outbox.errorStage} = 'recipient' and ${outbox.errorCode} between 500 and 599) or ${outbox.errorStage} in ('bounce', 'complaint'))`;

/**
 * The addresses `refusedForGood` holds, lower-cased, as an SQL subquery
 * that names no outer row: `lower(x) not in (…)` is computed once per
 * statement (a set of rows to filter, e.g. a letter's batch of
 * subscribers), where the `exists` form may scan the outbox once per row.
 */
export const refusedAddresses: SQL = sql`select lower(${outbox.recipient}) from ${outbox} where ${outbox.recipient} is not null and ${refusedRow}`;

/**
 * Corrects the address of the unsent mail `id` to `address` and makes it
 * due again (as `resendMail`); the other unsent mails to the same old
 * address get the new one too (a reminder still waiting would otherwise
 * meet the same refusal), and those not delivered are sent again with it.
 * `outbox.named` follows (the erasure finds the mails by the new address).
 * The features' plugs then correct their own rows (`addressCorrected`: a
 * registration's e-mail), in the same transaction. A mail to the owner
 * (no recipient) is only sent again.
 * @returns the ids of the mails made due, or null when `id` is not an unsent mail.
 * @throws whatever the driver throws.
 */
export async function correctAndResend(
  db: Database,
  id: number,
  address: string,
  plugs: readonly OutboxPlug[] = [],
): Promise<number[] | null> {
  const to = address.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ recipient: outbox.recipient })
      .from(outbox)
      .where(and(eq(outbox.id, id), isNull(outbox.sentAt)))
      .for("update");
    if (!row) return null;
    const from = row.recipient?.trim().toLowerCase();
    if (!from || from === to) return (await resendMail(tx, id)) ? [id] : null;
    const rows = await tx
      .select({ id: outbox.id, named: outbox.named, failedAt: outbox.failedAt, dismissedAt: outbox.dismissedAt })
      .from(outbox)
      .where(and(isNull(outbox.sentAt), or(eq(outbox.id, id), mailsTo(from))))
      .for("update");
    const again: number[] = [];
    for (const mail of rows) {
      const named = mail.named.map((entry) => (entry.email === from ? { ...entry, email: to } : entry));
      await tx.update(outbox).set({ recipient: to, named }).where(eq(outbox.id, mail.id));
      if (mail.id === id || (mail.failedAt !== null && mail.dismissedAt === null)) again.push(mail.id);
    }
    for (const mail of again) await resendMail(tx, mail);
    const mailIds = rows.map((mail) => mail.id);
    for (const plug of plugs) await plug.addressCorrected?.(tx, { mailIds, from, to });
    return again;
  });
}

/**
 * Leaves the failed mail `id` aside: it stays in the table (and the person's
 * data) but leaves the desk's count of mails not delivered.
 * @returns whether a row changed. @throws whatever the driver throws.
 */
export async function dismissMail(db: Database, id: number, now = new Date()): Promise<boolean> {
  const changed = await db
    .update(outbox)
    .set({ dismissedAt: now.toISOString() })
    .where(and(eq(outbox.id, id), isNotNull(outbox.failedAt), isNull(outbox.dismissedAt)))
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
