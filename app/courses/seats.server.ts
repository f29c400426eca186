/**
 * The one place that locks course sessions (`select ... for update` on
 * `course_sessions`) and moves their seats. A registration holds its seats
 * on a seat group: a single-date session, or every session of a series.
 *
 * Concurrency: every change of a session's seats first locks the group's
 * rows, in id order (the same order in every transaction, so two never
 * wait on each other in a circle), so registrations for one session run
 * one after the other in every server process sharing the database, and a
 * waiting list's `id` order is the order the locks were granted (arrival
 * order). The table's check (`seats_taken <= capacity`) is the second line.
 *
 * - `lockSeats(tx, sessionId)`: the group, locked; `lockSession(tx, id)`: one row, locked;
 *   `readSeats(db, sessionId)`: the group as it stands, no lock.
 * - `inSeatTurn(group, task)`: a process's bookings of one group, one at a
 *   time, the others waiting in memory (decision 055).
 * - `moveSeats(tx, group, delta)`: seats taken (+) or given back (-) on every session of the group.
 * - `giveBackSeats(tx, held)`: an erasure's seats given back, under the same locks.
 * - `freeSeats`, `groupClosed`, `firstStart`, `lastStart`, `lessonsOf`, `seriesLessons`: what a group holds.
 */
import { asc, eq, inArray, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseSessions } from "~/db/schema";
import { KeyedTurns } from "~/utils/keyed-turns";

/** A session row as Drizzle reads it (the same type as sessions.server.ts's, which imports this module). */
type SessionRow = typeof courseSessions.$inferSelect;

/**
 * Locks the session `sessionId` alone (`select ... for update`), for a
 * change of that row that takes no seats (the desk's edit).
 * @returns undefined when there is no such session.
 */
export async function lockSession(tx: Database, sessionId: number): Promise<SessionRow | undefined> {
  const [session] = await tx.select().from(courseSessions).where(eq(courseSessions.id, sessionId)).for("update");
  return session;
}

/**
 * The sessions a registration holds its seats on, locked: a single-date
 * session, or every session of a series.
 */
export interface SeatGroup {
  /** The session registrations point at: the single session, or the series' first session by id. */
  anchor: SessionRow;
  /** Every session of the group, cancelled ones too, in id order (the lock order). */
  sessions: SessionRow[];
  /** The dates still held, by start: what the mails, the calendar file and the reminders name. */
  lessons: SessionRow[];
  /** The series' id, or null for a single-date session. */
  seriesId: number | null;
}

/**
 * Locks the sessions of `sessionId`'s group (`select ... for update`):
 * the session alone, or every session of its series in id order (the
 * order every transaction takes them in, so none waits for another in a
 * circle). Seats move on every session of a series together, so each
 * session's check (`seats_taken <= capacity`) holds on every date.
 * @returns undefined when there is no such session.
 */
export function lockSeats(tx: Database, sessionId: number): Promise<SeatGroup | undefined> {
  return seatGroup(tx, sessionId, true);
}

/**
 * The group as it stands, without a lock (a registration prepares its mails
 * from it before its transaction; what it decides, it decides under `lockSeats`).
 */
export function readSeats(db: Database, sessionId: number): Promise<SeatGroup | undefined> {
  return seatGroup(db, sessionId, false);
}

async function seatGroup(tx: Database, sessionId: number, lock: boolean): Promise<SeatGroup | undefined> {
  // One statement (a booking takes it under the lock): the session and, when it has a series, every session of it.
  const query = tx
    .select()
    .from(courseSessions)
    .where(
      or(
        eq(courseSessions.id, sessionId),
        eq(
          courseSessions.seriesId,
          sql`(select ${courseSessions.seriesId} from ${courseSessions} where ${courseSessions.id} = ${sessionId})`,
        ),
      ),
    )
    .orderBy(asc(courseSessions.id));
  const sessions = lock ? await query.for("update") : await query;
  const seriesId = sessions.find((session) => session.id === sessionId)?.seriesId;
  if (seriesId === undefined) return undefined;
  if (seriesId === null) return { anchor: sessions[0]!, sessions, lessons: sessions, seriesId: null };
  return { anchor: sessions[0]!, sessions, lessons: seriesLessons(sessions), seriesId };
}

