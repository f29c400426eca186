/**
 * Letters for the post (issue 31, item 1; decision 050): what a letter to
 * one registrant says, read from the database when it is printed (never
 * stored), and the days the owner marked letters as posted.
 *
 * - `lettersOf(db, sessionId, which)`: the letters of a session's confirmed
 *   registrations (`which`: ids, or "no-email": everyone without an
 *   e-mail of theirs or of the relative who registered them), each with the
 *   recipient's address, the course, every date in words, the place and
 *   its access notes, the code word, the cancellation deadline and how the
 *   course is paid (with the registration's open invoice, whose QR-bill
 *   the letter carries); and the names left out for want of an address.
 * - `saveLetterAddress(db, sessionId, registrationId, address)`: the
 *   address a letter goes to (the registration's postal columns).
 * - `markLettersSent(db, sessionId, ids, sentOn)`, `lettersSentOf(db, ids)`.
 * - `letterSender(context)`: the owner as a letter shows them (Réglages).
 */
import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import { paymentSentence } from "~/content/payment";
import type { RequestContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { courseRegistrations, invoices, postalLetters } from "~/db/schema";
import { listRegistrations } from "~/courses/registrations.server";
import type { RegistrationRow } from "~/courses/registrants.server";
import { courseBySlug, getSession, seriesSessions, sessionEnd } from "~/courses/sessions.server";
import type { Invoice } from "~/invoices/invoices.server";
import { paperChf, type Sender } from "~/paper/layout.server";
import { getSiteSettings } from "~/settings/site.server";
import { formatDate, formatDateTime, formatDateTimeRange } from "~/utils/format";

/** The owner as a letter shows them: the sender's block, the signature and the telephone to call. */
export interface LetterOwner extends Sender {
  /** The owner's own name, under the letter. */
  signature: string;
  phone: string;
}

/** Everything one letter says. */
export interface Letter {
  registrationId: number;
  /** The attendee's name, as greeted and addressed. */
  name: string;
  /** The window's lines: name, street, « 1800 Vevey ». */
  address: string[];
  course: string;
  /** Every date, in words: « mardi 2 mars 2027, 14 h 00 – 16 h 00 » (a cancelled date left out). */
  dates: string[];
  place: { name: string; address: string; access: string };
  seats: number;
  codeWord: string | null;
  /** Until when the registration may be cancelled: the start of the first date, in words. */
  cancelBy: string;
  /** The price per person, as paper prints it: « CHF 55.00 ». */
  price: string;
  /** How it pays, as the site says it (app/content/payment.ts). */
  payment: string;
  /** The open invoice of the registration (its QR-bill goes on the letter), when it pays by one. */
  invoice: Invoice | null;
}

/** A registration's postal address, as the desk's form gives it. */
export interface LetterAddress {
  street: string;
  postalCode: string;
  locality: string;
}

/** Whether registration `row` has no e-mail: neither the attendee nor the relative who registered them. */
export const withoutEmail = (row: Pick<RegistrationRow, "email" | "bookerEmail">) => !row.email && !row.bookerEmail;

/** Whether `row` has the address a letter needs. */
export const hasAddress = (row: Pick<RegistrationRow, "postalStreet" | "postalCode" | "postalLocality">) =>
  Boolean(row.postalStreet && row.postalCode && row.postalLocality);

/**
 * The letters of session `sessionId` (a date of a series: the series') for
 * its confirmed registrations `which`, in arrival order; `missing`: the
 * names of those chosen who have no postal address (no letter for them).
 * @returns null when there is no such session. @throws the driver's error.
 */
export async function lettersOf(
  db: Database,
  sessionId: number,
  which: readonly number[] | "no-email",
): Promise<{ letters: Letter[]; missing: string[] } | null> {
  const session = await getSession(db, sessionId);
  if (!session) return null;
  const chosen = (await listRegistrations(db, sessionId)).filter(
    (row) => row.status === "confirmed" && (which === "no-email" ? withoutEmail(row) : which.includes(row.id)),
  );
  const dates = session.seriesId === null ? [session] : await seriesSessions(db, [session.seriesId]);
  const held = dates
    .filter((date) => date.cancelledAt === null)
    .sort((a, b) => new Date(a.startsAt).getTime() - new Date(b.startsAt).getTime());
  const first = held[0] ?? session;
  const open = await openInvoicesOf(
    db,
    chosen.map((row) => row.id),
  );
  const withAddress = chosen.filter(hasAddress);
  return {
    missing: chosen.filter((row) => !hasAddress(row)).map((row) => `${row.firstName} ${row.lastName}`),
    letters: withAddress.map((row) => ({
      registrationId: row.id,
      name: `${row.firstName} ${row.lastName}`,
      address: [`${row.firstName} ${row.lastName}`, row.postalStreet!, `${row.postalCode} ${row.postalLocality}`],
      course: courseBySlug(session.courseId)?.title ?? session.courseId,
      dates: held.map((date) => formatDateTimeRange(date.startsAt, sessionEnd(date))),
      place: { name: first.placeName, address: first.placeAddress, access: first.placeAccess.trim() },
      seats: row.seats,
      codeWord: row.codeWord,
      cancelBy: formatDateTime(first.startsAt),
      price: paperChf(Math.round(session.priceChf * 100)),
      payment: paymentSentence(row.paysBy),
      invoice: row.paysBy === "facture" ? (open.get(row.id) ?? null) : null,
    })),
  };
}

/** The latest open invoice of each registration among `ids`. @throws the driver's error. */
async function openInvoicesOf(db: Database, ids: readonly number[]): Promise<Map<number, Invoice>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(invoices)
    .where(and(inArray(invoices.registrationId, [...ids]), eq(invoices.status, "open")))
    .orderBy(desc(invoices.id));
  const byRegistration = new Map<number, Invoice>();
  for (const row of rows) if (!byRegistration.has(row.registrationId!)) byRegistration.set(row.registrationId!, row);
  return byRegistration;
}

