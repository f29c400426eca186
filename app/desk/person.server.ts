/**
 * One person, many rows (DESIGN.md section 8): every table that holds a
 * visitor's personal data, each able to find and erase that person's rows
 * by e-mail (any case) and by telephone (E.164, app/utils/phone.ts).
 *
 * - `PERSON_TABLES`: the registry, one entry per table. A later table
 *   joins by adding one
 *   entry here, and a row of it to the erasure test
 *   (tests/integration/desk-person.test.ts), which fails while an entry
 *   has no rows seeded. An entry may select its rows through the rows of
 *   an entry above it (the status history through its requests): erasure
 *   walks the list from the bottom up.
 * - `TABLES_WITHOUT_PERSONAL_DATA`: every other table of app/db/schema.ts,
 *   with the reason; app/desk/person.server.test.ts fails when a table of
 *   the schema is in neither list.
 * - `personKeyOf(fields)`: the person the desk's form names (what was
 *   typed, normalised, or the French message of what is wrong).
 * - `findPerson(db, person)`: every row of that person, table by table.
 * - `erasePerson(db, person, actor)`: deletes them all in one transaction
 *   (after each entry's `beforeErase`: a registration's seats and link
 *   tokens, a subscription's link tokens), with one audit line holding
 *   counts only.
 * - `backfillPhoneE164(db)`: fills `contacts.phone_e164` of requests stored
 *   before it existed (run by the daily job, app/desk/retention.server.ts).
 */
