/**
 * The « à appeler » list of a session (issue 33, item 2; `course_calls`):
 * each message that reaches a person by no other channel is one call to
 * make, kept on that date's desk page until the owner ticks « appelé·e »
 * (the time is kept): the owner moved or cancelled a date, a freed seat is
 * offered (issue 30: no e-mail, no SMS; the line shows the hold's end), or
 * the per-number daily cap held the SMS meant for her (`smsHeld`, decision
 * 060). The desk's badges count the calls still to make
 * (app/desk/live.server.ts).
 *
 * - `addCalls(tx, sessionId, registrationIds, reason, now, about)`: in the change's transaction.
 * - `callsOf(db, sessionId)`: the list, in order, with name and telephone as the registration holds them now.
 * - `markCalled(db, sessionId, callId, now)`: the tick; false when there is no such call still to make.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseCalls, courseOffers, courseRegistrations, type CallReason, type OfferState } from "~/db/schema";
import { toCall } from "./registrants.server";

/** What the owner tells the person, in the list's words. */
export const CALL_REASON_LABELS: Record<CallReason, string> = {
  moved: "la date ou le lieu a changé",
  cancelled: "la séance est annulée",
  offer: "une place s’est libérée pour elle : la prend-elle ?",
  reminder: "rappel du cours",
};

/** What a call is about beyond its reason: the offer (reason `offer`), and whether the SMS cap held a message. */
export interface CallAbout {
  offerId?: number;
  smsHeld?: boolean;
}

/** Records one call to make per registration of `registrationIds`, about session `sessionId`. @throws the driver's error. */
export async function addCalls(
  tx: Database,
  sessionId: number,
  registrationIds: readonly number[],
  reason: CallReason,
  now = new Date(),
  { offerId, smsHeld = false }: CallAbout = {},
): Promise<void> {
  if (registrationIds.length === 0) return;
  await tx.insert(courseCalls).values(
    registrationIds.map((registrationId) => ({
      sessionId,
      registrationId,
      reason,
      offerId: offerId ?? null,
      smsHeld,
      createdAt: now.toISOString(),
    })),
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
  /** An offer's hold end (reason `offer`): the owner calls before it; else null. */
  holdUntil: string | null;
  /** The offer's state as stored (reason `offer`; an open one past its hold is expired all the same); else null. */
  offerState: OfferState | null;
  /** The per-number daily cap held an SMS to the person: that is why she is on the list. */
  smsHeld: boolean;
  createdAt: string;
  /** When the owner ticked « appelé·e »; null while still to call. */
  calledAt: string | null;
}

/** The call list of session `sessionId`, oldest first. @throws the driver's error. */
export async function callsOf(db: Database, sessionId: number): Promise<CallLine[]> {
  const rows = await db
    .select({
      call: courseCalls,
      registration: courseRegistrations,
      holdUntil: courseOffers.holdUntil,
      offerState: courseOffers.state,
    })
    .from(courseCalls)
    .innerJoin(courseRegistrations, eq(courseRegistrations.id, courseCalls.registrationId))
    .leftJoin(courseOffers, eq(courseOffers.id, courseCalls.offerId))
    .where(eq(courseCalls.sessionId, sessionId))
    .orderBy(asc(courseCalls.id));
  return rows.map(({ call, registration, holdUntil, offerState }) => ({
    id: call.id,
    ...toCall(registration),
    reason: call.reason,
    holdUntil,
    offerState,
    smsHeld: call.smsHeld,
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