/**
 * Stores the address a letter to registration `registrationId` of session
 * `sessionId` goes to (its postal columns; an invoice made later starts
 * from it too). @returns false when the registration is not the session's.
 * @throws the driver's error.
 */
export async function saveLetterAddress(
  db: Database,
  sessionId: number,
  registrationId: number,
  address: LetterAddress,
): Promise<boolean> {
  const updated = await db
    .update(courseRegistrations)
    .set({ postalStreet: address.street, postalCode: address.postalCode, postalLocality: address.locality })
    .where(and(eq(courseRegistrations.id, registrationId), ofSession(sessionId)))
    .returning({ id: courseRegistrations.id });
  return updated.length === 1;
}

/** Registrations of session `sessionId`, or of its series. */
const ofSession = (sessionId: number) =>
  or(
    eq(courseRegistrations.sessionId, sessionId),
    sql`${courseRegistrations.seriesId} = (select s.series_id from course_sessions s where s.id = ${sessionId})`,
  );

/**
 * Records that the letters of registrations `ids` (of session `sessionId`,
 * confirmed) were posted on `sentOn` (ISO date). Others are left out.
 * @returns how many were recorded. @throws the driver's error.
 */
export async function markLettersSent(
  db: Database,
  sessionId: number,
  ids: readonly number[],
  sentOn: string,
): Promise<number> {
  if (ids.length === 0) return 0;
  const kept = await db
    .select({ id: courseRegistrations.id })
    .from(courseRegistrations)
    .where(
      and(inArray(courseRegistrations.id, [...ids]), eq(courseRegistrations.status, "confirmed"), ofSession(sessionId)),
    );
  if (kept.length === 0) return 0;
  await db.insert(postalLetters).values(kept.map((row) => ({ registrationId: row.id, sentOn })));
  return kept.length;
}

/** The days letters were posted to registrations `ids`, by id, in words (« 27 novembre 2026 »). @throws the driver's error. */
export async function lettersSentOf(db: Database, ids: readonly number[]): Promise<Map<number, string[]>> {
  const byRegistration = new Map<number, string[]>();
  if (ids.length === 0) return byRegistration;
  const rows = await db
    .select({ registrationId: postalLetters.registrationId, sentOn: postalLetters.sentOn })
    .from(postalLetters)
    .where(inArray(postalLetters.registrationId, [...ids]))
    .orderBy(asc(postalLetters.id));
  for (const row of rows)
    byRegistration.set(row.registrationId, [...(byRegistration.get(row.registrationId) ?? []), formatDate(row.sentOn)]);
  return byRegistration;
}

/** The owner as every letter and certificate shows them (Réglages' identity). */
export async function letterSender(context: RequestContext): Promise<LetterOwner> {
  const { identity } = await getSiteSettings(context);
  return {
    name: identity.businessName,
    street: identity.address.street,
    postalCode: identity.address.postalCode,
    locality: identity.address.locality,
    phone: identity.phoneDisplay,
    email: identity.email,
    uid: identity.uid,
    signature: identity.name,
  };
}
