/**
 * Reading registrations: by link token (the confirmation page and the
 * calendar file), and a session's list for the desk.
 */
import { asc, eq, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseRegistrations, courseSessions } from "~/db/schema";
import { readToken } from "~/tokens/tokens.server";
import { REGISTRATION_TOKEN_PURPOSE, type RegistrationRow } from "./registrants.server";
import { seriesLessons } from "./seats.server";
import type { SessionRow } from "./sessions.server";
import { waitingPosition } from "./waiting-list.server";

/**
 * A registration opened by its link: the row, its session (a series' first
 * session), its dates (`lessons`: every date of its series still held, by
 * start; the session alone for a single date), and its waiting position
 * (null unless waiting).
 */
export interface RegistrationByToken {
  registration: RegistrationRow;
  session: SessionRow;
  lessons: SessionRow[];
  position: number | null;
}

/**
 * The registration whose link token is `token`, while the link is valid at
 * `now` (`readToken`: reading changes nothing, so the page and the calendar
 * file open as often as they are followed).
 * @returns undefined for an unknown, tampered or expired link, or one whose registration was erased.
 * @throws the driver's error.
 */
export async function findRegistrationByToken(
  db: Database,
  token: string,
  now = new Date(),
): Promise<RegistrationByToken | undefined> {
  const link = await readToken(db, { purpose: REGISTRATION_TOKEN_PURPOSE, token, now });
  if (!link) return undefined;
  const [row] = await db
    .select({ registration: courseRegistrations, session: courseSessions })
    .from(courseRegistrations)
    .innerJoin(courseSessions, eq(courseSessions.id, courseRegistrations.sessionId))
    .where(eq(courseRegistrations.id, Number(link.subject)));
  if (!row) return undefined;
  const position =
    row.registration.status === "waiting" ? await waitingPosition(db, row.session.id, row.registration.id) : null;
  const lessons =
    row.session.seriesId === null
      ? [row.session]
      : seriesLessons(await db.select().from(courseSessions).where(eq(courseSessions.seriesId, row.session.seriesId)));
  return { ...row, lessons, position };
}

/** Whether every date of the registration's session or series is cancelled (nothing left to attend). */
export function everyDateCancelled({ session, lessons }: Pick<RegistrationByToken, "session" | "lessons">): boolean {
  return session.seriesId === null ? session.cancelledAt !== null : lessons.length === 0;
}

/**
 * A session's registrations (confirmed, waiting, cancelled) in arrival
 * order, for the desk: for a date of a series, the series' registrations
 * (each holds a seat on every date).
 */
export async function listRegistrations(db: Database, sessionId: number): Promise<RegistrationRow[]> {
  return db
    .select()
    .from(courseRegistrations)
    .where(
      or(
        eq(courseRegistrations.sessionId, sessionId),
        sql`${courseRegistrations.seriesId} = (select s.series_id from course_sessions s where s.id = ${sessionId})`,
      ),
    )
    .orderBy(asc(courseRegistrations.id));
}
