/**
 * The go/no-go of a course (issue 30, item 3; decision 052). At its
 * go/no-go time (Réglages' days before its first date still held), a
 * course (a single session, or a series by its anchor) whose confirmed
 * seats are below its minimum is recorded `below` in `course_go_no_go` and
 * the owner is mailed; the desk's badge counts it (app/desk/live.server.ts)
 * and leads to its page, where he keeps it (`keepCourse`) or cancels it
 * (`cancelBelowMinimum`: every date cancelled, everyone told by their
 * channel, every seat freed, offers withdrawn). At or above the minimum:
 * recorded `met`, nothing said.
 *
 * Exactly once, on every process: each course is checked under its group's
 * locks (`lockSeats`), its row read again once locked; a second process, or
 * a second run, finds the row for that first date and does nothing. What
 * fell due while the server was down is checked at the first run.
 *
 * - `runGoNoGoJob(db, now, { siteUrl })`: the timer's run (`goNoGoJob`).
 * - `goNoGoOf(db, sessionId)`: the pending decision of a session's page, if any.
 * - `keepCourse(db, sessionId, now)`, `cancelBelowMinimum(db, sessionId, now)`: the owner's two buttons.
 */
import { and, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseGoNoGo, courseRegistrations, courseSessions, type GoNoGoState } from "~/db/schema";
import type { TimedJob } from "~/desk/jobs.server";
import { enqueueMail } from "~/mail/enqueue.server";
import { readSiteSettings } from "~/settings/site.server";
import { goNoGoTime } from "./deadlines.server";
import { ownerBelowMinimumMail } from "./go-no-go-mails.server";
import { BOOKING_MAIL } from "./mails.server";
import { withdrawOffers } from "./offers.server";
import { courseTitle, deskUrl } from "./registrants.server";
import { dropReminders } from "./reminders.server";
import { firstStart, groupClosed, lessonsOf, lockSeats, moveSeats, type SeatGroup } from "./seats.server";
import { activeRegistrations } from "./session-changes.server";
import type { SmsChannel } from "./sms-channel.server";
import { tellRegistrants, type Told } from "./tell.server";

/** How often the job runs: a course is checked at most a minute after its go/no-go time. */
export const GO_NO_GO_JOB_INTERVAL_MS = 60_000;

/** What one run did. */
export interface GoNoGoRun {
  /** Courses found below their minimum: the owner was mailed. */
  below: number;
  /** Courses found at or above it. */
  met: number;
  /** Decisions left open until the course began. */
  lapsed: number;
}

/** The same instant, whichever way the database spelt it. */
const sameMoment = (a: string | Date, b: string | Date) => new Date(a).getTime() === new Date(b).getTime();

/**
 * The anchors of courses whose go/no-go time has come by `now` and whose
 * first date still held is not yet checked (read without locks:
 * `checkCourse` decides under them). A course created after its go/no-go
 * time is not checked: the owner made it knowing its date.
 */
async function dueCourses(db: Database, now: Date, days: number): Promise<number[]> {
  // An hour wider than the days: a change of summer time in between moves Swiss days by one (`goNoGoTime` decides).
  const horizon = new Date(now.getTime() + (days * 24 + 1) * 3_600_000).toISOString();
  const rows = await db.execute(sql`
    select a.id from course_sessions a
    join lateral (
      select min(s.starts_at) as first_start from course_sessions s
      where s.cancelled_at is null and (s.id = a.id or (a.series_id is not null and s.series_id = a.series_id))
    ) g on true
    where (a.series_id is null or a.id = (select min(s.id) from course_sessions s where s.series_id = a.series_id))
      and g.first_start > ${now.toISOString()}::timestamptz
      and g.first_start <= ${horizon}::timestamptz
      and a.created_at + ${days * 24} * interval '1 hour' <= g.first_start
      and not exists (select 1 from course_go_no_go d where d.session_id = a.id and d.first_start = g.first_start)
    order by a.id`);
  return (rows as unknown as { rows: { id: string | number }[] }).rows.map((row) => Number(row.id));
}

