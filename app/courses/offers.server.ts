/**
 * Offers of a freed seat (issue 30, item 1; decision 049). When seats are
 * free and not held while people wait, the first who fit (`pickOffers`: a
 * couple is offered 2 seats or none) are offered them: a row of
 * `course_offers` held until `holdEnd` (Réglages' hours, never past the
 * course's start minus 2 hours), a mail with « Je prends la place » and
 * « Je ne peux plus » (purpose `course-offer` tokens), an SMS with the
 * offer's link when the person agreed to SMS at a mobile number (decision
 * 060), or, when neither reaches her, a line of the session's call list
 * for the owner, with the hold's end.
 *
 * Every change happens under the group's locks (`lockSeats`), so two
 * processes, two clicks or a click and the expiry job never both act:
 * the second finds the offer closed.
 *
 * - `offerSeats(tx, group, now)`: in a transaction holding the locks, after seats freed (or anything changed).
 * - `acceptOffer`, `declineOffer` (her link), `findOfferByToken` (its page).
 * - The owner's hand (`giveSeat`, `declineOfferByOwner`): offer-owner.server.ts.
 * - `expireOffers(tx, group, due, options)`: closes offers past their hold and offers their seats again.
 * - The timer's sweep (`runOfferJob`, `offerSeatsOf`): offer-job.server.ts; the desk's list (`offersOf`): offer-list.server.ts.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseOffers, courseRegistrations, courseSessions, type OfferState } from "~/db/schema";
import { enqueueMail } from "~/mail/enqueue.server";
import { readSiteSettings } from "~/settings/site.server";
import { readToken, issueToken } from "~/tokens/tokens.server";
import { offerPath } from "./links";
import { BOOKING_MAIL } from "./mails.server";
import { addCalls } from "./calls.server";
import { offerMail, offerSms } from "./offer-mails.server";
import { holdEnd, OFFER_TOKEN_PURPOSE, offerStateAt, offersToWithdraw, pickOffers } from "./offer-rules";
import {
  attendeeOf,
  courseTitle,
  peopleOf,
  recipientsOf,
  tokenExpiry,
  type LinkOptions,
  type RegistrationRow,
} from "./registrants.server";
import {
  firstStart,
  freeSeats,
  groupClosed,
  lessonsOf,
  lockSeats,
  seriesLessons,
  type SeatGroup,
} from "./seats.server";
import type { SessionRow } from "./sessions.server";
import { channelsOf, textRegistrant } from "./sms-channel.server";
import { confirmWaiting } from "./waiting-list.server";

export { OFFER_TOKEN_PURPOSE };

/** An offer row as Drizzle reads it. */
export type OfferRow = typeof courseOffers.$inferSelect;

/** The locked `group` as it stands now in the transaction (its seat counts moved since it was read). */
async function current(tx: Database, group: SeatGroup): Promise<SeatGroup> {
  const sessions = await tx
    .select()
    .from(courseSessions)
    .where(
      inArray(
        courseSessions.id,
        group.sessions.map((session) => session.id),
      ),
    )
    .orderBy(asc(courseSessions.id));
  return {
    ...group,
    anchor: sessions[0]!,
    sessions,
    lessons: group.seriesId === null ? sessions : seriesLessons(sessions),
  };
}

/** Who closed an offer. */
type ClosedBy = "person" | "owner" | "job";

/** The open offers of the group whose anchor is `anchorId`, oldest first. */
export function openOffers(tx: Database, anchorId: number): Promise<OfferRow[]> {
  return tx
    .select()
    .from(courseOffers)
    .where(and(eq(courseOffers.sessionId, anchorId), eq(courseOffers.state, "open")))
    .orderBy(asc(courseOffers.id));
}

/** Closes `offers` still open as `state` at `now`. @returns the rows it closed (none already closed). */
export async function closeOffers(
  tx: Database,
  offers: readonly Pick<OfferRow, "id">[],
  state: Exclude<OfferState, "open">,
  by: ClosedBy,
  now: Date,
): Promise<OfferRow[]> {
  if (offers.length === 0) return [];
  const ids = offers.map((offer) => offer.id);
  return tx
    .update(courseOffers)
    .set({ state, closedAt: now.toISOString(), closedBy: by })
    .where(and(inArray(courseOffers.id, ids), eq(courseOffers.state, "open")))
    .returning();
}

