/**
 * The « à appeler » list of a session (issue 33, item 2; `course_calls`):
 * when the owner moves or cancels a date, each registration without e-mail
 * is one call to make, kept on that date's desk page until the owner ticks
 * « appelé·e » (the time is kept). The desk's badges count the calls still
 * to make (app/desk/live.server.ts).
 *
 * - `addCalls(tx, sessionId, registrationIds, reason)`: in the change's transaction.
 * - `callsOf(db, sessionId)`: the list, in order, with name and telephone as the registration holds them now.
 * - `markCalled(db, sessionId, callId, now)`: the tick; false when there is no such call still to make.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseCalls, courseRegistrations, type CallReason } from "~/db/schema";
import { toCall } from "./registrants.server";

/** What the owner tells the person, in the list's words. */
export const CALL_REASON_LABELS: Record<CallReason, string> = {
  moved: "la date ou le lieu a changé",
  cancelled: "la séance est annulée",
};

/** Records one call to make per registration of `registrationIds`, about session `sessionId`. @throws the driver's error. */
export async function addCalls(
  tx: Database,
  sessionId: number,
  registrationIds: readonly number[],
  reason: CallReason,
  now = new Date(),
): Promise<void> {
  if (registrationIds.length === 0) return;
  await tx
    .insert(courseCalls)
    .values(
      registrationIds.map((registrationId) => ({ sessionId, registrationId, reason, createdAt: now.toISOString() })),
    );
}

/** One line of a session's call list. */
export interface CallLine {
  id: number;
  /** The attendee's name. */
  name: string;
  /** The telephone to call: the relative's when a relative registered them. */
  phone: string;
  reason: CallReason;
  createdAt: string;
  /** When the owner ticked « appelé·e »; null while still to call. */
  calledAt: string | null;
}

/** The call list of session `sessionId`, oldest first. @throws the driver's error. */
export async function callsOf(db: Database, sessionId: number): Promise<CallLine[]> {
  const rows = await db
    .select({ call: courseCalls, registration: courseRegistrations })
    .from(courseCalls)
    .innerJoin(courseRegistrations, eq(courseRegistrations.id, courseCalls.registrationId))
    .where(eq(courseCalls.sessionId, sessionId))
    .orderBy(asc(courseCalls.id));
  return rows.map(({ call, registration }) => ({
    id: call.id,
    ...toCall(registration),
    reason: call.reason,
    createdAt: call.createdAt,
    calledAt: call.calledAt,
  }));
}

/**
 * Ticks call `callId` of session `sessionId` « appelé·e » at `now`.
 * @returns false when the session has no such call still to make. @throws the driver's error.
 */
export async function markCalled(db: Database, sessionId: number, callId: number, now = new Date()): Promise<boolean> {
  const updated = await db
    .update(courseCalls)
    .set({ calledAt: now.toISOString() })
    .where(and(eq(courseCalls.id, callId), eq(courseCalls.sessionId, sessionId), isNull(courseCalls.calledAt)))
    .returning({ id: courseCalls.id });
  return updated.length > 0;
}
