/**
 * Attendance certificates and the signature list (issue 31, item 3;
 * decision 050), read from the attendance ticks (app/courses/attendance.server.ts)
 * when printed, never stored.
 *
 * - `certificatesOf(db, sessionId, which)`: for a session, or the series
 *   its date belongs to, one certificate per confirmed registration marked
 *   « présent » on at least one date (`which`: ids, or "all"): the
 *   person's name, the course, the dates attended in words, their hours,
 *   the place(s).
 * - `signatureListOf(db, sessionId)`: the confirmed registrants' names and
 *   every held date, for the list a group signs on each date.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseAttendance } from "~/db/schema";
import { listRegistrations } from "~/courses/registrations.server";
import { courseBySlug, getSession, seriesSessions, sessionEnd } from "~/courses/sessions.server";
import { formatDateTimeRange } from "~/utils/format";

/** One person's certificate. */
export interface Certificate {
  registrationId: number;
  name: string;
  course: string;
  /** The dates attended, in words (« mardi 2 mars 2027, 14 h 00 – 16 h 00 »), in order. */
  dates: string[];
  /** Their total time: « 6 heures », « 4 h 30 ». */
  hours: string;
  /** Where: « Salle communale, Rue du Lac 3, 1800 Vevey » (places joined by « ; » when they changed). */
  place: string;
}

/** A duration in minutes the Swiss French way: « 1 heure », « 6 heures », « 4 h 30 », « 45 minutes ». */
export function hoursInWords(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} minutes`;
  if (rest === 0) return `${hours} heure${hours > 1 ? "s" : ""}`;
  return `${hours}\u00a0h\u00a0${String(rest).padStart(2, "0")}`;
}

/** The session `sessionId` and its dates (the series' when it is one of its dates), in order. */
async function datesOf(db: Database, sessionId: number) {
  const session = await getSession(db, sessionId);
  if (!session) return null;
  const dates = session.seriesId === null ? [session] : await seriesSessions(db, [session.seriesId]);
  dates.sort((a, b) => new Date(a.startsAt).getTime() - new Date(b.startsAt).getTime());
  return { session, dates, course: courseBySlug(session.courseId)?.title ?? session.courseId };
}

/**
 * The certificates of session `sessionId` (a date of a series: the
 * series'), for the confirmed registrations `which` marked present at least
 * once, in arrival order.
 * @returns null when there is no such session. @throws the driver's error.
 */
export async function certificatesOf(
  db: Database,
  sessionId: number,
  which: readonly number[] | "all",
): Promise<Certificate[] | null> {
  const found = await datesOf(db, sessionId);
  if (!found) return null;
  const registrations = (await listRegistrations(db, sessionId)).filter(
    (row) => row.status === "confirmed" && (which === "all" || which.includes(row.id)),
  );
  if (registrations.length === 0) return [];
  const present = await db
    .select({ registrationId: courseAttendance.registrationId, sessionId: courseAttendance.sessionId })
    .from(courseAttendance)
    .where(
      and(
        inArray(
          courseAttendance.registrationId,
          registrations.map((row) => row.id),
        ),
        eq(courseAttendance.state, "present"),
      ),
    );
  return registrations.flatMap((row) => {
    const attended = found.dates.filter((date) =>
      present.some((tick) => tick.registrationId === row.id && tick.sessionId === date.id),
    );
    if (attended.length === 0) return [];
    return [
      {
        registrationId: row.id,
        name: `${row.firstName} ${row.lastName}`,
        course: found.course,
        dates: attended.map((date) => formatDateTimeRange(date.startsAt, sessionEnd(date))),
        hours: hoursInWords(attended.reduce((sum, date) => sum + date.durationMinutes, 0)),
        place: [...new Set(attended.map((date) => `${date.placeName}, ${date.placeAddress}`))].join(" ; "),
      },
    ];
  });
}

/** What the signature list prints: the course, each held date and its place, and the names. */
export interface SignatureList {
  course: string;
  dates: { when: string; place: string }[];
  names: string[];
}

/**
 * The signature list of session `sessionId` (a date of a series: every
 * held date of the series): the confirmed registrants' names, a seat for
 * two counted once (the second person signs on the blank line below).
 * @returns null when there is no such session. @throws the driver's error.
 */
export async function signatureListOf(db: Database, sessionId: number): Promise<SignatureList | null> {
  const found = await datesOf(db, sessionId);
  if (!found) return null;
  const registrations = (await listRegistrations(db, sessionId)).filter((row) => row.status === "confirmed");
  return {
    course: found.course,
    dates: found.dates
      .filter((date) => date.cancelledAt === null)
      .map((date) => ({
        when: formatDateTimeRange(date.startsAt, sessionEnd(date)),
        place: `${date.placeName}, ${date.placeAddress}`,
      })),
    names: registrations.map((row) => `${row.firstName} ${row.lastName}${row.seats > 1 ? " (2 places)" : ""}`),
  };
}
