/**
 * The courses' timed job (app/desk/jobs.server.ts): every minute on every
 * process, offers whose hold ended expire and their seats go to the next
 * who waits; seats free and not held while someone waits are offered
 * (`runOfferJob`, under the groups' locks, so two processes never both
 * act). `offerSeatsOf` brings one group in line in a transaction of its
 * own (the owner changed its seats).
 */
import { and, eq, lte, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseOffers } from "~/db/schema";
import type { TimedJob } from "~/desk/jobs.server";
import { expireOffers, offerSeats, type OfferJobRun } from "./offers.server";
import type { LinkOptions } from "./registrants.server";
import { lockSeats } from "./seats.server";
import { smsChannelOf } from "./sms-channel.server";

/** How often the job runs: a hold ends at most a minute late. */
export const OFFER_JOB_INTERVAL_MS = 60_000;

export const offerJob: TimedJob = {
  name: "course offers",
  intervalMs: OFFER_JOB_INTERVAL_MS,
  run: async ({ db, now, siteUrl, settings, logger }) => ({
    // The process's SMS settings (decision 060): an offer may go by SMS.
    ...(await runOfferJob(db, now, { siteUrl, ...(settings && { sms: smsChannelOf(settings, logger) }) })),
  }),
};

/**
 * One run at `now`, on every process (each group in a transaction of its
 * own, under its locks: two processes never both expire or offer): every
 * open offer whose hold ended by `now` expires and the seat goes to the
 * next; then each group where seats are free and not held while someone
 * waits without an offer (a seat freed by an erasure, seats raised), or
 * holds more than it has free (seats lowered), is brought in line
 * (`offerSeats`). What fell due while the server was down runs at the first
 * run after start.
 * @throws the driver's error (the groups done before stay done).
 */
export async function runOfferJob(db: Database, now: Date, options: Omit<LinkOptions, "now">): Promise<OfferJobRun> {
  const run: OfferJobRun = { expired: 0, offered: 0 };
  const due = await db
    .selectDistinct({ sessionId: courseOffers.sessionId })
    .from(courseOffers)
    .where(and(eq(courseOffers.state, "open"), lte(courseOffers.holdUntil, now.toISOString())));
  for (const { sessionId } of due) {
    await db.transaction(async (tx) => {
      const group = await lockSeats(tx, sessionId);
      if (!group) return;
      const offers = await tx
        .select()
        .from(courseOffers)
        .where(
          and(
            eq(courseOffers.sessionId, sessionId),
            eq(courseOffers.state, "open"),
            lte(courseOffers.holdUntil, now.toISOString()),
          ),
        );
      const done = await expireOffers(tx, group, offers, { ...options, now });
      run.expired += done.expired;
      run.offered += done.offered;
    });
  }
  for (const sessionId of await groupsOutOfLine(db, now))
    run.offered += await offerSeatsOf(db, sessionId, { ...options, now });
  return run;
}

/**
 * `offerSeats` for session `sessionId`'s group in a transaction of its own
 * (after the owner changed its seats: more free, or fewer than held).
 * @returns how many offers it made. @throws the driver's error.
 */
export async function offerSeatsOf(db: Database, sessionId: number, options: LinkOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const group = await lockSeats(tx, sessionId);
    return group ? offerSeats(tx, group, options) : 0;
  });
}

/**
 * The anchors of groups not yet begun whose free seats (read without locks:
 * `offerSeats` decides under them) differ from what their open offers
 * hold: more free while someone waits without an offer, or fewer.
 */
async function groupsOutOfLine(db: Database, now: Date): Promise<number[]> {
  const rows = await db.execute(sql`
    with anchors as (
      select distinct r.session_id as id from course_registrations r where r.status = 'waiting'
      union
      select distinct o.session_id from course_offers o where o.state = 'open'
    ), groups as (
      select a.id,
        (select min(s.capacity - s.seats_taken) from course_sessions s
          where s.id = a.id or (x.series_id is not null and s.series_id = x.series_id)) as free,
        (select coalesce(sum(o.seats), 0) from course_offers o where o.session_id = a.id and o.state = 'open') as held,
        exists (select 1 from course_registrations r where r.session_id = a.id and r.status = 'waiting'
          and not exists (select 1 from course_offers o where o.registration_id = r.id and o.state = 'open')) as unoffered
      from anchors a join course_sessions x on x.id = a.id
      where (x.series_id is null and x.cancelled_at is null and x.starts_at > ${now.toISOString()}::timestamptz)
        or (x.series_id is not null and (select min(s.starts_at) from course_sessions s
          where s.series_id = x.series_id and s.cancelled_at is null) > ${now.toISOString()}::timestamptz)
    )
    select id from groups where (free > held and unoffered) or held > free order by id`);
  return (rows as unknown as { rows: { id: string | number }[] }).rows.map((row) => Number(row.id));
}
