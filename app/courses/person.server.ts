/**
 * Course registrations in the person registry (DESIGN.md section 8, "One
 * person, many rows"): a person's registrations are those where they are
 * the attendee or the relative who registered them, by e-mail (any case)
 * or by telephone in E.164; the mails about them are the rows of
 * `mail_ids` (the owner's notices carry the names, and have no recipient
 * to find them by).
 *
 * - `registrationMatch(person)`: the SQL condition on `course_registrations`.
 * - `registrationMailsMatch(person)`: the SQL condition on `outbox`.
 * - `findRegistrations(db, person)`: the rows, oldest first.
 * - `registrationFields(row, { sessions, attendance })`: a row's fields with French
 *   labels (how it pays and the postal address given « sur facture » among them), its session named by title and date (`sessions`, by id), its
 *   attendance by date (`attendance`, by registration id, in words).
 * - `attendeeIs(row, person)`, `bookerIs(row, person)`: which part of a
 *   registration is the person's. The erasure (app/courses/plug.server.ts,
 *   decision 019) deletes the registrations whose attendee is erased, and
 *   keeps those where only the relative who registered them is.
 * - `beforeErasingRegistrations(tx, rows)`: gives back the seats of the
 *   confirmed ones among the rows to delete and deletes their link tokens
 *   (`link_tokens`, purpose `course-registration`); call it in the
 *   erasure's transaction before the rows are deleted, or `seats_taken`
 *   would count seats of nobody and the tokens would outlive them. The
 *   erasure then tells the owner of the freed seats (`announceFreedSeats`).
 * - `forgetBookers(tx, ids, erasedMailIds, now)`: the relative's data out
 *   of the registrations kept for their attendee (with the key of the
 *   connection they posted from).
 * - `sessionNames(db, ids)`: course sessions by id, as people read them.
 * - `deleteRegistrationsOfSessionsBefore(db, before)`: the retention rule
 *   (the privacy notice: kept `retentionMonths` after the course), for the
 *   daily retention job. Their link tokens expired long before (7 days
 *   after the start): the same job deletes expired tokens.
 */
import { asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseOffers, courseRegistrations, courseSessions, outbox } from "~/db/schema";
import { deleteTokensOfRows } from "~/tokens/tokens.server";
import { formatDateTime } from "~/utils/format";
import { PAYS_BY_LABELS, postalAddressLine } from "~/content/payment";
import { courseBySlug } from "./sessions.server";
import { REGISTRATION_TOKEN_PURPOSE, type FreedSeats, type RegistrationRow } from "./booking.server";
import { REGISTRATION_STATUS_LABELS } from "./desk.server";
import { giveBackSeats } from "./seats.server";
import { OFFER_STATE_LABELS, OFFER_TOKEN_PURPOSE } from "./offer-rules";

/** Whom to look for: a lower-cased e-mail, a telephone in E.164, or both (rows matching either). */
export interface RegistrationPerson {
  email: string | null;
  phoneE164: string | null;
}

/** The person's registrations, as attendee or as the relative who registered them. */
export function registrationMatch(person: RegistrationPerson): SQL {
  const conditions: SQL[] = [];
  if (person.email) {
    conditions.push(sql`lower(${courseRegistrations.email}) = ${person.email}`);
    conditions.push(sql`lower(${courseRegistrations.bookerEmail}) = ${person.email}`);
  }
  if (person.phoneE164) {
    conditions.push(eq(courseRegistrations.phoneE164, person.phoneE164));
    conditions.push(eq(courseRegistrations.bookerPhoneE164, person.phoneE164));
  }
  return or(...conditions) ?? sql`false`;
}

/** The mails about the person's registrations (`mail_ids`), as a condition on `outbox`. */
export function registrationMailsMatch(person: RegistrationPerson): SQL {
  return sql`${outbox.id} in (select unnest(${courseRegistrations.mailIds}) from ${courseRegistrations} where ${registrationMatch(person)})`;
}

/** The person's registrations, oldest first. @throws the driver's error. */
export async function findRegistrations(db: Database, person: RegistrationPerson): Promise<RegistrationRow[]> {
  return db.select().from(courseRegistrations).where(registrationMatch(person)).orderBy(asc(courseRegistrations.id));
}