/** Takes the waiting registrations `ids` off the list (a declined or expired offer). */
export async function leaveList(tx: Database, ids: readonly number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(courseRegistrations)
    .set({ status: "cancelled", cancelledAt: now.toISOString() })
    .where(and(inArray(courseRegistrations.id, [...ids]), eq(courseRegistrations.status, "waiting")));
}

/** How long the owner holds a seat (Réglages), read in the transaction. */
async function holdHours(tx: Database): Promise<number> {
  return (await readSiteSettings(tx)).courses.offerHoldHours;
}

/**
 * Offers the seat(s) of the locked `group` to `registration` until `until`:
 * the row, its token, a mail to each of the attendee and the relative who
 * has an e-mail, an SMS with the offer's link when her channels say so
 * (`channelsOf`: a mobile number and her consent), and a line of the call
 * list (with the hold's end) when nothing else reaches her or the daily cap
 * held her SMS. The offer's channel: `mail`, else `sms` (one that leaves),
 * else `call`.
 */
async function makeOffer(
  tx: Database,
  group: SeatGroup,
  registration: RegistrationRow,
  until: Date,
  options: LinkOptions & { now: Date },
): Promise<void> {
  const recipients = recipientsOf(registration);
  const channels = channelsOf(registration, options.sms);
  const [offer] = await tx
    .insert(courseOffers)
    .values({
      registrationId: registration.id,
      sessionId: group.anchor.id,
      seats: registration.seats,
      channel: recipients.length ? "mail" : channels.call ? "call" : "sms",
      offeredAt: options.now.toISOString(),
      holdUntil: until.toISOString(),
    })
    .returning();
  const token =
    recipients.length || channels.sms
      ? await issueToken(tx, {
          purpose: OFFER_TOKEN_PURPOSE,
          subject: String(offer!.id),
          expiresAt: tokenExpiry(group),
        })
      : null;
  const offerUrl = `${options.siteUrl}${offerPath(token ?? "")}`;
  const mailIds: number[] = [];
  for (const { address, reader } of recipients) {
    mailIds.push(
      await enqueueMail(tx, {
        kind: BOOKING_MAIL.offer,
        recipient: address,
        people: peopleOf(registration),
        ...offerMail({
          courseTitle: courseTitle(group.anchor),
          session: group.anchor,
          lessons: lessonsOf(group),
          reader,
          attendeeName: attendeeOf(registration),
          seats: registration.seats,
          holdUntil: until,
          offerUrl,
        }),
      }),
    );
  }
  const reached = await textRegistrant(
    tx,
    registration,
    channels,
    options.sms,
    offerSms({ session: group.anchor, seats: registration.seats, codeWord: registration.codeWord, until, offerUrl }),
    options.now,
  );
  if (reached.smsId !== null) mailIds.push(reached.smsId);
  if (reached.call) {
    await addCalls(tx, group.anchor.id, [registration.id], "offer", options.now, {
      offerId: offer!.id,
      smsHeld: reached.smsHeld,
    });
    if (reached.smsHeld) await tx.update(courseOffers).set({ channel: "call" }).where(eq(courseOffers.id, offer!.id));
  }
  if (!mailIds.length) return;
  await tx
    .update(courseRegistrations)
    .set({ mailIds: sql`${courseRegistrations.mailIds} || ${`{${mailIds.join(",")}}`}::bigint[]` })
    .where(eq(courseRegistrations.id, registration.id));
}

/**
 * Brings the offers of the locked `group` in line with its seats, in the
 * caller's transaction (which holds `lockSeats`): a closed group (cancelled,
 * begun) withdraws its open offers; fewer free seats than held withdraws
 * the latest; free seats not held go to the first waiting who fit, each
 * held until `holdEnd` (none when the course is too close: the owner
 * gives the seat by hand).
 * @returns how many offers it made. @throws the driver's error.
 */