/**
 * The bookings of one group wait for their turn here, in this process
 * (decision 055): one at a time holds a database connection and the
 * group's locks; the others wait in memory, not each on a pool connection.
 */
const seatTurns = new KeyedTurns();

/** The key of a group's turn: its series, or its single session. */
export const turnKey = (group: Pick<SeatGroup, "seriesId" | "anchor">) =>
  group.seriesId === null ? `session:${group.anchor.id}` : `series:${group.seriesId}`;

/** Runs `task` in the group's turn (after this process's earlier bookings of the group). @throws what `task` throws. */
export function inSeatTurn<T>(group: Pick<SeatGroup, "seriesId" | "anchor">, task: () => Promise<T>): Promise<T> {
  return seatTurns.run(turnKey(group), task);
}

/** When the group begins: its first date still held (the anchor's when every date is cancelled). */
export const firstStart = (group: SeatGroup) => (group.lessons[0] ?? group.anchor).startsAt;
/** The start of the group's last date still held. */
export const lastStart = (group: SeatGroup) => (group.lessons.at(-1) ?? group.anchor).startsAt;
/** Whether the group no longer takes registrations at `now`: cancelled (every date), or begun. */
export const groupClosed = (group: SeatGroup, now: Date) =>
  (group.seriesId === null ? group.anchor.cancelledAt !== null : group.lessons.length === 0) ||
  new Date(firstStart(group)).getTime() <= now.getTime();
/** The seats free on every session of the group. */
export const freeSeats = (group: SeatGroup) =>
  Math.min(...group.sessions.map((session) => session.capacity - session.seatsTaken));

/** Adds `delta` seats (negative: gives them back) to every session of the group, under its locks. */
export async function moveSeats(tx: Database, group: SeatGroup, delta: number): Promise<void> {
  await tx
    .update(courseSessions)
    .set({ seatsTaken: sql`${courseSessions.seatsTaken} + ${delta}` })
    .where(
      inArray(
        courseSessions.id,
        group.sessions.map((session) => session.id),
      ),
    );
}
/** Seats a confirmed registration holds: on `sessionId`, or on every date of series `seriesId`. */
export interface HeldSeats {
  sessionId: number;
  seriesId: number | null;
  seats: number;
}

/**
 * Gives back the seats of confirmed registrations (an erasure, in its
 * transaction): every session they hold seats on is locked first, in id
 * order as `lockSeats` does (no deadlock with a booking), then each
 * registration's seats leave its session or every date of its series.
 * @throws the driver's error.
 */
export async function giveBackSeats(tx: Database, held: readonly HeldSeats[]): Promise<void> {
  if (!held.length) return;
  const sessionIds = [...new Set(held.map((row) => row.sessionId))];
  const seriesIds = [...new Set(held.flatMap((row) => (row.seriesId === null ? [] : [row.seriesId])))];
  await tx
    .select({ id: courseSessions.id })
    .from(courseSessions)
    .where(
      or(
        inArray(courseSessions.id, sessionIds),
        seriesIds.length ? inArray(courseSessions.seriesId, seriesIds) : sql`false`,
      ),
    )
    .orderBy(asc(courseSessions.id))
    .for("update");
  for (const row of held) {
    await tx
      .update(courseSessions)
      .set({ seatsTaken: sql`${courseSessions.seatsTaken} - ${row.seats}` })
      .where(row.seriesId === null ? eq(courseSessions.id, row.sessionId) : eq(courseSessions.seriesId, row.seriesId));
  }
}

/** What the mails say of the group's dates: every date of a series, nothing more for a single session. */
export const lessonsOf = (group: SeatGroup) => (group.seriesId === null ? undefined : group.lessons);

/** The dates of a series still held (not cancelled), by start. */
export function seriesLessons<T extends Pick<SessionRow, "startsAt" | "cancelledAt">>(sessions: readonly T[]): T[] {
  return sessions
    .filter((session) => !session.cancelledAt)
    .sort((a, b) => new Date(a.startsAt).getTime() - new Date(b.startsAt).getTime());
}