/** A registration's fields with their French labels, as the person page and the export show them. */
export function registrationFields(
  row: RegistrationRow,
  {
    sessions,
    attendance,
    offers,
  }: {
    sessions: ReadonlyMap<number, string>;
    attendance?: ReadonlyMap<number, string>;
    /** The seats offered to it from the waiting list, in words (app/courses/offers.server.ts). */
    offers?: ReadonlyMap<number, string>;
  },
): [string, string][] {
  return [
    ["Cours", sessions.get(row.sessionId) ?? `séance n° ${row.sessionId}`],
    ["État", REGISTRATION_STATUS_LABELS[row.status] ?? row.status],
    ["Places", String(row.seats)],
    ["Participant(e)", `${row.firstName} ${row.lastName}`],
    ["Téléphone", row.phone],
    ["Rappel par SMS", row.smsConsent ? "accepté" : "non demandé"],
    ["E-mail", row.email ?? "(aucun)"],
    [
      "Inscrit(e) par",
      row.bookerFirstName
        ? `${row.bookerFirstName} ${row.bookerLastName ?? ""}, ${row.bookerPhone ?? ""}${row.bookerEmail ? `, ${row.bookerEmail}` : ""}`
        : row.bookerErasedAt
          ? `un proche, dont les données ont été effacées le ${formatDateTime(row.bookerErasedAt)}`
          : "(la personne elle-même)",
    ],
    ["Message", row.message?.trim() || "(aucun)"],
    ["Paiement", PAYS_BY_LABELS[row.paysBy] ?? row.paysBy],
    // The address the invoice goes to, « sur facture » (the attendee's: erased with the registration).
    ["Adresse postale", postalAddressLine(row) || "(aucune)"],
    ["Mot de code", row.codeWord ?? "(aucun)"],
    ["Inscrit(e) le", formatDateTime(row.createdAt)],
    ...(attendance ? [["Présences", attendance.get(row.id) ?? "(pas encore notée)"] as [string, string]] : []),
    ...(offers ? [["Places proposées", offers.get(row.id) ?? "(aucune)"] as [string, string]] : []),
    [
      "Connexion",
      row.clientKey
        ? "une empreinte de l’adresse internet du jour, sans l’adresse elle-même (limite des places par connexion)"
        : "(aucune)",
    ],
  ];
}

/** Whether `row`'s attendee is `person`: the same e-mail (any case) or the same E.164 telephone. */
export function attendeeIs(row: RegistrationRow, person: RegistrationPerson): boolean {
  return sameKey(person, row.email, row.phoneE164);
}

/** Whether the relative who registered `row`'s attendee is `person`. */
export function bookerIs(row: RegistrationRow, person: RegistrationPerson): boolean {
  return sameKey(person, row.bookerEmail, row.bookerPhoneE164);
}

function sameKey(person: RegistrationPerson, email: string | null, phoneE164: string | null): boolean {
  return (
    (!!person.email && email?.toLowerCase() === person.email) || (!!person.phoneE164 && phoneE164 === person.phoneE164)
  );
}

/**
 * `ids` (outbox row ids, at least one) as an SQL `bigint[]` literal, to compare with
 * `course_registrations.mail_ids` (`&&`, `unnest`).
 */
