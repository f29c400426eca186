/**
 * The daily clean-up that keeps the privacy notice's promises
 * (app/content/legal.ts):
 *
 * - a contact request whose last exchange (`last_activity_at`) is older
 *   than `retentionMonths` is deleted, with its status history and its
 *   notification mails; so is a course registration whose session started
 *   more than `retentionMonths` ago, with its mails;
 * - a notification sent more than `sentNotificationDays` days ago is
 *   deleted (failed and waiting ones stay: the owner sees them on the
 *   request's page);
 * - expired rate-limit counters, desk sessions, pending sign-in steps,
 *   used TOTP codes older than a day, tokens of links past their expiry
 *   (a course registration's expires 7 days after the course, before
 *   the registration's own deletion) and
 *   newsletter subscriptions not confirmed within 30 days are deleted;
 * - requests stored before `phone_e164` existed get it (`backfillPhoneE164`);
 * - the salts of the keys of the day and the mail counts made with them are
 *   deleted two days after their day (decision 028).
 *
 * `runRetention(db, now, { retentionMonths, sentNotificationDays })` (the
 * owner's legal settings, Réglages, which the privacy notice states) does one run at the moment
 * `now` (tests pass a fixed clock) in one transaction, with one audit line
 * (`retention`, counts only). Two processes may run it at once: a
 * transaction-scoped advisory lock lets one work and the other return null.
 * `scheduleRetention(...)` runs it shortly after start and then every 24
 * hours (server/main.ts).
 */
import { inArray, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { contactEvents, contacts, deskSession, deskUsedTotp, deskVerification, outbox, rateLimits } from "~/db/schema";
import { deleteRegistrationsOfSessionsBefore } from "~/courses/person.server";
import { deleteOldSalts } from "~/guards/daily-key.server";
import { deleteSentMailOlderThan } from "~/mail/manage.server";
import { deleteOldMailDays } from "~/mail/recipient-cap.server";
import { deleteUnconfirmed } from "~/newsletter/subscriptions.server";
import { deleteExpiredTokens } from "~/tokens/tokens.server";
import { errorFields } from "~/db/errors.server";
import { audit } from "./audit.server";
import { backfillPhoneE164 } from "./person.server";

/** What one run deleted (rows), and how many telephone numbers it normalised. */
export interface RetentionCounts {
  /** Contact requests past the retention period. */
  contacts: number;
  /** Their status history. */
  contactEvents: number;
  /** Their notification mails, and mails sent more than `sentNotificationDays` days ago. */
  outbox: number;
  rateLimits: number;
  sessions: number;
  verifications: number;
  usedCodes: number;
  /** Course registrations (and their mails) of sessions held more than `retentionMonths` ago. */
  courseRegistrations: number;
  /** Newsletter subscriptions never confirmed, 30 days after the request. */
  unconfirmedSubscribers: number;
  /** Expired tokens of links (newsletter confirm and unsubscribe, course registrations). */
  tokens: number;
  /** Requests whose `phone_e164` was filled. */
  phonesFilled: number;
  /** Salts of the keys of the day, and the mail counts made with them, two days after their day (decision 028). */
  dailySalts: number;
  recipientMailDays: number;
}

/** How long things are kept: whole calendar months for requests, days for sent notifications. */
export interface RetentionPeriods {
  retentionMonths: number;
  sentNotificationDays: number;
}

/**
 * One run at the moment `now`; the periods are counted back from `now`.
 * @returns the counts, or null when another process was running it.
 * @throws RangeError when a period is not a whole number of at least 1;
 *   the driver's error (nothing is deleted then).
 */
export async function runRetention(
  db: Database,
  now: Date,
  { retentionMonths, sentNotificationDays }: RetentionPeriods,
  logger?: Logger,
): Promise<RetentionCounts | null> {
  for (const [name, value] of Object.entries({ retentionMonths, sentNotificationDays }))
    if (!Number.isInteger(value) || value < 1)
      throw new RangeError(`${name} must be a whole number, at least 1 (got ${value})`);
  const phonesFilled = await backfillPhoneE164(db);
  const at = sql`${now.toISOString()}::timestamptz`;
  return db.transaction(async (tx) => {
    const lock = (await tx.execute(
      sql`select pg_try_advisory_xact_lock(hashtext('site:retention')) as locked`,
    )) as unknown as { rows: { locked: boolean }[] };
    if (!lock.rows[0]?.locked) return null;

    // Locked, so that a note written meanwhile waits, and the request is deleted whole or kept whole.
    const expired = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(sql`${contacts.lastActivityAt} < ${at} - make_interval(months => ${retentionMonths}::int)`)
      .for("update");
    const ids = expired.map((row) => row.id);
    /** Deletes the rows of `table` matching `where`; resolves with how many. */
    const remove = async (table: PgTable, where: SQL) =>
      (
        await tx
          .delete(table)
          .where(where)
          .returning({ one: sql<number>`1` })
      ).length;
    let contactMails = 0;
    let contactEventRows = 0;
    if (ids.length > 0) {
      contactMails = await remove(outbox, inArray(outbox.contactId, ids));
      contactEventRows = await remove(contactEvents, inArray(contactEvents.contactId, ids));
      await remove(contacts, inArray(contacts.id, ids));
    }
    const sentMails = await deleteSentMailOlderThan(tx, sentNotificationDays, now);
    const counts: RetentionCounts = {
      contacts: ids.length,
      contactEvents: contactEventRows,
      outbox: contactMails + sentMails,
      rateLimits: await remove(rateLimits, sql`${rateLimits.expire} < ${at}`),
      sessions: await remove(deskSession, sql`${deskSession.expiresAt} < ${at}`),
      verifications: await remove(deskVerification, sql`${deskVerification.expiresAt} < ${at}`),
      usedCodes: await remove(deskUsedTotp, sql`${deskUsedTotp.usedAt} < ${at} - interval '1 day'`),
      unconfirmedSubscribers: await deleteUnconfirmed(tx, now),
      courseRegistrations: await deleteRegistrationsOfSessionsBefore(
        tx,
        new Date(
          Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - retentionMonths, now.getUTCDate(), now.getUTCHours()),
        ),
      ),
      tokens: await deleteExpiredTokens(tx, now),
      phonesFilled,
      recipientMailDays: await deleteOldMailDays(tx, now),
      dailySalts: await deleteOldSalts(tx, now),
    };
    await audit(tx, { action: "retention", details: { ...counts } }, logger);
    return counts;
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Runs `runRetention` `firstDelayMs` after now (60 s by default), then every
 * `intervalMs` (24 hours). Its timers do not keep the process alive. A run
 * that fails is logged (kind and code only) and tried again at the next
 * time. `stop()` clears the timers and resolves once a run in progress is over.
 */
export function scheduleRetention({
  db,
  logger,
  periods,
  firstDelayMs = 60_000,
  intervalMs = DAY_MS,
}: {
  db: Database;
  logger: Logger;
  /** The periods, or how to read them at each run (the owner changes them in Réglages). */
  periods: RetentionPeriods | (() => Promise<RetentionPeriods>);
  firstDelayMs?: number;
  intervalMs?: number;
}): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = (typeof periods === "function" ? periods() : Promise.resolve(periods))
      .then((current) => runRetention(db, new Date(), current, logger))
      .then(
        (counts) => {
          if (!counts) logger.info("retention: another process is running it");
        },
        (error: unknown) => logger.error({ err: errorFields(error) }, "retention: the run failed"),
      )
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, firstDelayMs);
  const every = setInterval(run, intervalMs);
  first.unref();
  every.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
