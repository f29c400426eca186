/**
 * The rules of an offer of a freed seat (decision 049), without the
 * database: how long it is held (`holdEnd`), whom it goes to
 * (`pickOffers`), which open offers give way when there are fewer seats
 * than held (`offersToWithdraw`), an offer's state at a moment (`offerStateAt`),
 * and their French words (`OFFER_STATE_LABELS`).
 */
import type { OfferState } from "~/db/schema";

/** The purpose of an offer's link token (`link_tokens.purpose`; its subject is the offer's id). */
export const OFFER_TOKEN_PURPOSE = "course-offer";

/** A hold never ends later than this before the course's first date still held: 2 hours. */
export const OFFER_MARGIN_MS = 2 * 60 * 60 * 1000;
/** A hold shorter than this is not worth a mail (nobody answers in time): 1 hour; the owner gives the seat by hand. */
export const OFFER_MIN_HOLD_MS = 60 * 60 * 1000;

/**
 * When an offer made at `now` stops holding its seat: `holdHours` later,
 * but never past `firstStart` minus `OFFER_MARGIN_MS`.
 * @returns null when that leaves less than `OFFER_MIN_HOLD_MS` (too close to the course: no offer).
 */
export function holdEnd(now: Date, holdHours: number, firstStart: Date | string): Date | null {
  const latest = new Date(firstStart).getTime() - OFFER_MARGIN_MS;
  const end = Math.min(now.getTime() + holdHours * 60 * 60 * 1000, latest);
  return end - now.getTime() >= OFFER_MIN_HOLD_MS ? new Date(end) : null;
}

/** A registration of the waiting list, as the offer rules see it. */
export interface WaitingEntry {
  id: number;
  /** 1, or 2 for a couple: offered together or not at all. */
  seats: number;
  /** Whether an offer to it is open already. */
  offered: boolean;
}

/**
 * Who is offered seats when `available` seats are free and not held:
 * the waiting list in arrival order (`id`), skipping those already offered
 * and those asking for more seats than are left (a couple is offered 2
 * seats or none: with one seat left, the next single person gets it and the
 * couple keeps its place for when 2 are free).
 * @returns the entries to offer, in order.
 */
export function pickOffers<T extends WaitingEntry>(waiting: readonly T[], available: number): T[] {
  const picked: T[] = [];
  let left = available;
  for (const entry of [...waiting].sort((a, b) => a.id - b.id)) {
    if (left <= 0) break;
    if (entry.offered || entry.seats > left) continue;
    picked.push(entry);
    left -= entry.seats;
  }
  return picked;
}

/** An open offer, as the withdrawal rule sees it. */
export interface OpenOffer {
  id: number;
  seats: number;
}

/**
 * The open offers that give way when only `free` seats remain for them
 * (the owner lowered the seats, or gave a seat by hand): the latest first,
 * until the rest fit.
 */
export function offersToWithdraw<T extends OpenOffer>(open: readonly T[], free: number): T[] {
  const withdrawn: T[] = [];
  let held = open.reduce((sum, offer) => sum + offer.seats, 0);
  for (const offer of [...open].sort((a, b) => b.id - a.id)) {
    if (held <= Math.max(free, 0)) break;
    withdrawn.push(offer);
    held -= offer.seats;
  }
  return withdrawn;
}

/**
 * An offer's state at `now`: an open offer whose hold has ended (`holdUntil`, ISO) is expired,
 * whether or not the timer's job has closed it yet; any other state as stored.
 */
export function offerStateAt(offer: { state: OfferState; holdUntil: string }, now: Date): OfferState {
  return offer.state === "open" && new Date(offer.holdUntil).getTime() <= now.getTime() ? "expired" : offer.state;
}

/** An offer's state as the desk says it. */
export const OFFER_STATE_LABELS: Record<OfferState, string> = {
  open: "proposée",
  accepted: "acceptée",
  declined: "refusée",
  expired: "expirée (sans réponse)",
  withdrawn: "retirée",
};

/** What the page says when the offer was closed before this answer. */
export const CLOSED_OFFER_WORDS: Record<Exclude<OfferState, "open">, string> = {
  accepted: "Cette place est déjà à vous : votre inscription est confirmée.",
  declined: "Vous avez déjà laissé cette place : vous n’êtes plus sur la liste d’attente.",
  expired:
    "Le délai pour répondre est passé : la place a été proposée à la personne suivante de la liste d’attente, et votre inscription sur la liste a pris fin.",
  withdrawn: "Cette place n’est plus disponible : rien n’a été changé.",
};