export function mailIdArray(ids: readonly number[]): SQL {
  return sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::bigint[]`;
}

/**
 * Before erased registrations are deleted, in the erasure's transaction:
 * the seats of the confirmed ones go back to their sessions (every date of
 * a series; the sessions' rows locked first, in id order, as bookings do), and their link tokens
 * are deleted (their links then open nothing).
 * @returns the seats given back, per registration. @throws the driver's error.
 */
export async function beforeErasingRegistrations(
  tx: Database,
  rows: readonly RegistrationRow[],
): Promise<FreedSeats[]> {
  const confirmed = rows.filter((row) => row.status === "confirmed");
  // A series' registration holds its seats on every date of the series: each is locked, then given back.
  await giveBackSeats(tx, confirmed);
  if (rows.length) {
    await deleteTokensOfRows(tx, REGISTRATION_TOKEN_PURPOSE, {
      id: courseRegistrations.id,
      where: inArray(
        courseRegistrations.id,
        rows.map((row) => row.id),
      ),
    });
    // The links of the seats offered to them (their rows go with the registrations: on delete cascade).
    await deleteTokensOfRows(tx, OFFER_TOKEN_PURPOSE, {
      id: courseOffers.id,
      where: inArray(
        courseOffers.registrationId,
        rows.map((row) => row.id),
      ),
    });
  }
  return confirmed.map((row) => ({ sessionId: row.sessionId, seats: row.seats }));
}

/**
 * Registrations kept for their attendee when the relative who registered
 * them is erased: the relative's name, telephone, e-mail and message are
 * removed, `booker_erased_at` says when, and the ids of the erased mails
 * leave `mail_ids` and `reminder_mail_ids`, and the key of the client
 * address the relative posted from is cleared (the seat, the link and the
 * attendee's own mails stay).
 * @throws the driver's error.
 */
export async function forgetBookers(
  tx: Database,
  ids: readonly number[],
  erasedMailIds: readonly number[],
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  const gone = mailIdArray([0, ...erasedMailIds]);
  await tx
    .update(courseRegistrations)
    .set({
      bookerFirstName: null,
      bookerLastName: null,
      bookerPhone: null,
      bookerPhoneE164: null,
      bookerEmail: null,
      message: null,
      // The key of the connection the relative posted from (decision 028).
      clientKey: null,
      bookerErasedAt: now.toISOString(),
      mailIds: sql`array(select unnest(${courseRegistrations.mailIds}) except select unnest(${gone}))`,
      reminderMailIds: sql`array(select unnest(${courseRegistrations.reminderMailIds}) except select unnest(${gone}))`,
    })
    .where(inArray(courseRegistrations.id, [...ids]));
}

/**
 * Deletes the registrations (and the mails about them) of sessions that
 * started before `before` (e.g. `retentionMonths` ago; a series' once its
 * last date did): the seats of a past session no longer matter, so
 * `seats_taken` is left as it was.
 * @returns how many registrations were deleted. @throws the driver's error.
 */
export async function deleteRegistrationsOfSessionsBefore(db: Database, before: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const past = sql`${courseRegistrations.sessionId} in (select ${courseSessions.id} from ${courseSessions} where ${courseSessions.startsAt} < ${before.toISOString()})
      and (${courseRegistrations.seriesId} is null or not exists (select 1 from course_sessions later where later.series_id = ${courseRegistrations.seriesId} and later.starts_at >= ${before.toISOString()}))`;
    await tx
      .delete(outbox)
      .where(
        sql`${outbox.id} in (select unnest(${courseRegistrations.mailIds}) from ${courseRegistrations} where ${past})`,
      );
    const deleted = await tx.delete(courseRegistrations).where(past).returning({ id: courseRegistrations.id });
    return deleted.length;
  });
}

/**
 * Course sessions by id, as people read them: "« Sécurité et protection »,
 * mardi 12 janvier 2027, 14 h 00" (ids of no session are left out).
 * @throws the driver's error.
 */
export async function sessionNames(db: Database, ids: readonly number[]): Promise<Map<number, string>> {
  const rows = ids.length
    ? await db
        .select({ id: courseSessions.id, courseId: courseSessions.courseId, startsAt: courseSessions.startsAt })
        .from(courseSessions)
        .where(inArray(courseSessions.id, [...new Set(ids)]))
    : [];
  return new Map(
    rows.map((row) => [
      row.id,
      `« ${courseBySlug(row.courseId)?.title ?? row.courseId} », ${formatDateTime(row.startsAt)}`,
    ]),
  );
}

/**
 * The seats offered to each of `registrationIds` from the waiting list, in
 * words, one offer a line (« 1 place proposée le …, gardée jusqu’au … :
 * acceptée »), by registration id. @throws the driver's error.
 */
export async function offersInWords(db: Database, registrationIds: readonly number[]): Promise<Map<number, string>> {
  if (registrationIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(courseOffers)
    .where(inArray(courseOffers.registrationId, [...registrationIds]))
    .orderBy(asc(courseOffers.id));
  const lines = new Map<number, string[]>();
  for (const offer of rows) {
    const line = `${offer.seats === 2 ? "2 places proposées" : "1 place proposée"} le ${formatDateTime(offer.offeredAt)}, gardée jusqu’au ${formatDateTime(offer.holdUntil)} : ${OFFER_STATE_LABELS[offer.state]}`;
    lines.set(offer.registrationId, [...(lines.get(offer.registrationId) ?? []), line]);
  }
  return new Map([...lines].map(([id, list]) => [id, list.join("\n")]));
}
