/**
 * Keys of the day (decision 028): what the limits on one person count by,
 * without storing who that person is. A key is
 * `sha256(salt of the day + value)` in hex, where the salt is 32 random
 * bytes drawn once per calendar day in Europe/Zurich (`daily_salts`) and
 * deleted by the daily job two days later (`deleteOldSalts`): until then
 * the owner's database can tell whether a given value made a key (so the
 * keys are personal data for that time, and erased with the person);
 * afterwards nobody can, not even with the database and the server's
 * secrets (an IPv4 address, 2^32 values, could be tried one by one against
 * a key made with a lasting secret; not against a salt that is gone).
 *
 * - `dayOf(now)`: the calendar day in Zurich ("2026-11-25") a key belongs to;
 * - `dailyKey(db, value, now)`: the key of `value` on `now`'s day, the salt
 *   drawn at the first call of the day (two processes at once: one salt wins,
 *   both use it);
 * - `keyOfDaySql(day, value)`: the same key computed by PostgreSQL from the
 *   stored salt (for the person registry's look-ups);
 * - `oldestKeptDay(now)`, `deleteOldSalts(db, now)`: the daily job's part.
 */
import { createHash, randomBytes } from "node:crypto";
import { eq, lt, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import { dailySalts } from "~/db/schema";
import { isoDateInZurich } from "~/utils/format";

/** How many days a salt is kept after its own: yesterday's keys still read today (a burst over midnight). */
export const SALT_KEPT_DAYS = 2;

/** The calendar day of `now` in Europe/Zurich, ISO-written ("2026-11-25"). @throws RangeError on an invalid date. */
export function dayOf(now: Date): string {
  return isoDateInZurich(now);
}

/** The salt of `day`, drawn and stored at its first use. @throws the driver's error. */
async function saltOf(db: Database, day: string): Promise<string> {
  // One round trip (a booking asks under its series' lock): the salt drawn now, or the one already stored.
  const result = (await db.execute(sql`
    with drawn as (
      insert into ${dailySalts} (day, salt) values (${day}, ${randomBytes(32).toString("base64url")})
      on conflict do nothing returning salt
    )
    select salt from drawn union all select salt from ${dailySalts} where day = ${day}`)) as unknown as {
    rows: { salt: string }[];
  };
  const salt = result.rows[0]?.salt;
  if (salt !== undefined) return salt;
  // Another process stored it while this statement ran (its snapshot did not see it): read it now.
  const [row] = await db.select({ salt: dailySalts.salt }).from(dailySalts).where(eq(dailySalts.day, day));
  return row!.salt;
}

/** The key of `value` with `salt`: sha256 of their concatenation, in hex (as `keyOfDaySql` computes it). */
export function keyWithSalt(salt: string, value: string): string {
  return createHash("sha256").update(`${salt}${value}`, "utf8").digest("hex");
}

/**
 * The key of `value` (already normalised by the caller: a network, a
 * lower-cased e-mail) on the day of `now`.
 * @throws the driver's error.
 */
export async function dailyKey(db: Database, value: string, now: Date): Promise<string> {
  return keyWithSalt(await saltOf(db, dayOf(now)), value);
}

/**
 * SQL that computes, in PostgreSQL, the key of `value` on the day `day`
 * (a column, fully qualified, or an expression of type date), from the
 * stored salt: null once that day's salt is deleted.
 */
export function keyOfDaySql(day: SQL, value: string): SQL {
  return sql`(select encode(sha256(convert_to(daily_salt.salt || ${value}, 'UTF8')), 'hex') from daily_salts daily_salt where daily_salt.day = ${day})`;
}

/** The first day whose salt is still kept on `now`'s day ("2026-11-23" on the 25th): older days are deleted. */
export function oldestKeptDay(now: Date): string {
  const oldest = new Date(`${dayOf(now)}T12:00:00Z`);
  oldest.setUTCDate(oldest.getUTCDate() - SALT_KEPT_DAYS);
  return oldest.toISOString().slice(0, 10);
}

/**
 * Deletes the rows of `table` whose `day` is before `oldestKeptDay(now)`: the
 * salts here, and what was counted by their keys (app/mail/recipient-cap.server.ts).
 * @returns how many were deleted. @throws the driver's error.
 */
export async function deleteDaysPast(db: Database, table: PgTable, day: PgColumn, now: Date): Promise<number> {
  const deleted = await db
    .delete(table)
    .where(lt(day, oldestKeptDay(now)))
    .returning({ one: sql`1` });
  return deleted.length;
}

/** Deletes the salts of the days before `oldestKeptDay(now)` (the daily job, app/desk/retention.server.ts). */
export const deleteOldSalts = (db: Database, now: Date) => deleteDaysPast(db, dailySalts, dailySalts.day, now);
