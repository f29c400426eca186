/**
 * Offers of a freed seat (issue 30, item 1; decision 049). When seats are
 * free and not held while people wait, the first who fit (`pickOffers`: a
 * couple is offered 2 seats or none) are offered them: a row of
 * `course_offers` held until `holdEnd` (Réglages' hours, never past the
 * course's start minus 2 hours), a mail with « Je prends la place » and
 * « Je ne peux plus » (purpose `course-offer` tokens), or, without an
 * e-mail, a line on the session's desk page for the owner to call.
 *
 * Every change happens under the group's locks (`lockSeats`), so two
 * processes, two clicks or a click and the expiry job never both act:
 * the second finds the offer closed.
 *
 * - `offerSeats(tx, group, now)`: in a transaction holding the locks, after seats freed (or anything changed).
 * - `acceptOffer`, `declineOffer` (her link), `findOfferByToken` (its page).
 * - `giveSeat` (the owner's hand, which wins over open offers), `declineOfferByOwner` (a call answered no).
 * - `offerSeatsOf(db, sessionId, options)`: the same in a transaction of its own (the owner changed the seats).
 * - `runOfferJob(db, now, options)`: expires due offers and offers what is free (the timer, app/courses/offer-job.server.ts).
 * - `offersOf(db, sessionId)`: the desk's list.
 */
import { and, asc, desc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseOffers, courseRegistrations, courseSessions, type OfferState } from "~/db/schema";
import { enqueueMail } from "~/mail/enqueue.server";
import { readSiteSettings } from "~/settings/site.server";
import { readToken, issueToken } from "~/tokens/tokens.server";
import { offerPath } from "./links";
import { BOOKING_MAIL } from "./mails.server";
import { offerMail } from "./offer-mails.server";
import { holdEnd, OFFER_TOKEN_PURPOSE, offersToWithdraw, pickOffers } from "./offer-rules";
import {
  attendeeOf,
  courseTitle,
  peopleOf,
  recipientsOf,
  tokenExpiry,
  toCall,
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
function openOffers(tx: Database, anchorId: number): Promise<OfferRow[]> {
  return tx
    .select()
    .from(courseOffers)
    .where(and(eq(courseOffers.sessionId, anchorId), eq(courseOffers.state, "open")))
    .orderBy(asc(courseOffers.id));
}

/** Closes `offers` still open as `state` at `now`. @returns the rows it closed (none already closed). */
async function closeOffers(
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
async function leaveList(tx: Database, ids: readonly number[], now: Date): Promise<void> {
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
 * the row, its token, and a mail to each of the attendee and the relative
 * who has an e-mail (none: the owner's call list, the desk page).
 */
async function makeOffer(
  tx: Database,
  group: SeatGroup,
  registration: RegistrationRow,
  until: Date,
  options: LinkOptions & { now: Date },
): Promise<void> {
  const recipients = recipientsOf(registration);
  const [offer] = await tx
    .insert(courseOffers)
    .values({
      registrationId: registration.id,
      sessionId: group.anchor.id,
      seats: registration.seats,
      channel: recipients.length ? "mail" : "call",
      offeredAt: options.now.toISOString(),
      holdUntil: until.toISOString(),
    })
    .returning();
  if (!recipients.length) return;
  const token = await issueToken(tx, {
    purpose: OFFER_TOKEN_PURPOSE,
    subject: String(offer!.id),
    expiresAt: tokenExpiry(group),
  });
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
          offerUrl: `${options.siteUrl}${offerPath(token)}`,
        }),
      }),
    );
  }
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
    if (offer.state === "open" && new Date(offer.holdUntil).getTime() <= now.getTime()) {
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
async function expireOffers(
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

/** What one run of the offer job did. */
export interface OfferJobRun {
  /** Offers whose hold ended: closed, their people off the list. */
  expired: number;
  /** New offers made (after an expiry, or seats found free while people wait). */
  offered: number;
}

/**
 * One run at `now`, on every process (each group in a transaction of its
 * own, under its locks: two processes never both expire or offer): every
 * open offer whose hold ended by `now` expires and the seat goes to the
 * next; then each group where seats are free and not held while someone
 * waits without an offer (a seat freed by an erasure, seats raised), or
 * holds more than it has free (seats lowered), is brought in line
 * (`offerSeats`). What fell due while the server was down runs at the first
 * run after start.
 * @throws the driver's error (the groups done before stay done).
 */
export async function runOfferJob(db: Database, now: Date, options: Omit<LinkOptions, "now">): Promise<OfferJobRun> {
  const run: OfferJobRun = { expired: 0, offered: 0 };
  const due = await db
    .selectDistinct({ sessionId: courseOffers.sessionId })
    .from(courseOffers)
    .where(and(eq(courseOffers.state, "open"), lte(courseOffers.holdUntil, now.toISOString())));
  for (const { sessionId } of due) {
    await db.transaction(async (tx) => {
      const group = await lockSeats(tx, sessionId);
      if (!group) return;
      const offers = await tx
        .select()
        .from(courseOffers)
        .where(
          and(
            eq(courseOffers.sessionId, sessionId),
            eq(courseOffers.state, "open"),
            lte(courseOffers.holdUntil, now.toISOString()),
          ),
        );
      const done = await expireOffers(tx, group, offers, { ...options, now });
      run.expired += done.expired;
      run.offered += done.offered;
    });
  }
  for (const sessionId of await groupsOutOfLine(db, now))
    run.offered += await offerSeatsOf(db, sessionId, { ...options, now });
  return run;
}

/**
 * `offerSeats` for session `sessionId`'s group in a transaction of its own
 * (after the owner changed its seats: more free, or fewer than held).
 * @returns how many offers it made. @throws the driver's error.
 */
export async function offerSeatsOf(db: Database, sessionId: number, options: LinkOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const group = await lockSeats(tx, sessionId);
    return group ? offerSeats(tx, group, options) : 0;
  });
}

/**
 * The anchors of groups not yet begun whose free seats (read without locks:
 * `offerSeats` decides under them) differ from what their open offers
 * hold: more free while someone waits without an offer, or fewer.
 */
async function groupsOutOfLine(db: Database, now: Date): Promise<number[]> {
  const rows = await db.execute(sql`
    with anchors as (
      select distinct r.session_id as id from course_registrations r where r.status = 'waiting'
      union
      select distinct o.session_id from course_offers o where o.state = 'open'
    ), groups as (
      select a.id,
        (select min(s.capacity - s.seats_taken) from course_sessions s
          where s.id = a.id or (x.series_id is not null and s.series_id = x.series_id)) as free,
        (select coalesce(sum(o.seats), 0) from course_offers o where o.session_id = a.id and o.state = 'open') as held,
        exists (select 1 from course_registrations r where r.session_id = a.id and r.status = 'waiting'
          and not exists (select 1 from course_offers o where o.registration_id = r.id and o.state = 'open')) as unoffered
      from anchors a join course_sessions x on x.id = a.id
      where (x.series_id is null and x.cancelled_at is null and x.starts_at > ${now.toISOString()}::timestamptz)
        or (x.series_id is not null and (select min(s.starts_at) from course_sessions s
          where s.series_id = x.series_id and s.cancelled_at is null) > ${now.toISOString()}::timestamptz)
    )
    select id from groups where (free > held and unoffered) or held > free order by id`);
  return (rows as unknown as { rows: { id: string | number }[] }).rows.map((row) => Number(row.id));
}

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
  channel: "mail" | "call";
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
