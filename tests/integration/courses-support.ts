/**
 * What the course registration tests share: a session, a registration
 * posted as a browser without JavaScript posts it, and the check that 8 seats
 * were taken and the rest wait in arrival order.
 */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { zurichToUtc } from "../../app/courses/sessions.server";
import { type Database } from "../../app/db/client.server";
import { courseRegistrations, courseSessions } from "../../app/db/schema";
import { sessionFields, postBooking } from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";

export const session = (startsAt = zurichToUtc(`${COURSE_YEAR}-01-12`, "14:00"), capacity = 8) =>
  sessionFields({ startsAt, capacity });

/** POSTs a registration as a browser without JavaScript; the answer is not followed. */
export const register = (baseUrl: string, form: Record<string, string>, slug = "securite") =>
  postBooking(baseUrl, slug, form);

/** Registrations of a session in id order: status and last name. */
export async function rowsOf(db: Database, sessionId: number) {
  return db
    .select({ id: courseRegistrations.id, status: courseRegistrations.status, lastName: courseRegistrations.lastName })
    .from(courseRegistrations)
    .where(eq(courseRegistrations.sessionId, sessionId))
    .orderBy(courseRegistrations.id);
}

/**
 * Checks the outcome of 50 concurrent registrations: 8 confirmed then 42
 * waiting in id order (the order the session's lock was granted), each
 * waiting person's page showing their position, and seats_taken 8.
 */
export async function expectEightSeatsAndAWaitingList(
  db: Database,
  sessionId: number,
  answers: Response[],
  urls: string[],
) {
  expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(303));
  const rows = await rowsOf(db, sessionId);
  expect(rows.map((row) => row.status)).toEqual([...Array(8).fill("confirmed"), ...Array(42).fill("waiting")]);
  const [row] = await db.select().from(courseSessions).where(eq(courseSessions.id, sessionId));
  expect(row!.seatsTaken).toBe(8);
  // The position each waiting person is shown follows the arrival order.
  const byName = new Map(rows.map((entry, index) => [entry.lastName, index]));
  for (const [n, answer] of answers.entries()) {
    const index = byName.get(`Dupont ${n}`)!;
    if (index < 8) continue;
    const page = await fetch(`${urls[n % urls.length]}${answer.headers.get("location")}`).then((res) => res.text());
    expect(page).toContain("Vous êtes sur la liste d’attente");
    expect(page).toContain(`position <strong>${index - 7}</strong>`);
  }
}
