/**
 * Course sessions (`course_sessions`): what the public pages list and what
 * the owner manages in the desk. A session belongs to a course of
 * app/content/courses.ts (its `id` is the slug of `/cours/{slug}`).
 *
 * - `courseBySlug(slug)`: the course, or undefined.
 * - `sessionState(session, waiting, now)`: ouverte, complete, annulee, passee.
 * - `listSessions(db, {from?, courseId?, includeClosed?})`: sessions with
 *   their waiting count, by start.
 * - `getSession(db, id)`, `createSession`, `updateSession`,
 *   `duplicateSession(db, id, days)` ("la même, une semaine plus tard"; a
 *   date of a series copies the series, after its last date).
 * - `createSeries(db, fields, starts)`: a series, one session per date;
 *   `seriesSessions(db, seriesIds)`: every session of those series;
 *   (`seriesLessons`, a series' dates still held, is in seats.server.ts.)
 * Cancelling a session is in session-changes.server.ts (it mails the registrants).
 * Times are `Date`s (UTC instants); the desk's form gives Europe/Zurich
 * wall-clock times, converted by `zurichToUtc` (app/utils/zurich-time.server.ts).
 */
import { and, asc, count, eq, gte, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { containsPattern, foldText, readPage, type ListPage } from "~/components/pages";
import { courses } from "~/content/courses";
import type { Course } from "~/content/types";
import type { Database } from "~/db/client.server";
import { courseRegistrations, courseSeries, courseSessions, type PaymentMode } from "~/db/schema";
import { formatDateTimeRange } from "~/utils/format";
import { zurichDaysLater } from "~/utils/zurich-time.server";
import { lockSeats, seriesLessons } from "./seats.server";

/** The Swiss wall clock both ways (the desk's form, the tests): app/utils/zurich-time.server.ts. */
export { utcToZurich, zurichToUtc } from "~/utils/zurich-time.server";

/** A session row as Drizzle reads it. */
export type SessionRow = typeof courseSessions.$inferSelect;

/** A session with the length of its waiting list. */
export type SessionWithWaiting = SessionRow & { waiting: number };

/** The fields the owner sets. */
export interface SessionFields {
  courseId: string;
  startsAt: Date;
  durationMinutes: number;
  placeName: string;
  placeAddress: string;
  placeAccess: string;
  capacity: number;
  minimum: number;
  priceChf: number;
  /**
   * How it is paid (app/content/payment.ts); a series: the same on each of its dates. Absent: sur place
   * for a new session (the table's default), unchanged on an edit.
   */
  payment?: PaymentMode;
}

/** The four states a visitor and the owner see. */
export type SessionState = "ouverte" | "complete" | "annulee" | "passee";

/** French labels of the states. */
export const SESSION_STATE_LABELS: Record<SessionState, string> = {
  ouverte: "Ouverte",
  complete: "Complète",
  annulee: "Annulée",
  passee: "Passée",
};

/** The course of `slug` (an id of app/content/courses.ts), or undefined. */
export function courseBySlug(slug: string): Course | undefined {
  return courses.find((course) => course.id === slug);
}

/**
 * The places a visitor may still book: none while anyone waits (a freed
 * seat goes to the waiting list first, by the owner's hand), else the free seats.
 */
export function placesLeft(session: Pick<SessionRow, "capacity" | "seatsTaken">, waiting: number): number {
  return waiting > 0 ? 0 : Math.max(0, session.capacity - session.seatsTaken);
}

/** The state of a session at `now`. */
export function sessionState(
  session: Pick<SessionRow, "cancelledAt" | "startsAt" | "capacity" | "seatsTaken">,
  waiting: number,
  now: Date,
): SessionState {
  if (session.cancelledAt) return "annulee";
  if (new Date(session.startsAt).getTime() <= now.getTime()) return "passee";
  return placesLeft(session, waiting) === 0 ? "complete" : "ouverte";
}

/**
 * The state as the desk says it: like `sessionState`, but a session whose
 * freed seats wait for the waiting list is not « Complète » (it shows
 * 3 / 4): « 1 place libre pour la liste d’attente ».
 */
export function deskSessionStateLabel(
  session: Pick<SessionRow, "cancelledAt" | "startsAt" | "capacity" | "seatsTaken">,
  waiting: number,
  now: Date,
): string {
  const state = sessionState(session, waiting, now);
  const free = session.capacity - session.seatsTaken;
  if (state !== "complete" || free <= 0) return SESSION_STATE_LABELS[state];
  return free === 1 ? "1 place libre pour la liste d’attente" : `${free} places libres pour la liste d’attente`;
}

/** The end of a session. */
export function sessionEnd(session: Pick<SessionRow, "startsAt" | "durationMinutes">): Date {
  return new Date(new Date(session.startsAt).getTime() + session.durationMinutes * 60_000);
}

/** A place in words: "Salle communale, Rue du Lac 3, 1800 Vevey". */
export const placeInWords = (session: Pick<SessionRow, "placeName" | "placeAddress">) =>
  `${session.placeName}, ${session.placeAddress}`;

/**
 * A series' dates in words, by the order given ("mardi 15 décembre 2026,
 * 14 h 00 – 16 h 00"), each followed by its place when it is not the place
 * of the first (" (lieu : Salle communale, Rue du Lac 3, 1800 Vevey)"): a
 * date moved elsewhere says so wherever the dates are listed.
 */
export function lessonLines(
  lessons: readonly Pick<SessionRow, "startsAt" | "durationMinutes" | "placeName" | "placeAddress">[],
): string[] {
  const main = lessons[0] ? placeInWords(lessons[0]) : "";
  return lessons.map((lesson) => {
    const when = formatDateTimeRange(lesson.startsAt, sessionEnd(lesson));
    const place = placeInWords(lesson);
    return place === main ? when : `${when} (lieu : ${place})`;
  });
}

// Written out: Drizzle leaves column names unqualified in a subquery, where "id" would be the registration's.
const waitingCount = sql<number>`(select count(*)::int from course_registrations r where r.session_id = course_sessions.id and r.status = 'waiting')`;

/**
 * Sessions by start time, with their waiting count. `from`: only those
 * starting after it; `courseId`: one course's; `includeCancelled` false
 * leaves cancelled sessions out; a closed group's sessions (app/quotes/)
 * only with `includeClosed` (the public pages and the booking never see them).
 */
export async function listSessions(
  db: Database,
  {
    from,
    courseId,
    includeCancelled = true,
    includeClosed = false,
  }: { from?: Date; courseId?: string; includeCancelled?: boolean; includeClosed?: boolean } = {},
): Promise<SessionWithWaiting[]> {
  const conditions = [
    from ? gte(courseSessions.startsAt, from.toISOString()) : undefined,
    courseId ? eq(courseSessions.courseId, courseId) : undefined,
    includeCancelled ? undefined : sql`${courseSessions.cancelledAt} is null`,
    includeClosed ? undefined : eq(courseSessions.closed, false),
  ].filter((condition) => condition !== undefined);
  return db
    .select({ session: courseSessions, waiting: waitingCount })
    .from(courseSessions)
    .where(and(...conditions))
    .orderBy(asc(courseSessions.startsAt), asc(courseSessions.id))
    .then((rows) => rows.map(({ session, waiting }) => ({ ...session, waiting: Number(waiting) })));
}

/**
 * The sessions `search` finds: those of a course whose title or address
 * contains it (without accents, any case: « cafe » finds « Café
 * numérique »), and those whose place's name contains it (any case).
 */
function sessionSearch(search: string): SQL {
  const folded = foldText(search);
  const courseIds = courses
    .filter((course) => foldText(`${course.title} ${course.id}`).includes(folded))
    .map((course) => course.id);
  return or(
    ilike(courseSessions.placeName, containsPattern(search)),
    ...(courseIds.length ? [inArray(courseSessions.courseId, courseIds)] : []),
  )!;
}

/**
 * Page `asked` of the desk's sessions on `now`: the upcoming ones by start,
 * then the past ones, the latest first; `DESK_PAGE_SIZE` a page, with how
 * many sessions there are; each date of a series says which it is
 * (`ofSeries`: its rank by start among its series' dates, and their number).
 * Only the sessions `search` finds when it is given (`sessionSearch`).
 */
export async function deskSessionsPage(
  db: Database,
  now: Date,
  asked: number,
  search?: string,
): Promise<ListPage<SessionWithWaiting & { ofSeries: { rank: number; of: number } | null }>> {
  const upcoming = sql`${courseSessions.startsAt} > ${now.toISOString()}`;
  const where = search ? sessionSearch(search) : undefined;
  const page = await readPage(
    asked,
    async () => (await db.select({ total: count() }).from(courseSessions).where(where))[0]!.total,
    (limit, offset) =>
      db
        .select({ session: courseSessions, waiting: waitingCount })
        .from(courseSessions)
        .where(where)
        .orderBy(
          sql`(${upcoming}) desc`,
          sql`case when ${upcoming} then ${courseSessions.startsAt} end asc`,
          sql`${courseSessions.startsAt} desc`,
          sql`case when ${upcoming} then ${courseSessions.id} end asc`,
          sql`${courseSessions.id} desc`,
        )
        .limit(limit)
        .offset(offset)
        .then((rows) => rows.map(({ session, waiting }) => ({ ...session, waiting: Number(waiting) }))),
  );
  const seriesIds = [...new Set(page.rows.flatMap((row) => (row.seriesId === null ? [] : [row.seriesId])))];
  const dates = seriesIds.length
    ? await db
        .select({ id: courseSessions.id, seriesId: courseSessions.seriesId })
        .from(courseSessions)
        .where(inArray(courseSessions.seriesId, seriesIds))
        .orderBy(asc(courseSessions.startsAt), asc(courseSessions.id))
    : [];
  const ofSeries = (row: SessionRow) => {
    const series = dates.filter((date) => date.seriesId !== null && date.seriesId === row.seriesId);
    return series.length ? { rank: series.findIndex((date) => date.id === row.id) + 1, of: series.length } : null;
  };
  return { ...page, rows: page.rows.map((row) => ({ ...row, ofSeries: ofSeries(row) })) };
}

/** One session with its waiting count, or undefined. */
export async function getSession(db: Database, id: number): Promise<SessionWithWaiting | undefined> {
  const [row] = await db
    .select({ session: courseSessions, waiting: waitingCount })
    .from(courseSessions)
    .where(eq(courseSessions.id, id));
  return row ? { ...row.session, waiting: Number(row.waiting) } : undefined;
}

const columns = (fields: SessionFields) => ({ ...fields, startsAt: fields.startsAt.toISOString() });

/** How many dates a series may have (the courses sell 2 to 8 lessons; the form's list stops there). */
export const MAX_SERIES_DATES = 12;

/**
 * Creates a series of course `fields.courseId` (docs/decisions/027-course-series.md):
 * one session per instant of `starts` (sorted by time; `fields.startsAt` is
 * ignored), each with the same place, duration, capacity, minimum, price and
 * way of paying, in one transaction. Registrations for the series take a seat on each.
 * @returns the series' id and its sessions' ids in date order (the first is the anchor registrations point at).
 * @throws RangeError for fewer than 2 dates, more than `MAX_SERIES_DATES`, or a date given twice; the driver's error.
 */
export async function createSeries(
  db: Database,
  fields: SessionFields,
  starts: readonly Date[],
): Promise<{ seriesId: number; sessionIds: number[] }> {
  const sorted = [...starts].sort((a, b) => a.getTime() - b.getTime());
  if (sorted.length < 2 || sorted.length > MAX_SERIES_DATES) {
    throw new RangeError(`A series has 2 to ${MAX_SERIES_DATES} dates, not ${sorted.length}`);
  }
  if (new Set(sorted.map((start) => start.getTime())).size !== sorted.length) {
    throw new RangeError("A series cannot hold the same date twice");
  }
  return db.transaction(async (tx) => {
    const [series] = await tx
      .insert(courseSeries)
      .values({ courseId: fields.courseId })
      .returning({ id: courseSeries.id });
    const seriesId = series!.id;
    const sessionIds: number[] = [];
    for (const startsAt of sorted) {
      const [row] = await tx
        .insert(courseSessions)
        .values({ ...columns({ ...fields, startsAt }), seriesId })
        .returning({ id: courseSessions.id });
      sessionIds.push(row!.id);
    }
    return { seriesId, sessionIds };
  });
}

/** Every session (cancelled ones too) of the series `seriesIds`, by series then id. @throws the driver's error. */
export async function seriesSessions(db: Database, seriesIds: readonly number[]): Promise<SessionWithWaiting[]> {
  if (seriesIds.length === 0) return [];
  return db
    .select({ session: courseSessions, waiting: waitingCount })
    .from(courseSessions)
    .where(inArray(courseSessions.seriesId, [...new Set(seriesIds)]))
    .orderBy(asc(courseSessions.seriesId), asc(courseSessions.id))
    .then((rows) => rows.map(({ session, waiting }) => ({ ...session, waiting: Number(waiting) })));
}

/**
 * The Swiss dates of a series (ISO "2026-10-20"): `count` dates a week
 * apart from `first` (`weekly`), the same wall-clock time each week across
 * a daylight-saving change being the caller's `zurichToUtc`.
 */
export function weeklyDates(first: string, count: number): string[] {
  const [year, month, day] = first.split("-").map(Number) as [number, number, number];
  return Array.from({ length: count }, (_, week) =>
    new Date(Date.UTC(year, month - 1, day + 7 * week)).toISOString().slice(0, 10),
  );
}

/** Creates a session. @returns its id. @throws the driver's error (e.g. the capacity check). */
export async function createSession(db: Database, fields: SessionFields): Promise<number> {
  const [row] = await db.insert(courseSessions).values(columns(fields)).returning({ id: courseSessions.id });
  return row!.id;
}

/** The fields the mails already sent promise: fixed once someone is registered. */
const PROMISED_FIELDS = ["courseId", "startsAt", "durationMinutes", "placeName", "placeAddress"] as const;

/** What `updateSession` did. */
export type UpdateResult = "updated" | "not-found" | "promised";

/**
 * Changes a session's fields. Once anyone is registered or waiting (for a
 * date of a series: for the series, whichever date their row points at),
 * the course, start, duration and place cannot change ("promised": their
 * confirmations and scheduled reminders say them; cancel the session, which
 * tells everyone, and create another). A capacity below the seats already
 * taken is refused by the table's check. How it is paid may change at any
 * time (the registrations keep the way they chose); on a date of a series
 * it changes on every date of the series.
 * @throws the driver's error (the capacity check among them).
 */
export async function updateSession(db: Database, id: number, fields: SessionFields): Promise<UpdateResult> {
  return db.transaction(async (tx) => {
    // A series' dates locked together, in the bookings' order: its way of paying changes on all of them.
    const session = (await lockSeats(tx, id))?.sessions.find((row) => row.id === id);
    if (!session) return "not-found" as const;
    const [active] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(courseRegistrations)
      .where(
        and(
          // A date of a series: the series' registrations hold a seat on it, though they point at its first date.
          session.seriesId === null
            ? eq(courseRegistrations.sessionId, id)
            : eq(courseRegistrations.seriesId, session.seriesId),
          sql`${courseRegistrations.status} <> 'cancelled'`,
        ),
      );
    const next = columns(fields);
    const changed = PROMISED_FIELDS.some((name) =>
      name === "startsAt"
        ? new Date(session.startsAt).getTime() !== fields.startsAt.getTime()
        : session[name] !== next[name],
    );
    if (Number(active!.count) > 0 && changed) return "promised" as const;
    await tx.update(courseSessions).set(next).where(eq(courseSessions.id, id));
    if (session.seriesId !== null && fields.payment && session.payment !== fields.payment) {
      // A series is paid one way: a registration holds all its dates.
      await tx
        .update(courseSessions)
        .set({ payment: fields.payment })
        .where(eq(courseSessions.seriesId, session.seriesId));
    }
    return "updated" as const;
  });
}

/** A session's fields to copy (course, duration, place, capacity, minimum, price) at `startsAt`. */
const copyOf = (session: SessionRow, startsAt: Date): SessionFields => ({
  courseId: session.courseId,
  startsAt,
  durationMinutes: session.durationMinutes,
  placeName: session.placeName,
  placeAddress: session.placeAddress,
  placeAccess: session.placeAccess,
  capacity: session.capacity,
  minimum: session.minimum,
  priceChf: session.priceChf,
  payment: session.payment,
});

/**
 * « La même, une semaine plus tard »: a copy of session `id` (course,
 * place, capacity, minimum, price, duration), `days` later at the same
 * Swiss wall-clock time, with no registration. A date of a series is never
 * copied alone (it would sell one date at the whole series' price): the
 * series' dates still held are copied as a new series, each with its place,
 * starting `days` after the last of them (a 4-week series on Tuesdays
 * gives the next 4 Tuesdays).
 * @returns the new session's id (a new series: its first date's), or undefined when `id` does not exist
 *   or is a date of a series with no date held.
 * @throws the driver's error.
 */
export async function duplicateSession(db: Database, id: number, days = 7): Promise<number | undefined> {
  const session = await getSession(db, id);
  if (!session) return undefined;
  if (session.seriesId === null) return createSession(db, copyOf(session, zurichDaysLater(session.startsAt, days)));
  const lessons = seriesLessons(await seriesSessions(db, [session.seriesId]));
  if (lessons.length < 2) return undefined;
  const spanDays = Math.round(
    (new Date(lessons.at(-1)!.startsAt).getTime() - new Date(lessons[0]!.startsAt).getTime()) / 86_400_000,
  );
  const starts = lessons.map((lesson) => zurichDaysLater(lesson.startsAt, spanDays + days));
  const { sessionIds } = await createSeries(db, copyOf(lessons[0]!, starts[0]!), starts);
  // Each date keeps its own place (createSeries gave them the first's).
  for (const [index, lesson] of lessons.entries()) {
    if (placeInWords(lesson) === placeInWords(lessons[0]!) && lesson.placeAccess === lessons[0]!.placeAccess) continue;
    await db
      .update(courseSessions)
      .set({ placeName: lesson.placeName, placeAddress: lesson.placeAddress, placeAccess: lesson.placeAccess })
      .where(eq(courseSessions.id, sessionIds[index]!));
  }
  return sessionIds[0];
}
