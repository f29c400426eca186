/**
 * The owner's hand on offers, from a session's desk page: « Donner la
 * place » (`giveSeat`, which wins over open offers) and a call answered
 * « je ne peux plus » (`declineOfferByOwner`). Both under the group's
 * locks, like every change to an offer (offers.server.ts).
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseOffers, courseRegistrations } from "~/db/schema";
import { offersToWithdraw } from "./offer-rules";
import { closeOffers, leaveList, offerSeats, openOffers } from "./offers.server";
import type { LinkOptions } from "./registrants.server";
import { freeSeats, lockSeats } from "./seats.server";
import { confirmWaiting } from "./waiting-list.server";

/**
 * The owner gives a free seat to a person of the waiting list (« Donner la
 * place »): the owner's hand wins over open offers. Her own open offer
 * closes as accepted; when the seats free but held for others are not
 * enough, the latest of their offers are withdrawn (they stay on the list).
 * Whoever of them has an e-mail gets "une place pour vous" with the
 * calendar file, and the reminders are queued.
 * @returns false when the person is not waiting or there are not enough free seats. @throws the driver's error.
 */
export async function giveSeat(db: Database, registrationId: number, options: LinkOptions): Promise<boolean> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const [found] = await tx.select().from(courseRegistrations).where(eq(courseRegistrations.id, registrationId));
    if (!found || found.status !== "waiting") return false;
    const group = (await lockSeats(tx, found.sessionId))!;
    const [waiting] = await tx.select().from(courseRegistrations).where(eq(courseRegistrations.id, registrationId));
    const free = freeSeats(group);
    const closed = group.seriesId === null ? group.anchor.cancelledAt : !group.lessons.length;
    if (!waiting || waiting.status !== "waiting" || free < waiting.seats || closed) return false;
    const open = await openOffers(tx, group.anchor.id);
    const own = open.filter((offer) => offer.registrationId === waiting.id);
    const others = open.filter((offer) => offer.registrationId !== waiting.id);
    await closeOffers(tx, own, "accepted", "owner", now);
    await closeOffers(tx, offersToWithdraw(others, free - waiting.seats), "withdrawn", "owner", now);
    await confirmWaiting(tx, group, waiting, { ...options, now }, "seat-given");
    return true;
  });
}

/**
 * The owner called a person offered a seat without e-mail and she cannot
 * come: her open offer `offerId` (of the page of session `sessionId`, or
 * of a date of its series) closes as declined, she leaves the list and
 * the seat goes to the next.
 * @returns false when there is no such open offer. @throws the driver's error.
 */
export async function declineOfferByOwner(
  db: Database,
  offerId: number,
  sessionId: number,
  options: LinkOptions,
): Promise<boolean> {
  const now = options.now ?? new Date();
  const [found] = await db.select().from(courseOffers).where(eq(courseOffers.id, offerId));
  if (!found) return false;
  return db.transaction(async (tx) => {
    const group = await lockSeats(tx, found.sessionId);
    if (!group?.sessions.some((session) => session.id === sessionId)) return false;
    const closed = await closeOffers(tx, [found], "declined", "owner", now);
    if (!closed.length) return false;
    await leaveList(tx, [found.registrationId], now);
    await offerSeats(tx, group, { ...options, now });
    return true;
  });
}
