/**
 * Attendance (issue 22, item 2): on each date the owner ticks, for each
 * confirmed registration, présent, absent or excusé (`course_attendance`,
 * one row per registration and date; no row: not ticked yet). A date of a
 * series lists the series' registrations (each holds a seat on every date).
 *
 * The states and their French words are in attendance.ts (the list's page uses them too).
 * - `attendanceOf(db, sessionId)`: what was ticked on one date.
 * - `markAttendance(db, sessionId, marks, now)`: saves the ticks of one date.
 * - `attendanceByRegistration(db, ids)`: each registration's dates and
 *   ticks, for the person's page and the CSV.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseAttendance, courseSessions } from "~/db/schema";
import { ATTENDANCE_LABELS, ATTENDANCE_STATES, type AttendanceState } from "./attendance";
import { formatDateTime } from "~/utils/format";
import { listRegistrations } from "./registrations.server";

/** Whether `value` is a state the owner may tick. */
export const isAttendanceState = (value: unknown): value is AttendanceState =>
  typeof value === "string" && (ATTENDANCE_STATES as readonly string[]).includes(value);

/** What was ticked on date `sessionId`, by registration id. @throws the driver's error. */
export async function attendanceOf(db: Database, sessionId: number): Promise<Map<number, AttendanceState>> {
  const rows = await db
    .select({ registrationId: courseAttendance.registrationId, state: courseAttendance.state })
    .from(courseAttendance)
    .where(eq(courseAttendance.sessionId, sessionId));
  return new Map(rows.map((row) => [row.registrationId, row.state]));
}

/** One tick: registration `registrationId` was `state` on the date. */
export interface AttendanceMark {
  registrationId: number;
  state: AttendanceState;
}

/**
 * Saves the ticks of date `sessionId` (a tick changed replaces the former
 * one). Only the registrations confirmed on that date count; others are
 * left out (a form posted after a cancellation).
 * @returns how many ticks were saved per state. @throws the driver's error.
 */
export async function markAttendance(
  db: Database,
  sessionId: number,
  marks: readonly AttendanceMark[],
  now = new Date(),
): Promise<Record<AttendanceState, number>> {
  const confirmed = new Set(
    (await listRegistrations(db, sessionId)).filter((row) => row.status === "confirmed").map((row) => row.id),
  );
  const kept = marks.filter((mark) => confirmed.has(mark.registrationId));
  const counts: Record<AttendanceState, number> = { present: 0, absent: 0, excused: 0 };
  if (kept.length === 0) return counts;
  await db
    .insert(courseAttendance)
    .values(kept.map((mark) => ({ ...mark, sessionId, updatedAt: now.toISOString() })))
    .onConflictDoUpdate({
      target: [courseAttendance.registrationId, courseAttendance.sessionId],
      set: { state: sql`excluded.state`, updatedAt: sql`excluded.updated_at` },
    });
  for (const mark of kept) counts[mark.state] += 1;
  return counts;
}

/** A registration's tick on one date. */
export interface DateAttendance {
  sessionId: number;
  /** "mardi 12 janvier 2027, 14 h 00" (the date's start, `formatDateTime`). */
  when: string;
  state: AttendanceState;
}

/**
 * The ticks of registrations `ids`, by registration id, each list by date.
 * @throws the driver's error.
 */
export async function attendanceByRegistration(
  db: Database,
  ids: readonly number[],
): Promise<Map<number, DateAttendance[]>> {
  const byRegistration = new Map<number, DateAttendance[]>();
  if (ids.length === 0) return byRegistration;
  const rows = await db
    .select({
      registrationId: courseAttendance.registrationId,
      sessionId: courseAttendance.sessionId,
      state: courseAttendance.state,
      startsAt: courseSessions.startsAt,
    })
    .from(courseAttendance)
    .innerJoin(courseSessions, eq(courseSessions.id, courseAttendance.sessionId))
    .where(inArray(courseAttendance.registrationId, [...new Set(ids)]))
    .orderBy(asc(courseSessions.startsAt));
  for (const row of rows) {
    const list = byRegistration.get(row.registrationId) ?? [];
    list.push({ sessionId: row.sessionId, when: formatDateTime(row.startsAt), state: row.state });
    byRegistration.set(row.registrationId, list);
  }
  return byRegistration;
}

/** A registration's ticks in words: "mardi 12 janvier 2027, 14 h 00 : présent(e) ; …", or "(pas encore notée)". */
export function attendanceText(ticks: readonly DateAttendance[] | undefined): string {
  if (!ticks?.length) return "(pas encore notée)";
  return ticks.map((tick) => `${tick.when} : ${ATTENDANCE_LABELS[tick.state].toLowerCase()}`).join(" ; ");
}