export async function offerSeats(tx: Database, locked: SeatGroup, options: LinkOptions): Promise<number> {
  const now = options.now ?? new Date();
  const group = await current(tx, locked);
  const open = await openOffers(tx, group.anchor.id);
  if (groupClosed(group, now)) {
    await closeOffers(tx, open, "withdrawn", "job", now);
    return 0;
  }
  const free = freeSeats(group);
  const withdrawn = offersToWithdraw(open, free);
  await closeOffers(tx, withdrawn, "withdrawn", "job", now);
  const held = open.filter((offer) => !withdrawn.includes(offer));
  const available = free - held.reduce((sum, offer) => sum + offer.seats, 0);
  if (available <= 0) return 0;
  const until = holdEnd(now, await holdHours(tx), firstStart(group));
  if (!until) return 0;
  const waiting = await tx
    .select()
    .from(courseRegistrations)
    .where(and(eq(courseRegistrations.sessionId, group.anchor.id), eq(courseRegistrations.status, "waiting")))
    .orderBy(asc(courseRegistrations.id));
  const offered = new Set(open.map((offer) => offer.registrationId));
  const picked = pickOffers(
    waiting.map((row) => ({ ...row, offered: offered.has(row.id) })),
    available,
  );
  for (const registration of picked) await makeOffer(tx, group, registration, until, { ...options, now });
  return picked.length;
}

/** An offer opened by its link: the offer, its registration, its session (a series' anchor) and its dates. */
export interface OfferByToken {
  offer: OfferRow;
  registration: RegistrationRow;
  session: SessionRow;
  lessons: SessionRow[];
}

/**
 * The offer whose link token is `token` (reading changes nothing).
 * @returns undefined for an unknown, tampered or expired link, or an erased registration. @throws the driver's error.
 */
export async function findOfferByToken(
  db: Database,
  token: string,
  now = new Date(),
): Promise<OfferByToken | undefined> {
  const link = await readToken(db, { purpose: OFFER_TOKEN_PURPOSE, token, now });
  if (!link) return undefined;
  const [row] = await db
    .select({ offer: courseOffers, registration: courseRegistrations, session: courseSessions })
    .from(courseOffers)
    .innerJoin(courseRegistrations, eq(courseRegistrations.id, courseOffers.registrationId))
    .innerJoin(courseSessions, eq(courseSessions.id, courseOffers.sessionId))
    .where(eq(courseOffers.id, Number(link.subject)));
  if (!row) return undefined;
  const lessons =
    row.session.seriesId === null
      ? [row.session]
      : seriesLessons(await db.select().from(courseSessions).where(eq(courseSessions.seriesId, row.session.seriesId)));
  return { ...row, lessons };
}

/** What an answer to an offer did: `accepted` (with the registration's new link), `declined`, `left` (off the list), or why nothing changed. */
export type OfferAnswer =
  | { outcome: "accepted"; token: string | null }
  | { outcome: "declined" | "left" | "not-found" | "too-late" }
  /** The offer was already closed: as it stands. */
  | { outcome: "closed"; state: Exclude<OfferState, "open"> };

/**
 * Runs `act` on the offer of link `token` under its group's locks, the
 * offer and its registration read again once locked. A hold already past
 * is expired first (the job may not have run yet): `act` sees it closed.
 */
async function underOfferLock(
  db: Database,
  token: string,
  options: LinkOptions,
  act: (
    tx: Database,
    group: SeatGroup,
    offer: OfferRow,
    registration: RegistrationRow,
    now: Date,
  ) => Promise<OfferAnswer>,
): Promise<OfferAnswer> {
  const now = options.now ?? new Date();
  const found = await findOfferByToken(db, token, now);
  if (!found) return { outcome: "not-found" };
  return db.transaction(async (tx) => {
    const group = await lockSeats(tx, found.offer.sessionId);
    const [offer] = await tx.select().from(courseOffers).where(eq(courseOffers.id, found.offer.id));
    const [registration] = await tx
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.id, found.registration.id));
    if (!group || !offer || !registration) return { outcome: "not-found" } as const;
    if (offer.state === "open" && offerStateAt(offer, now) === "expired") {
      await expireOffers(tx, group, [offer], { ...options, now });
      offer.state = "expired";
    }
    return act(tx, group, offer, registration, now);
  });
}

