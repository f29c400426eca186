/**
 * What the booking tests share (booking*.server.test.ts): a session on
 * 25 October 2026 at 14h00 (Zurich), and the n-th person's booking, each with
 * a telephone and an e-mail of their own.
 */
import type { Database } from "../../app/db/client.server";
import { sessionFields } from "./fixtures";
import type { BookingInput } from "../../app/courses/schema";
import { createSession, zurichToUtc, type SessionFields } from "../../app/courses/sessions.server";

/** The site the booking tests' links point to. */
export const BOOKING_SITE_URL = "https://cours.example.ch";

/** The booking tests' fixed clock: 1 October 2026, 10h00 in Zurich. */
export const BOOKING_NOW = new Date("2026-10-01T08:00:00Z");

/** A session of `sessionFields` on 25 October 2026, 14h00 in Zurich, with `overrides`. */
export function newSessionIn(db: Database, overrides: Partial<SessionFields> = {}) {
  return createSession(db, sessionFields({ startsAt: zurichToUtc("2026-10-25", "14:00"), ...overrides }));
}

/** The n-th person's booking of `sessionId`: one seat, a telephone and an e-mail of their own. */
export const person = (sessionId: number, n: number, extra: Partial<BookingInput> = {}): BookingInput => ({
  sessionId,
  firstName: "Marie",
  lastName: `Dupont ${n}`,
  // One telephone per person: the same telephone cannot register twice for a session.
  phone: `079 1${String(n).padStart(6, "0")}`,
  email: `marie${n}@example.ch`,
  seats: "1",
  ...extra,
});
