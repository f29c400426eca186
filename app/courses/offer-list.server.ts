/**
 * The desk's list of a session's offers (`offersOf`): to whom, how many
 * seats, by which channel, held until when, and how each ended.
 */
import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseOffers, courseRegistrations, type OfferChannel, type OfferState } from "~/db/schema";
import { toCall } from "./registrants.server";

/** One line of the desk's list of offers of a session. */
export interface OfferLine {
  id: number;
  registrationId: number;
  /** The attendee's name. */
  name: string;
  /** The telephone to call (the relative's when a relative registered them). */
  phone: string;
  seats: number;
  state: OfferState;
  channel: OfferChannel;
  offeredAt: string;
  holdUntil: string;
  closedAt: string | null;
  closedBy: string | null;
}

/** The offers of session `sessionId`'s group (a date of a series: the series'), newest first. @throws the driver's error. */
export async function offersOf(db: Database, sessionId: number): Promise<OfferLine[]> {
  const rows = await db
    .select({ offer: courseOffers, registration: courseRegistrations })
    .from(courseOffers)
    .innerJoin(courseRegistrations, eq(courseRegistrations.id, courseOffers.registrationId))
    .where(
      sql`${courseOffers.sessionId} = coalesce((select min(s.id) from course_sessions s where s.series_id = (select series_id from course_sessions where id = ${sessionId})), ${sessionId})`,
    )
    .orderBy(desc(courseOffers.id));
  return rows.map(({ offer, registration }) => ({
    id: offer.id,
    registrationId: offer.registrationId,
    ...toCall(registration),
    seats: offer.seats,
    state: offer.state,
    channel: offer.channel,
    offeredAt: offer.offeredAt,
    holdUntil: offer.holdUntil,
    closedAt: offer.closedAt,
    closedBy: offer.closedBy,
  }));
}