/**
 * Closes `due` (open offers of `group` past their hold) as expired, their
 * people off the list, and offers the seats again.
 * @returns how many it expired and how many new offers it made.
 */
export async function expireOffers(
  tx: Database,
  group: SeatGroup,
  due: readonly OfferRow[],
  options: LinkOptions & { now: Date },
): Promise<OfferJobRun> {
  const closed = await closeOffers(tx, due, "expired", "job", options.now);
  await leaveList(
    tx,
    closed.map((offer) => offer.registrationId),
    options.now,
  );
  return { expired: closed.length, offered: closed.length ? await offerSeats(tx, group, options) : 0 };
}

/**
 * After registration `registration` of the locked `group` was cancelled
 * (by the person's link or the owner), in that transaction: her open
 * offer, if any, closes as declined, and freed or unheld seats are offered.
 * @throws the driver's error.
 */
export async function offerAfterCancellation(
  tx: Database,
  group: SeatGroup,
  registration: Pick<RegistrationRow, "id">,
  by: "person" | "owner",
  options: LinkOptions,
): Promise<void> {
  const now = options.now ?? new Date();
  const [open] = await tx
    .select({ id: courseOffers.id })
    .from(courseOffers)
    .where(and(eq(courseOffers.registrationId, registration.id), eq(courseOffers.state, "open")));
  if (open) await closeOffers(tx, [open], "declined", by, now);
  await offerSeats(tx, group, { ...options, now });
}

/**
 * Withdraws the open offers of the group whose anchor is `anchorId` (the
 * owner cancelled the session, or the last date of its series), in that
 * transaction under its locks. @throws the driver's error.
 */
export async function withdrawOffers(tx: Database, anchorId: number, now: Date): Promise<void> {
  const open = await openOffers(tx, anchorId);
  await closeOffers(tx, open, "withdrawn", "job", now);
}

/**
 * « Je prends la place »: under the group's locks, an open offer within its
 * hold confirms its registration (the usual confirmation mail, the calendar
 * file, the reminders, a new link) and closes as accepted. Twenty clicks at
 * once take the seat once: the others find it `closed` (`accepted`).
 * @throws the driver's error (nothing is changed then).
 */
export function acceptOffer(db: Database, token: string, options: LinkOptions): Promise<OfferAnswer> {
  return underOfferLock(db, token, options, async (tx, group, offer, registration, now) => {
    if (offer.state !== "open") return { outcome: "closed", state: offer.state };
    if (registration.status !== "waiting") {
      await closeOffers(tx, [offer], "withdrawn", "job", now);
      return { outcome: "closed", state: "withdrawn" };
    }
    if (groupClosed(group, now)) {
      await offerSeats(tx, group, { ...options, now });
      return { outcome: "too-late" };
    }
    await closeOffers(tx, [offer], "accepted", "person", now);
    const link = await confirmWaiting(tx, group, registration, { ...options, now }, "confirmation");
    return { outcome: "accepted", token: link };
  });
}

/**
 * « Je ne peux plus »: an open offer closes as declined, the person leaves
 * the waiting list and the seat goes to the next; without an open offer, a
 * person still waiting leaves the list (`left`).
 * @throws the driver's error (nothing is changed then).
 */
export function declineOffer(db: Database, token: string, options: LinkOptions): Promise<OfferAnswer> {
  return underOfferLock(db, token, options, async (tx, group, offer, registration, now) => {
    if (offer.state === "open") {
      await closeOffers(tx, [offer], "declined", "person", now);
      await leaveList(tx, [registration.id], now);
      await offerSeats(tx, group, { ...options, now });
      return { outcome: "declined" };
    }
    if (registration.status === "waiting") {
      await leaveList(tx, [registration.id], now);
      return { outcome: "left" };
    }
    return { outcome: "closed", state: offer.state };
  });
}

/** What one run of the offer job did. */
export interface OfferJobRun {
  /** Offers whose hold ended: closed, their people off the list. */
  expired: number;
  /** New offers made (after an expiry, or seats found free while people wait). */
  offered: number;
}