import { and, asc, eq, getTableName, gt, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { QueryBuilder, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { Logger } from "pino";
import { CALLBACK_NOTIFICATION } from "~/callback/notification.server";
import { CONTACT_NOTIFICATION } from "~/contact/notification.server";
import type { Database } from "~/db/client.server";
import { contactEvents, contacts, courseRegistrations, newsletterSubscribers, outbox } from "~/db/schema";
import { BOOKING_MAIL } from "~/courses/mails.server";
import {
  beforeErasingRegistrations,
  registrationFields,
  registrationMailsMatch,
  registrationMatch,
} from "~/courses/person.server";
import { beforeErasingSubscriber, NEWSLETTER_MAIL_KINDS } from "~/newsletter/subscriptions.server";
import { subscriberStates, subscriptionSources } from "~/newsletter/words";
import { formatDateTime } from "~/utils/format";
import { toE164 } from "~/utils/phone";
import { audit } from "./audit.server";
import { statusLabel } from "./requests";
import { REQUEST_COLUMNS } from "./requests.server";

/** Whom to look for: a lower-cased e-mail, a telephone in E.164, or both (rows matching either). */
export interface PersonKey {
  email: string | null;
  phoneE164: string | null;
}

/** A French noun for counts: "1 demande de contact", "2 demandes de contact". */
export interface Noun {
  one: string;
  other: string;
}

/** One table of the registry. */
export interface PersonTable<T extends PgTable = PgTable> {
  table: T;
  /** The section's title on the person page ("Demandes de contact"). */
  title: string;
  /** What a row is, for counts. */
  noun: Noun;
  /** The rows of `person` (both keys are ORed). */
  where(person: PersonKey): SQL;
  /** The order rows are shown and exported in. */
  orderBy: PgColumn;
  /** A row's fields with their French labels, as the page shows them. */
  fields(row: T["$inferSelect"]): [string, string][];
  /**
   * What the erasure does first, in its transaction, while every row of the
   * person still exists (a course registration's seats go back, its link
   * tokens are deleted).
   */
  beforeErase?(tx: Database, person: PersonKey): Promise<void>;
}

/** Declares an entry, keeping its row type for `fields`. */
const personTable = <T extends PgTable>(entry: PersonTable<T>) => entry as unknown as PersonTable;

const queries = new QueryBuilder();

/** The person's contact requests: same e-mail (any case) or same E.164 telephone. */
function contactMatch(person: PersonKey): SQL {
  const conditions: SQL[] = [];
  if (person.email) conditions.push(sql`lower(${contacts.email}) = ${person.email}`);
  if (person.phoneE164) conditions.push(eq(contacts.phoneE164, person.phoneE164));
  return or(...conditions) ?? sql`false`;
}

/** The ids of the person's contact requests, as a subquery. */
const contactIds = (person: PersonKey) =>
  queries.select({ id: contacts.id }).from(contacts).where(contactMatch(person));

/** What the owner calls a kind of mail. */
const mailKinds: Record<string, string> = {
  [CONTACT_NOTIFICATION]: "Avis de nouvelle demande de contact",
  [CALLBACK_NOTIFICATION]: "Avis de nouvelle demande de rappel",
  [NEWSLETTER_MAIL_KINDS.confirmation]: "Demande de confirmation d’abonnement",
  [NEWSLETTER_MAIL_KINDS.letter]: "Lettre d’information",
  [NEWSLETTER_MAIL_KINDS.test]: "Lettre d’information (test)",
  [BOOKING_MAIL.confirmation]: "Confirmation d’inscription à un cours",
  [BOOKING_MAIL.waiting]: "Inscription sur la liste d’attente d’un cours",
  [BOOKING_MAIL.reminder]: "Rappel la veille d’un cours",
  [BOOKING_MAIL.sessionCancelled]: "Annulation d’une séance de cours",
  [BOOKING_MAIL.ownerRegistration]: "Avis d’une inscription à un cours",
  [BOOKING_MAIL.ownerCancellation]: "Avis d’une désinscription d’un cours",
};

/**
 * Every table holding a visitor's personal data, in the order the person
 * page shows them. Erasure deletes from the last to the first.
 */
export const PERSON_TABLES: readonly PersonTable[] = [
  personTable({
    table: contacts,
    // Callback requests too (kind "rappel", REQUEST_COLUMNS' "Type"): no e-mail, found by telephone.
    title: "Demandes de contact",
    noun: { one: "demande de contact", other: "demandes de contact" },
    where: contactMatch,
    orderBy: contacts.id,
    fields: (row) => [
      ...REQUEST_COLUMNS.map((column): [string, string] => [column.label, column.value(row, formatDateTime)]),
      ["Dernier échange", formatDateTime(row.lastActivityAt)],
    ],
  }),
  personTable({
    table: contactEvents,
    title: "Changements de statut",
    noun: { one: "changement de statut", other: "changements de statut" },
    where: (person) => inArray(contactEvents.contactId, contactIds(person)),
    orderBy: contactEvents.id,
    fields: (row) => [
      ["Demande n°", String(row.contactId)],
      ["Le", formatDateTime(row.at)],
      ["Changement", `${row.fromStatus ? `${statusLabel(row.fromStatus)} → ` : ""}${statusLabel(row.toStatus)}`],
    ],
  }),
  personTable({
    table: newsletterSubscribers,
    title: "Abonnement à la lettre d’information",
    noun: { one: "abonnement", other: "abonnements" },
    where: (person) => (person.email ? eq(newsletterSubscribers.email, person.email) : sql`false`),
    orderBy: newsletterSubscribers.id,
    beforeErase: async (tx, person) => (person.email ? beforeErasingSubscriber(tx, person.email) : undefined),
    fields: (row) => [
      ["E-mail", row.email],
      ["État", subscriberStates[row.status] ?? row.status],
      ["Demandé le", formatDateTime(row.requestedAt)],
      ["Demandé depuis", subscriptionSources[row.source] ?? row.source],
      ["Texte du consentement", `version du ${row.consentVersion}`],
      ["Confirmé le", row.confirmedAt ? formatDateTime(row.confirmedAt) : "(pas confirmé)"],
      ["Désabonné le", row.unsubscribedAt ? formatDateTime(row.unsubscribedAt) : "(abonné ou en attente)"],
    ],
  }),
  personTable({
    table: courseRegistrations,
    title: "Inscriptions aux cours",
    noun: { one: "inscription à un cours", other: "inscriptions aux cours" },
    where: registrationMatch,
    orderBy: courseRegistrations.id,
    fields: registrationFields,
    beforeErase: beforeErasingRegistrations,
  }),
  personTable({
    table: outbox,
    title: "E-mails",
    noun: { one: "e-mail", other: "e-mails" },
    // Mails about the person's requests, mails sent to the person, and older rows whose data carries the e-mail.
    where: (person) =>
      or(
        inArray(outbox.contactId, contactIds(person)),
        // The owner's notices of a registration name the person but have no recipient of theirs.
        registrationMailsMatch(person),
        ...(person.email
          ? [
              sql`lower(${outbox.recipient}) = ${person.email}`,
              sql`lower(${outbox.payload}->>'email') = ${person.email}`,
            ]
          : []),
      )!,
    orderBy: outbox.id,
    fields: (row) => [
      ["N°", String(row.id)],
      ["Type", mailKinds[row.kind] ?? row.kind],
      ["Demande n°", row.contactId === null ? "(aucune)" : String(row.contactId)],
      ["Créé le", formatDateTime(row.createdAt)],
      [
        "État",
        row.sentAt
          ? `Envoyé le ${formatDateTime(row.sentAt)}`
          : row.failedAt
            ? `Abandonné le ${formatDateTime(row.failedAt)}`
            : "En attente d’envoi",
      ],
    ],
  }),
];

/**
 * The tables of app/db/schema.ts that hold no visitor's personal data, and
 * why. A new table goes either here or into `PERSON_TABLES`.
 */
export const TABLES_WITHOUT_PERSONAL_DATA: Readonly<Record<string, string>> = {
  course_sessions: "dates, places, prices and seat counts of the courses",
  audit_log: "counts and kinds only, never an e-mail, a name or a telephone",
  rate_limits: "keys are SHA-256 hashes of an address or an e-mail, deleted once expired",
  site_secrets: "the server's own secrets",
  desk_user: "the owner's own account",
  desk_session: "the owner's own sessions",
  desk_account: "the owner's own password hash",
  desk_verification: "the owner's pending sign-in steps",
  desk_two_factor: "the owner's TOTP secret and recovery codes",
  desk_used_totp: "the owner's used TOTP codes",
  link_tokens:
    "hashes of random tokens and the id of what they act on (no address); expired ones are deleted, a course registration's with it",
  newsletter_letters: "the owner's letters",
};

/** The SQL name of an entry's table: the key of the export and of the audit counts. */
export const tableKey = (entry: PersonTable) => getTableName(entry.table);

/** "1 demande de contact", "0 demande de contact", "3 demandes de contact" (French: 0 and 1 are singular). */
export function countOf(count: number, noun: Noun): string {
  return `${count} ${count > 1 ? noun.other : noun.one}`;
}

/**
 * Counts per table in French words, joined as French lists are:
 * "2 demandes de contact, 1 changement de statut et 3 e-mails de
 * notification". Tables absent from `counts` are left out.
 */
export function describeCounts(counts: Readonly<Record<string, number>>): string {
  const parts = PERSON_TABLES.filter((entry) => tableKey(entry) in counts).map((entry) =>
    countOf(counts[tableKey(entry)]!, entry.noun),
  );
  return new Intl.ListFormat("fr", { type: "conjunction" }).format(parts);
}

/** What the person form holds: what was typed (to show it again), the key, and what is wrong. */
export interface PersonQuery {
  email: string;
  telephone: string;
  /** Null when nothing was typed or something is wrong. */
  person: PersonKey | null;
  errors: { email?: string; telephone?: string };
}

/** Field lengths the form accepts (as the contact form's). */
const EMAIL_MAX = 254;
const PHONE_MAX = 30;

/**
 * The person named by the fields `email` and `telephone` (a query string or
 * a posted form). The e-mail is trimmed and lower-cased; the telephone
 * read as a Swiss number unless it has a country code. Never throws.
 */
export function personKeyOf(fields: URLSearchParams | FormData): PersonQuery {
  const read = (name: string, max: number) =>
    String(fields.get(name) ?? "")
      .trim()
      .slice(0, max);
  const email = read("email", EMAIL_MAX);
  const telephone = read("telephone", PHONE_MAX);
  const errors: PersonQuery["errors"] = {};
  if (email && !/^[^\s@]+@[^\s@]+$/.test(email))
    errors.email = "Cette adresse e-mail n’est pas complète : elle s’écrit par exemple marie.dupont@example.ch.";
  const phoneE164 = telephone ? toE164(telephone) : null;
  if (telephone && !phoneE164)
    errors.telephone = "Ce numéro de téléphone n’est pas lisible : tapez-le par exemple ainsi : 079 123 45 67.";
  const valid = (email || telephone) && !errors.email && !errors.telephone;
  return {
    email,
    telephone,
    person: valid ? { email: email ? email.toLowerCase() : null, phoneE164 } : null,
    errors,
  };
}

/** The query string of the person page and of the export for `query` (`email=...&telephone=...`). */
export function personSearch(query: Pick<PersonQuery, "email" | "telephone">): string {
  const params = new URLSearchParams();
  if (query.email) params.set("email", query.email);
  if (query.telephone) params.set("telephone", query.telephone);
  return params.toString();
}

/** The rows of one table for one person. */
export interface PersonRows {
  entry: PersonTable;
  rows: Record<string, unknown>[];
}

/**
 * Every row of `person` in every table of the registry, in the registry's
 * order (rows by id).
 * @throws the driver's error when the database does not answer.
 */
export async function findPerson(db: Database, person: PersonKey): Promise<PersonRows[]> {
  const found: PersonRows[] = [];
  for (const entry of PERSON_TABLES) {
    const rows = await db.select().from(entry.table).where(entry.where(person)).orderBy(asc(entry.orderBy));
    found.push({ entry, rows: rows as Record<string, unknown>[] });
  }
  return found;
}

/** The number of rows per table (keyed by the table's SQL name), every table of the registry present. */
export function countsOf(found: readonly PersonRows[]): Record<string, number> {
  return Object.fromEntries(found.map(({ entry, rows }) => [tableKey(entry), rows.length]));
}

/**
 * Deletes every row of `person` in every table of the registry, in one
 * transaction (all or nothing), and writes in it one audit line
 * (`erasure`, by `actor`, with the counts: no e-mail, no telephone).
 * @returns the number of rows deleted per table (SQL names).
 * @throws the driver's error; nothing is deleted then.
 */
export async function erasePerson(
  db: Database,
  person: PersonKey,
  actor: string,
  logger?: Logger,
): Promise<Record<string, number>> {
  return db.transaction(async (tx) => {
    const counts: Record<string, number> = {};
    // While all their rows still exist: a registration's seats go back, its link tokens go.
    for (const entry of PERSON_TABLES) await entry.beforeErase?.(tx, person);
    for (const entry of [...PERSON_TABLES].reverse()) {
      const deleted = await tx
        .delete(entry.table)
        .where(entry.where(person))
        .returning({ one: sql<number>`1` });
      counts[tableKey(entry)] = deleted.length;
    }
    const ordered = Object.fromEntries(PERSON_TABLES.map((entry) => [tableKey(entry), counts[tableKey(entry)]!]));
    await audit(tx, { actor, action: "erasure", details: ordered }, logger);
    return ordered;
  });
}

/**
 * Fills `phone_e164` of the contact requests that have none, by batches of
 * `batch` rows; a telephone that cannot be read stays null.
 * @returns how many rows were filled. @throws the driver's error.
 */
export async function backfillPhoneE164(db: Database, batch = 500): Promise<number> {
  let filled = 0;
  let afterId = 0;
  for (;;) {
    const rows = await db
      .select({ id: contacts.id, phone: contacts.phone })
      .from(contacts)
      .where(and(isNull(contacts.phoneE164), gt(contacts.id, afterId)))
      .orderBy(asc(contacts.id))
      .limit(batch);
    if (rows.length === 0) return filled;
    for (const row of rows) {
      const phoneE164 = toE164(row.phone);
      if (!phoneE164) continue;
      await db
        .update(contacts)
        .set({ phoneE164 })
        .where(and(eq(contacts.id, row.id), isNull(contacts.phoneE164)));
      filled++;
    }
    afterId = rows.at(-1)!.id;
  }
}
