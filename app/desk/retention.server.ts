/**
 * The daily clean-up that keeps the privacy notice's promises
 * (app/content/legal.ts), made of the mechanisms' own rules and of each
 * feature's (`RetentionPlug` in its app/<feature>/plug.server.ts; the list
 * is app/features.server.ts's, handed to `retention(plugs)`):
 *
 * - the mechanisms': a mail sent more than `sentNotificationDays` days ago
 *   is deleted (failed and waiting ones stay: the owner sees them on the
 *   request's page); expired rate-limit counters, desk sessions, pending
 *   sign-in steps, used TOTP codes older than a day and tokens of links past
 *   their expiry are deleted; the salts of the keys of the day and the mail
 *   counts made with them go two days after their day (decision 028);
 * - the features': a contact request whose last exchange is older than
 *   `retentionMonths` (with its history and mails), a course registration
 *   whose session started more than `retentionMonths` ago, a newsletter
 *   subscription not confirmed within 30 days; a plug's `before` runs
 *   ahead of the transaction (requests stored before `phone_e164` get it).
 *
 * `retention(plugs)` gives `runRetention(db, now, { retentionMonths,
 * sentNotificationDays })` (the owner's legal settings, Réglages), one run
 * at the moment `now` (tests pass a fixed clock) in one transaction, with
 * one audit line (`retention`, counts only). Two processes may run it at
 * once: a transaction-scoped advisory lock lets one work and the other
 * return null. `scheduleRetention(...)` runs it shortly after start and then
 * every 24 hours (server/main.ts).
 */
import { sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { deskSession, deskUsedTotp, deskVerification, rateLimits } from "~/db/schema";
import { deleteOldSalts } from "~/guards/daily-key.server";
import { deleteSentMailOlderThan } from "~/mail/manage.server";
import { deleteOldMailDays } from "~/mail/recipient-cap.server";
import { deleteExpiredTokens } from "~/tokens/tokens.server";
import { errorFields } from "~/db/errors.server";
import { audit } from "./audit.server";

/**
 * What one run deleted (rows, by what they are: `contacts`, `outbox`,
 * `sessions`...), and how many telephone numbers it normalised
 * (`phonesFilled`). Keys of several rules add up (`outbox`: a request's mails
 * and old sent mails).
 */
export type RetentionCounts = Record<string, number>;

/** How long things are kept: whole calendar months for requests, days for sent notifications. */
export interface RetentionPeriods {
  retentionMonths: number;
  sentNotificationDays: number;
}

/** A feature's retention rules. */
export interface RetentionPlug {
  /** Runs before the run's transaction, without its lock (long batches). @throws the driver's error. */
  before?(db: Database, now: Date): Promise<RetentionCounts>;
  /** Deletes what its rules say is past keeping, in the run's transaction. @throws the driver's error. */
  run(tx: Database, now: Date, periods: RetentionPeriods): Promise<RetentionCounts>;
}

/** Adds `more` into `counts` (keys present in both add up). */
function addCounts(counts: RetentionCounts, more: RetentionCounts): void {
  for (const [key, count] of Object.entries(more)) counts[key] = (counts[key] ?? 0) + count;
}

/** Deletes the rows of `table` matching `where`; resolves with how many. */
async function remove(tx: Database, table: PgTable, where: SQL): Promise<number> {
  return (
    await tx
      .delete(table)
      .where(where)
      .returning({ one: sql<number>`1` })
  ).length;
}

/**
 * The mechanisms' rules that run before the features' (old sent mails are
 * counted as such before a feature deletes its records' mails).
 */
const MECHANISM_RULES_FIRST: RetentionPlug = {
  async run(tx, now, { sentNotificationDays }) {
    const at = sql`${now.toISOString()}::timestamptz`;
    return {
      outbox: await deleteSentMailOlderThan(tx, sentNotificationDays, now),
      rateLimits: await remove(tx, rateLimits, sql`${rateLimits.expire} < ${at}`),
      sessions: await remove(tx, deskSession, sql`${deskSession.expiresAt} < ${at}`),
      verifications: await remove(tx, deskVerification, sql`${deskVerification.expiresAt} < ${at}`),
      usedCodes: await remove(tx, deskUsedTotp, sql`${deskUsedTotp.usedAt} < ${at} - interval '1 day'`),
    };
  },
};

/** The mechanisms' rules that run after the features' (tokens, daily keys). */
const MECHANISM_RULES_LAST: RetentionPlug = {
  run: async (tx, now) => ({
    tokens: await deleteExpiredTokens(tx, now),
    recipientMailDays: await deleteOldMailDays(tx, now),
    dailySalts: await deleteOldSalts(tx, now),
  }),
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** The retention job of the features' `plugs` (in the list's order) and the mechanisms' rules. */
export function retention(plugs: readonly RetentionPlug[]) {
  const rules = [MECHANISM_RULES_FIRST, ...plugs, MECHANISM_RULES_LAST];

  /**
   * One run at the moment `now`; the periods are counted back from `now`.
   * @returns the counts, or null when another process was running it.
   * @throws RangeError when a period is not a whole number of at least 1;
   *   the driver's error (nothing is deleted then).
   */
  async function runRetention(
    db: Database,
    now: Date,
    periods: RetentionPeriods,
    logger?: Logger,
  ): Promise<RetentionCounts | null> {
    const { retentionMonths, sentNotificationDays } = periods;
    for (const [name, value] of Object.entries({ retentionMonths, sentNotificationDays }))
      if (!Number.isInteger(value) || value < 1)
        throw new RangeError(`${name} must be a whole number, at least 1 (got ${value})`);
    const before: RetentionCounts = {};
    for (const rule of rules) if (rule.before) addCounts(before, await rule.before(db, now));
    return db.transaction(async (tx) => {
      const lock = (await tx.execute(
        sql`select pg_try_advisory_xact_lock(hashtext('site:retention')) as locked`,
      )) as unknown as { rows: { locked: boolean }[] };
      if (!lock.rows[0]?.locked) return null;
      const counts: RetentionCounts = {};
      for (const rule of rules) addCounts(counts, await rule.run(tx, now, { retentionMonths, sentNotificationDays }));
      addCounts(counts, before);
      await audit(tx, { action: "retention", details: { ...counts } }, logger);
      return counts;
    });
  }

  /**
   * Runs `runRetention` `firstDelayMs` after now (60 s by default), then every
   * `intervalMs` (24 hours). Its timers do not keep the process alive. A run
   * that fails is logged (kind and code only) and tried again at the next
   * time. `stop()` clears the timers and resolves once a run in progress is over.
   */
  function scheduleRetention({
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

  return { runRetention, scheduleRetention };
}