/** The confirmed seats of the group whose anchor is `anchorId`. */
async function confirmedSeats(tx: Database, anchorId: number): Promise<number> {
  const [row] = await tx
    .select({ seats: sql<string | number>`coalesce(sum(${courseRegistrations.seats}), 0)` })
    .from(courseRegistrations)
    .where(and(eq(courseRegistrations.sessionId, anchorId), eq(courseRegistrations.status, "confirmed")));
  return Number(row?.seats ?? 0);
}

/**
 * Checks the course whose anchor is `anchorId` under its locks: due, open,
 * not yet checked for its first date. Records `below` (and mails the
 * owner) or `met`. @returns the state recorded, or null when nothing was to do.
 */
async function checkCourse(
  db: Database,
  anchorId: number,
  { now, days, siteUrl }: { now: Date; days: number; siteUrl: string },
): Promise<GoNoGoState | null> {
  return db.transaction(async (tx) => {
    const group = await lockSeats(tx, anchorId);
    if (!group || group.anchor.id !== anchorId || groupClosed(group, now)) return null;
    const first = firstStart(group);
    if (goNoGoTime(first, days).getTime() > now.getTime()) return null;
    const [checked] = await tx.select().from(courseGoNoGo).where(eq(courseGoNoGo.sessionId, anchorId));
    if (checked && sameMoment(checked.firstStart, first)) return null;
    const seats = await confirmedSeats(tx, anchorId);
    const minimum = group.anchor.minimum;
    const state: GoNoGoState = seats < minimum ? "below" : "met";
    const row = { firstStart: first, checkedAt: now.toISOString(), seats, minimum, state, decidedAt: null };
    await tx
      .insert(courseGoNoGo)
      .values({ sessionId: anchorId, ...row })
      .onConflictDoUpdate({ target: courseGoNoGo.sessionId, set: row });
    if (state === "below") {
      await enqueueMail(tx, {
        kind: BOOKING_MAIL.ownerBelowMinimum,
        recipient: null,
        people: [],
        ...ownerBelowMinimumMail({
          courseTitle: courseTitle(group.anchor),
          session: group.lessons[0] ?? group.anchor,
          lessons: lessonsOf(group),
          seats,
          minimum,
          deskUrl: deskUrl(siteUrl, anchorId),
        }),
      });
    }
    return state;
  });
}

/**
 * One run at `now`, on every process: decisions still open on a course
 * that began lapse (the badge goes); each course whose go/no-go time came
 * is checked once (`checkCourse`, each in a transaction of its own).
 * @throws the driver's error (the courses checked before stay checked).
 */
export async function runGoNoGoJob(db: Database, now: Date, { siteUrl }: { siteUrl: string }): Promise<GoNoGoRun> {
  const run: GoNoGoRun = { below: 0, met: 0, lapsed: 0 };
  const lapsed = await db
    .update(courseGoNoGo)
    .set({ state: "lapsed", decidedAt: now.toISOString() })
    .where(and(eq(courseGoNoGo.state, "below"), lte(courseGoNoGo.firstStart, now.toISOString())))
    .returning({ id: courseGoNoGo.sessionId });
  run.lapsed = lapsed.length;
  const days = (await readSiteSettings(db)).courses.goNoGoDays;
  for (const anchorId of await dueCourses(db, now, days)) {
    const state = await checkCourse(db, anchorId, { now, days, siteUrl });
    if (state === "below") run.below += 1;
    if (state === "met") run.met += 1;
  }
  return run;
}

export const goNoGoJob: TimedJob = {
  name: "course go/no-go",
  intervalMs: GO_NO_GO_JOB_INTERVAL_MS,
  run: async ({ db, now, siteUrl }) => ({ ...(await runGoNoGoJob(db, now, { siteUrl })) }),
};

/** The anchor of session `sessionId`'s group: itself, or its series' first session by id. */
async function anchorOf(db: Database, sessionId: number): Promise<number | undefined> {
  const [row] = await db
    .select({
      anchor: sql<
        string | number
      >`coalesce((select min(s.id) from course_sessions s where s.series_id = ${courseSessions.seriesId}), ${courseSessions.id})`,
    })
    .from(courseSessions)
    .where(eq(courseSessions.id, sessionId));
  return row ? Number(row.anchor) : undefined;
}

