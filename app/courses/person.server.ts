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
 * - `registrationFields(row)`: a row's fields with French labels.
 * - `beforeErasingRegistrations(tx, person)`: gives back the seats of the
 *   person's confirmed registrations and deletes their link tokens
 *   (`link_tokens`, purpose `course-registration`); call it in the
 *   erasure's transaction before the rows are deleted, or `seats_taken`
 *   would count seats of nobody and the tokens would outlive them.
 * - `eraseRegistrations(tx, person)`: all of it in one go (seats, tokens,
 *   mails, rows), for a registry that calls each feature's own eraser.
 * - `deleteRegistrationsOfSessionsBefore(db, before)`: the retention rule
 *   (the privacy notice: kept `retentionMonths` after the course), for the
 *   daily retention job. Their link tokens expired long before (7 days
 *   after the start): the same job deletes expired tokens.
 */
import { and, asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseRegistrations, courseSessions, outbox } from "~/db/schema";
import { deleteTokensOfRows } from "~/tokens/tokens.server";
import { formatDateTime } from "~/utils/format";
import { REGISTRATION_TOKEN_PURPOSE, type RegistrationRow } from "./booking.server";
import { REGISTRATION_STATUS_LABELS } from "./desk.server";

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

/** A registration's fields with their French labels, as the person page shows them. */
export function registrationFields(row: RegistrationRow): [string, string][] {
  return [
    ["Séance n°", String(row.sessionId)],
    ["État", REGISTRATION_STATUS_LABELS[row.status] ?? row.status],
    ["Places", String(row.seats)],
    ["Participant(e)", `${row.firstName} ${row.lastName}`],
    ["Téléphone", row.phone],
    ["E-mail", row.email ?? "(aucun)"],
    [
      "Inscrit(e) par",
      row.bookerFirstName
        ? `${row.bookerFirstName} ${row.bookerLastName ?? ""}, ${row.bookerPhone ?? ""}${row.bookerEmail ? `, ${row.bookerEmail}` : ""}`
        : "(la personne elle-même)",
    ],
    ["Message", row.message?.trim() || "(aucun)"],
    ["Mot de code", row.codeWord ?? "(aucun)"],
    ["Inscrit(e) le", formatDateTime(row.createdAt)],
  ];
}

/** Gives back the seats of the person's confirmed registrations (their sessions' rows locked first, as bookings do). */
async function releaseSeatsOf(tx: Database, person: RegistrationPerson): Promise<void> {
  const confirmed = await tx
    .select({ id: courseRegistrations.id, sessionId: courseRegistrations.sessionId, seats: courseRegistrations.seats })
    .from(courseRegistrations)
    .where(and(registrationMatch(person), eq(courseRegistrations.status, "confirmed")));
  const sessionIds = [...new Set(confirmed.map((row) => row.sessionId))].sort((a, b) => a - b);
  if (sessionIds.length) {
    await tx
      .select({ id: courseSessions.id })
      .from(courseSessions)
      .where(inArray(courseSessions.id, sessionIds))
      .for("update");
  }
  for (const row of confirmed) {
    await tx
      .update(courseSessions)
      .set({ seatsTaken: sql`${courseSessions.seatsTaken} - ${row.seats}` })
      .where(eq(courseSessions.id, row.sessionId));
  }
}

/**
 * What goes before the person's registrations are deleted, in the erasure's
 * transaction: their seats go back to the sessions, and their link tokens
 * are deleted (their links then open nothing).
 * @throws the driver's error.
 */
export async function beforeErasingRegistrations(tx: Database, person: RegistrationPerson): Promise<void> {
  await releaseSeatsOf(tx, person);
  await deleteTokensOfRows(tx, REGISTRATION_TOKEN_PURPOSE, {
    id: courseRegistrations.id,
    where: registrationMatch(person),
  });
}

/**
 * Erases the person's registrations: gives their seats back, deletes their
 * link tokens, the mails about them and the rows, in the caller's transaction.
 * @returns counts per table (`course_registrations`, `outbox`). @throws the driver's error.
 */
export async function eraseRegistrations(
  tx: Database,
  person: RegistrationPerson,
): Promise<{ course_registrations: number; outbox: number }> {
  await beforeErasingRegistrations(tx, person);
  const mails = await tx.delete(outbox).where(registrationMailsMatch(person)).returning({ id: outbox.id });
  const rows = await tx
    .delete(courseRegistrations)
    .where(registrationMatch(person))
    .returning({ id: courseRegistrations.id });
  return { course_registrations: rows.length, outbox: mails.length };
}

/**
 * Deletes the registrations (and the mails about them) of sessions that
 * started before `before` (e.g. `retentionMonths` ago): the seats of a past
 * session no longer matter, so `seats_taken` is left as it was.
 * @returns how many registrations were deleted. @throws the driver's error.
 */
export async function deleteRegistrationsOfSessionsBefore(db: Database, before: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const past = sql`${courseRegistrations.sessionId} in (select ${courseSessions.id} from ${courseSessions} where ${courseSessions.startsAt} < ${before.toISOString()})`;
    await tx
      .delete(outbox)
      .where(
        sql`${outbox.id} in (select unnest(${courseRegistrations.mailIds}) from ${courseRegistrations} where ${past})`,
      );
    const deleted = await tx.delete(courseRegistrations).where(past).returning({ id: courseRegistrations.id });
    return deleted.length;
  });
}