/** A decision the owner has to make, as the session's page shows it. */
export interface PendingDecision {
  /** The page where the two buttons post: the course's anchor. */
  anchorId: number;
  seats: number;
  minimum: number;
  checkedAt: string;
}

/** The open go/no-go decision of session `sessionId`'s course (a date of a series: the series'), or null. */
export async function goNoGoOf(db: Database, sessionId: number): Promise<PendingDecision | null> {
  const anchorId = await anchorOf(db, sessionId);
  if (anchorId === undefined) return null;
  const [row] = await db
    .select()
    .from(courseGoNoGo)
    .where(and(eq(courseGoNoGo.sessionId, anchorId), eq(courseGoNoGo.state, "below")));
  return row ? { anchorId, seats: row.seats, minimum: row.minimum, checkedAt: row.checkedAt } : null;
}

/**
 * « La maintenir quand même »: the open decision of session `sessionId`'s
 * course is recorded `kept` at `now` (the badge goes).
 * @returns false when no decision was open. @throws the driver's error.
 */
export async function keepCourse(db: Database, sessionId: number, now: Date): Promise<boolean> {
  const anchorId = await anchorOf(db, sessionId);
  if (anchorId === undefined) return false;
  const kept = await db
    .update(courseGoNoGo)
    .set({ state: "kept", decidedAt: now.toISOString() })
    .where(and(eq(courseGoNoGo.sessionId, anchorId), eq(courseGoNoGo.state, "below")))
    .returning({ id: courseGoNoGo.sessionId });
  return kept.length > 0;
}

/** Cancels every date of the locked `group` still held, at `now`. */
async function cancelDates(tx: Database, group: SeatGroup, now: Date): Promise<void> {
  await tx
    .update(courseSessions)
    .set({ cancelledAt: now.toISOString() })
    .where(
      and(
        inArray(
          courseSessions.id,
          group.sessions.map((session) => session.id),
        ),
        isNull(courseSessions.cancelledAt),
      ),
    );
}

/**
 * « Annuler la session » on a course with an open decision, under its
 * locks: every date still held is cancelled; every registration, confirmed
 * or waiting, is cancelled (its reminders dropped) and its seats freed on
 * every date; open offers are withdrawn; everyone is told once by their
 * channels (`tellRegistrants`: a mail, an SMS with `sms`, or the call list
 * of the course's page); the decision is recorded `cancelled`.
 * @returns what was told, or undefined when no decision was open (a second click changes nothing).
 * @throws the driver's error (nothing is changed then).
 */
export async function cancelBelowMinimum(
  db: Database,
  sessionId: number,
  now: Date,
  sms?: SmsChannel,
): Promise<Told | undefined> {
  return db.transaction(async (tx) => {
    const group = await lockSeats(tx, sessionId);
    if (!group) return undefined;
    const anchorId = group.anchor.id;
    const [decision] = await tx.select().from(courseGoNoGo).where(eq(courseGoNoGo.sessionId, anchorId));
    if (decision?.state !== "below") return undefined;
    const notice = {
      kind: "below-minimum" as const,
      session: group.lessons[0] ?? group.anchor,
      lessons: lessonsOf(group),
    };
    await cancelDates(tx, group, now);
    const registrations = await activeRegistrations(tx, anchorId);
    let seats = 0;
    for (const registration of registrations) {
      if (registration.status === "confirmed") seats += registration.seats;
      const dropped = await dropReminders(tx, registration.reminderMailIds);
      await tx
        .update(courseRegistrations)
        .set({
          status: "cancelled",
          cancelledAt: now.toISOString(),
          reminderMailIds: [],
          mailIds: registration.mailIds.filter((id) => !dropped.includes(id)),
        })
        .where(eq(courseRegistrations.id, registration.id));
    }
    if (seats > 0) await moveSeats(tx, group, -seats);
    await withdrawOffers(tx, anchorId, now);
    const told = await tellRegistrants(tx, registrations, notice, {
      callSessionId: anchorId,
      now,
      ...(sms && { sms }),
    });
    await tx
      .update(courseGoNoGo)
      .set({ state: "cancelled", decidedAt: now.toISOString() })
      .where(eq(courseGoNoGo.sessionId, anchorId));
    return told;
  });
}
