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
 * - `findPerson(db, person)`: every row of that key, table by table;
 *   `peopleIn(found, person)`: the people among them, one per name (two
 *   people may share a telephone or an e-mail).
 * - `planErasure(db, person, names)`: what erasing the chosen people does,
 *   row by row (decision 019: a registration is kept for its attendee when
 *   only the relative who made it is erased; mails naming them are deleted,
 *   or emptied when sent and part of what is kept).
 * - `erasePerson(db, person, names, actor, options)`: does it in one
 *   transaction (seats and link tokens of erased registrations, link
 *   tokens of a subscription, the owner told of freed seats), with one
 *   audit line holding counts only.
 * - `backfillPhoneE164(db)`: fills `contacts.phone_e164` of requests stored
 *   before it existed (run by the daily job, app/desk/retention.server.ts).
 */
import { and, asc, eq, getTableName, gt, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { QueryBuilder, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { Logger } from "pino";
import { CALLBACK_NOTIFICATION } from "~/callback/notification.server";
import { CONTACT_NOTIFICATION } from "~/contact/notification.server";
import type { Database } from "~/db/client.server";
import {
  contactEvents,
  contacts,
  courseRegistrations,
  courseSessions,
  invoices,
  newsletterSubscribers,
  outbox,
  recipientMailDays,
} from "~/db/schema";
import { keyOfDaySql } from "~/guards/daily-key.server";
import { MAIL_HELD_NOTICE } from "~/mail/recipient-cap.server";
import { courseBySlug } from "~/courses/sessions.server";
import { BOOKING_MAIL } from "~/courses/mails.server";
import {
  attendeeIs,
  beforeErasingRegistrations,
  bookerIs,
  forgetBookers,
  registrationFields,
  registrationMailsMatch,
  registrationMatch,
} from "~/courses/person.server";
import { attendanceByRegistration, attendanceText } from "~/courses/attendance.server";
import { announceFreedSeats, type LinkOptions, type RegistrationRow } from "~/courses/booking.server";
import {
  clientAddressLines,
  formatCentimes,
  INVOICE_MAIL,
  INVOICE_STATUS_LABELS,
  invoiceKeptUntil,
} from "~/invoices/invoices.server";
import { beforeErasingSubscriber, NEWSLETTER_MAIL_KINDS } from "~/newsletter/subscriptions.server";
import { subscriberStates, subscriptionSources } from "~/newsletter/words";
import { formatDate, formatDateTime } from "~/utils/format";
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
  /** A row's fields with their French labels, as the page shows them (`names`: see `FieldNames`). */
  fields(row: T["$inferSelect"], names: FieldNames): [string, string][];
}

/**
 * What fields name beyond their row: a course session's title and date, by
 * session id; a registration's attendance in words, by registration id.
 */
export interface FieldNames {
  sessions: ReadonlyMap<number, string>;
  attendance: ReadonlyMap<number, string>;
}

/** Declares an entry, keeping its row type for `fields`. */
const personTable = <T extends PgTable>(entry: PersonTable<T>) => entry as unknown as PersonTable;

const queries = new QueryBuilder();

/** Rows whose `email` column (any case) or `phoneE164` column (E.164) is the person's. */
function keyMatch(person: PersonKey, email: PgColumn, phoneE164: PgColumn): SQL {
  const conditions: SQL[] = [];
  if (person.email) conditions.push(sql`lower(${email}) = ${person.email}`);
  if (person.phoneE164) conditions.push(eq(phoneE164, person.phoneE164));
  return or(...conditions) ?? sql`false`;
}

/** The person's contact requests: same e-mail (any case) or same E.164 telephone. */
const contactMatch = (person: PersonKey) => keyMatch(person, contacts.email, contacts.phoneE164);

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
  [BOOKING_MAIL.ownerErasure]: "Avis d’une place libérée par un effacement",
  [INVOICE_MAIL.invoice]: "Facture",
  [INVOICE_MAIL.reminder]: "Rappel d’une facture",
  [MAIL_HELD_NOTICE]: "Avis d’envois retenus (limite du jour)",
};

/** The person's invoices: the e-mail or telephone they were made with (any case, E.164). */
const invoiceMatch = (person: PersonKey) => keyMatch(person, invoices.email, invoices.phoneE164);

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
  }),
  personTable({
    table: invoices,
    // Kept when the person is erased (CO art. 958f): only the e-mail and telephone go (issue 22, item 4).
    title: "Factures",
    noun: { one: "facture", other: "factures" },
    where: invoiceMatch,
    orderBy: invoices.id,
    fields: (row) => [
      ["N°", row.number],
      ["Client", clientAddressLines(row).join(", ")],
      ["E-mail", row.email ?? "(aucun)"],
      ["Téléphone", row.phone ?? "(aucun)"],
      ["Montant", formatCentimes(row.totalCentimes)],
      ["Date", formatDate(row.issuedOn)],
      ["État", INVOICE_STATUS_LABELS[row.status] ?? row.status],
      [
        "Conservation",
        `Gardée jusqu’au ${formatDate(invoiceKeptUntil(row))}, comme la loi le demande (Code des obligations, art. 958f) : un effacement n’en retire que l’e-mail et le téléphone.`,
      ],
    ],
  }),
  personTable({
    table: outbox,
    title: "E-mails",
    noun: { one: "e-mail", other: "e-mails" },
    // Mails naming the person or sent to them, mails about their requests, older rows whose data carries the e-mail.
    where: (person) =>
      or(
        ...(person.email ? [sql`${outbox.named} @> ${JSON.stringify([{ email: person.email }])}::jsonb`] : []),
        ...(person.phoneE164 ? [sql`${outbox.named} @> ${JSON.stringify([{ phone: person.phoneE164 }])}::jsonb`] : []),
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
      ["Objet", row.subject ?? "(ancien e-mail, sans objet enregistré)"],
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
  personTable({
    table: recipientMailDays,
    // Counted by the address's key of the day (decision 028): found while that day's salt is kept (two days).
    title: "E-mails comptés par jour (limite d’envois)",
    noun: { one: "compte d’envois du jour", other: "comptes d’envois du jour" },
    where: (person) =>
      person.email
        ? sql`${recipientMailDays.recipientKey} = ${keyOfDaySql(sql`"recipient_mail_days"."day"`, person.email)}`
        : sql`false`,
    orderBy: recipientMailDays.day,
    fields: (row) => [
      ["Jour", formatDate(row.day)],
      ["E-mails écrits à la suite de demandes sur le site", String(row.queued)],
      ["E-mails retenus (limite du jour atteinte)", String(row.held)],
    ],
  }),
];

/**
 * The tables of app/db/schema.ts that hold no visitor's personal data, and
 * why. A new table goes either here or into `PERSON_TABLES`.
 */
export const TABLES_WITHOUT_PERSONAL_DATA: Readonly<Record<string, string>> = {
  course_sessions: "dates, places, prices and seat counts of the courses",
  course_series: "which dates of a course are sold together",
  course_attendance:
    "a registration's ticks (présent, absent, excusé) by date, naming no one: found, shown and exported with their registration (its « Présences »), deleted with it (on delete cascade)",
  articles: "the owner's blog articles (his own name as author)",
  pictures: "the owner's pictures and their descriptions (no metadata kept: app/pictures/pictures.server.ts)",
  picture_files: "the resized files of the owner's pictures, without EXIF or GPS data",
  site_pictures: "which of the owner's pictures fills a slot of the home page",
  site_settings: "the owner's own business details, hours, prices and legal settings (Réglages), no visitor's",
  article_share_images: "the share images of the owner's articles (category, title, date)",
  audit_log: "counts and kinds only, never an e-mail, a name or a telephone",
  desk_seen: "when the owner last opened the desk's lists of registrations and subscriptions (a kind and a time)",
  rate_limits: "keys are SHA-256 hashes of an address or an e-mail, deleted once expired",
  site_secrets: "the server's own secrets",
  desk_user: "the owner's own account",
  desk_session: "the owner's own sessions",
  desk_account: "the owner's own password hash",
  desk_verification: "the owner's pending sign-in steps",
  desk_two_factor: "the owner's TOTP secret and recovery codes",
  desk_used_totp: "the owner's used TOTP codes",
  daily_salts: "one random salt a day, deleted two days later (decision 028); no address",
  link_tokens:
    "hashes of random tokens and the id of what they act on (no address); expired ones are deleted, a course registration's with it",
  newsletter_letters: "the owner's letters",
  invoice_numbers: "the last invoice number given in each year",
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

/** What the fields of `found` name beyond their rows (each registration's session). @throws the driver's error. */
export async function fieldNamesOf(db: Database, found: readonly PersonRows[]): Promise<FieldNames> {
  const registrations = rowsOf<RegistrationRow>(found, courseRegistrations);
  const ticks = await attendanceByRegistration(
    db,
    registrations.map((row) => row.id),
  );
  return {
    sessions: await sessionNames(
      db,
      registrations.map((row) => row.sessionId),
    ),
    attendance: new Map(registrations.map((row) => [row.id, attendanceText(ticks.get(row.id))])),
  };
}

/** The number of rows per table (keyed by the table's SQL name), every table of the registry present. */
export function countsOf(found: readonly PersonRows[]): Record<string, number> {
  return Object.fromEntries(found.map(({ entry, rows }) => [tableKey(entry), rows.length]));
}

/** A name as the erasure compares it: lower case, single spaces (`Marie  DUPONT` is `marie dupont`). */
export const nameKey = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/** One person among the rows found under an e-mail or a telephone: one per name. */
export interface FoundPerson {
  /** `nameKey` of the name: what the erasure form posts (`personne`). */
  id: string;
  /** The name as first typed. */
  name: string;
  /** The e-mails (lower case) and telephones (as typed) seen with the name. */
  emails: string[];
  phones: string[];
  /** What the rows are, in French: "1 demande de contact, participe à 1 cours, a inscrit 1 proche". */
  what: string;
}

type ContactRow = typeof contacts.$inferSelect;
type OutboxRow = typeof outbox.$inferSelect;
type SubscriberRow = typeof newsletterSubscribers.$inferSelect;
type InvoiceRow = typeof invoices.$inferSelect;
type MailDayRow = typeof recipientMailDays.$inferSelect;

/** The rows of one table among `found`. */
function rowsOf<T>(found: readonly PersonRows[], table: PgTable): T[] {
  return (found.find(({ entry }) => entry.table === table)?.rows ?? []) as T[];
}

const isKey = (person: PersonKey, email: string | null | undefined, phoneE164: string | null | undefined) =>
  (!!person.email && email?.toLowerCase() === person.email) || (!!person.phoneE164 && phoneE164 === person.phoneE164);

/** The entries of a mail's `named` that are `person` (by e-mail or telephone). */
const namedEntries = (row: OutboxRow, person: PersonKey) =>
  (row.named ?? []).filter((entry) => isKey(person, entry.email, entry.phone));

/**
 * The people among `found` (rows of `person`'s key): each name under which
 * a request was sent, a course attended, a relative registered or a mail
 * written, with that key. Two names under one telephone are two people
 * (a couple): the owner chooses whom to erase. In the order first seen.
 */
export function peopleIn(found: readonly PersonRows[], person: PersonKey): FoundPerson[] {
  const people = new Map<string, FoundPerson & { counts: [number, number, number] }>();
  const add = (name: string, email: string | null | undefined, phone: string | null | undefined, slot?: 0 | 1 | 2) => {
    if (!name.trim()) return;
    const id = nameKey(name);
    const entry = people.get(id) ?? {
      id,
      name: name.trim().replace(/\s+/g, " "),
      emails: [],
      phones: [],
      what: "",
      counts: [0, 0, 0],
    };
    if (email && !entry.emails.includes(email.toLowerCase())) entry.emails.push(email.toLowerCase());
    if (phone && !entry.phones.some((known) => (toE164(known) ?? known) === (toE164(phone) ?? phone)))
      entry.phones.push(phone);
    if (slot !== undefined) entry.counts[slot]++;
    people.set(id, entry);
  };
  for (const row of rowsOf<ContactRow>(found, contacts))
    if (isKey(person, row.email, row.phoneE164)) add(`${row.firstName} ${row.lastName}`, row.email, row.phone, 0);
  for (const row of rowsOf<RegistrationRow>(found, courseRegistrations)) {
    if (attendeeIs(row, person)) add(`${row.firstName} ${row.lastName}`, row.email, row.phone, 1);
    if (bookerIs(row, person) && row.bookerFirstName)
      add(`${row.bookerFirstName} ${row.bookerLastName ?? ""}`, row.bookerEmail, row.bookerPhone, 2);
  }
  for (const row of rowsOf<OutboxRow>(found, outbox))
    for (const entry of namedEntries(row, person)) if (entry.name) add(entry.name, entry.email, entry.phone);
  return [...people.values()].map(({ counts, ...entry }) => ({
    ...entry,
    what:
      new Intl.ListFormat("fr", { type: "conjunction" }).format(
        [
          counts[0] ? countOf(counts[0], PERSON_TABLES[0]!.noun) : "",
          counts[1] ? `participe à ${countOf(counts[1], { one: "cours", other: "cours" })}` : "",
          counts[2] ? `a inscrit un proche (${countOf(counts[2], { one: "inscription", other: "inscriptions" })})` : "",
        ].filter(Boolean),
      ) || "nommée dans des e-mails",
  }));
}

/**
 * What erasing people does, row by row (decision 019), computed from the
 * rows of their key:
 * - `names`: the chosen people (`FoundPerson.id`); null: everyone found
 *   (then the rows that carry no name go too: the subscription, mails sent
 *   to the address). Rows of a person not chosen are never touched.
 * - registrations whose attendee is chosen are deleted (seats given back,
 *   link tokens deleted, the owner told of freed seats); those where only
 *   the relative who registered the attendee is chosen are kept, without
 *   the relative's data (`kept`).
 * - mails that name a chosen person (`outbox.named`, the request or the
 *   registration they belong to) are deleted, unless sent to someone else
 *   and part of what is kept (the owner's notice of a kept registration or
 *   of someone else's cancellation): those are emptied (`scrubbed`).
 * - the day counts of mails to the address (`mailDays`, decision 028) go
 *   with everyone (they carry no name).
 */
export interface ErasurePlan {
  contacts: number[];
  contactEvents: number[];
  subscribers: SubscriberRow[];
  registrations: RegistrationRow[];
  kept: RegistrationRow[];
  mails: number[];
  scrubbed: number[];
  /** Invoices kept (CO art. 958f), their e-mail and telephone removed. */
  invoices: number[];
  mailDays: MailDayRow[];
}

/**
 * The plan of erasing the people `names` (null: all) found under `person`.
 * @throws the driver's error.
 */
export async function planErasure(
  db: Database,
  person: PersonKey,
  names: readonly string[] | null,
): Promise<ErasurePlan> {
  const found = await findPerson(db, person);
  const everyone = peopleIn(found, person).map((entry) => entry.id);
  const chosenIds = names === null || everyone.every((id) => names.includes(id)) ? null : new Set(names);
  const chosen = (name: string | null | undefined) => chosenIds === null || (!!name && chosenIds.has(nameKey(name)));
  const contactRows = rowsOf<ContactRow>(found, contacts).filter((row) => chosen(`${row.firstName} ${row.lastName}`));
  const contactIdsErased = new Set(contactRows.map((row) => row.id));
  const registrationRows = rowsOf<RegistrationRow>(found, courseRegistrations);
  const registrations = registrationRows.filter(
    (row) => attendeeIs(row, person) && chosen(`${row.firstName} ${row.lastName}`),
  );
  const kept = registrationRows.filter(
    (row) =>
      !registrations.includes(row) &&
      bookerIs(row, person) &&
      !!row.bookerFirstName &&
      chosen(`${row.bookerFirstName} ${row.bookerLastName ?? ""}`),
  );
  const mailsOfErased = new Set(registrations.flatMap((row) => row.mailIds));
  const outboxRows = rowsOf<OutboxRow>(found, outbox);
  // Mails that stay part of a record: a request or a registration that is not erased.
  const recorded = new Set<number>();
  if (outboxRows.length) {
    const ids = sql.join(
      outboxRows.map((row) => sql`${row.id}`),
      sql`, `,
    );
    const holders = await db
      .select({ id: courseRegistrations.id, mailIds: courseRegistrations.mailIds })
      .from(courseRegistrations)
      .where(sql`${courseRegistrations.mailIds} && array[${ids}]::bigint[]`);
    const erasedIds = new Set(registrations.map((row) => row.id));
    for (const holder of holders) if (!erasedIds.has(holder.id)) holder.mailIds.forEach((id) => recorded.add(id));
  }
  const mails: number[] = [];
  const scrubbed: number[] = [];
  for (const row of outboxRows) {
    if ((row.contactId !== null && contactIdsErased.has(row.contactId)) || mailsOfErased.has(row.id)) {
      mails.push(row.id);
      continue;
    }
    const entries = namedEntries(row, person).filter((entry) => chosen(entry.name));
    const legacy =
      (row.named ?? []).length === 0 &&
      chosenIds === null &&
      !!person.email &&
      [row.recipient, (row.payload as { email?: string } | null)?.email].some(
        (value) => value?.toLowerCase() === person.email,
      );
    if (entries.length === 0 && !legacy) continue;
    const recipient = row.recipient?.toLowerCase();
    const toThem = !!recipient && (recipient === person.email || entries.some((entry) => entry.email === recipient));
    const ofRecord = (row.contactId !== null && !contactIdsErased.has(row.contactId)) || recorded.has(row.id);
    (row.sentAt && !toThem && ofRecord ? scrubbed : mails).push(row.id);
  }
  return {
    contacts: [...contactIdsErased],
    contactEvents: rowsOf<typeof contactEvents.$inferSelect>(found, contactEvents)
      .filter((row) => contactIdsErased.has(row.contactId))
      .map((row) => row.id),
    subscribers: chosenIds === null ? rowsOf<SubscriberRow>(found, newsletterSubscribers) : [],
    registrations,
    kept,
    mails,
    scrubbed,
    invoices: rowsOf<InvoiceRow>(found, invoices)
      .filter((row) => chosen(row.clientName) || chosen(row.clientAttention))
      .map((row) => row.id),
    mailDays: chosenIds === null ? rowsOf<MailDayRow>(found, recipientMailDays) : [],
  };
}

/** What an export holds: the rows, table by table, the people they are of, and the counts. */
export interface PersonExport {
  found: PersonRows[];
  people: FoundPerson[];
  counts: Record<string, number>;
}

/**
 * The rows to hand over to the people `asked` (`FoundPerson.id`) among those
 * found under `person`: the rows an erasure of them would touch (their
 * requests, registrations as attendee or relative, mails naming them), so
 * that a person sharing a telephone never receives the other's data. No
 * person asked, or all of them: every row found.
 * @throws the driver's error.
 */
export async function exportOf(db: Database, person: PersonKey, asked: readonly string[]): Promise<PersonExport> {
  const everything = await findPerson(db, person);
  const people = peopleIn(everything, person);
  const chosen = people.filter((entry) => asked.includes(entry.id));
  if (chosen.length === 0 || chosen.length === people.length) {
    return { found: everything, people, counts: countsOf(everything) };
  }
  const plan = await planErasure(
    db,
    person,
    chosen.map((entry) => entry.id),
  );
  const ids: Record<string, Set<number>> = {
    contacts: new Set(plan.contacts),
    contact_events: new Set(plan.contactEvents),
    newsletter_subscribers: new Set(plan.subscribers.map((row) => row.id)),
    course_registrations: new Set([...plan.registrations, ...plan.kept].map((row) => row.id)),
    outbox: new Set([...plan.mails, ...plan.scrubbed]),
    invoices: new Set(plan.invoices),
  };
  const found = everything.map(({ entry, rows }) => ({
    entry,
    rows: rows.filter((row) => ids[tableKey(entry)]?.has(row.id as number)),
  }));
  return { found, people: chosen, counts: countsOf(found) };
}

/** The rows a plan deletes per table (SQL names, every table of the registry but `invoices`, never deleted). */
export function planCounts(plan: ErasurePlan): Record<string, number> {
  return {
    contacts: plan.contacts.length,
    contact_events: plan.contactEvents.length,
    newsletter_subscribers: plan.subscribers.length,
    course_registrations: plan.registrations.length,
    outbox: plan.mails.length,
    recipient_mail_days: plan.mailDays.length,
  };
}

/** What `erasePerson` did. */
export interface ErasureResult {
  /** Rows deleted per table (SQL names). */
  counts: Record<string, number>;
  /** Registrations kept for their attendee, the relative's data removed. */
  kept: number[];
  /** Mails kept for the record, their subject and bodies replaced. */
  scrubbed: number;
  /** Invoices kept (CO art. 958f), their e-mail and telephone removed. */
  invoicesKept: number;
  /** Sessions whose freed seats the owner was told of (a mail naming the first on the waiting list). */
  freed: number[];
}

/** What a scrubbed mail says instead of what it said (no name: the erased person's words are gone). */
export const SCRUBBED_MAIL = {
  subject: "(contenu effacé)",
  text: (now: Date) =>
    `Ce message nommait une personne dont les données ont été effacées à sa demande le ${formatDateTime(now)}.\n`,
};

/**
 * Erases the people `names` (`FoundPerson.id`; null: everyone found) under
 * `person`, as `planErasure` plans it, in one transaction (all or nothing),
 * with one audit line (`erasure`, by `actor`, counts only: no e-mail, no
 * name, no telephone). Seats freed in sessions still to come are announced
 * to the owner with the first on the waiting list (`announceFreedSeats`).
 * @throws the driver's error; nothing is changed then.
 */
export async function erasePerson(
  db: Database,
  person: PersonKey,
  names: readonly string[] | null,
  actor: string,
  options: LinkOptions & { logger?: Logger },
): Promise<ErasureResult> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const plan = await planErasure(tx, person, names);
    const freedSeats = await beforeErasingRegistrations(tx, plan.registrations);
    for (const subscriber of plan.subscribers) await beforeErasingSubscriber(tx, subscriber.email);
    if (plan.scrubbed.length) {
      await tx
        .update(outbox)
        .set({
          subject: SCRUBBED_MAIL.subject,
          textBody: SCRUBBED_MAIL.text(now),
          htmlBody: null,
          headers: null,
          attachments: null,
          payload: null,
          replyTo: null,
          named: [],
        })
        .where(inArray(outbox.id, plan.scrubbed));
    }
    const deleteIds = async (table: PgTable & { id: PgColumn }, ids: readonly number[]) =>
      ids.length
        ? (
            await tx
              .delete(table)
              .where(inArray(table.id, [...ids]))
              .returning({ one: sql`1` })
          ).length
        : 0;
    const counts: Record<string, number> = {};
    counts.outbox = await deleteIds(outbox, plan.mails);
    await forgetBookers(
      tx,
      plan.kept.map((row) => row.id),
      plan.mails,
      now,
    );
    counts.course_registrations = await deleteIds(
      courseRegistrations,
      plan.registrations.map((row) => row.id),
    );
    counts.newsletter_subscribers = await deleteIds(
      newsletterSubscribers,
      plan.subscribers.map((row) => row.id),
    );
    counts.contact_events = await deleteIds(contactEvents, plan.contactEvents);
    counts.contacts = await deleteIds(contacts, plan.contacts);
    // Invoices stay (CO art. 958f: 10 years); the e-mail and telephone they were sent with go.
    if (plan.invoices.length)
      await tx
        .update(invoices)
        .set({ email: null, phone: null, phoneE164: null })
        .where(inArray(invoices.id, plan.invoices));
    counts.recipient_mail_days = plan.mailDays.length
      ? (
          await tx
            .delete(recipientMailDays)
            .where(
              or(
                ...plan.mailDays.map((row) =>
                  and(eq(recipientMailDays.day, row.day), eq(recipientMailDays.recipientKey, row.recipientKey)),
                ),
              ),
            )
            .returning({ one: sql`1` })
        ).length
      : 0;
    const freed = await announceFreedSeats(tx, freedSeats, { ...options, now });
    const ordered = Object.fromEntries(
      PERSON_TABLES.filter((entry) => tableKey(entry) in counts).map((entry) => [
        tableKey(entry),
        counts[tableKey(entry)]!,
      ]),
    );
    const result: ErasureResult = {
      counts: ordered,
      kept: plan.kept.map((row) => row.id),
      scrubbed: plan.scrubbed.length,
      invoicesKept: plan.invoices.length,
      freed,
    };
    await audit(
      tx,
      {
        actor,
        action: "erasure",
        details: {
          ...ordered,
          registrations_kept: result.kept.length,
          mails_scrubbed: result.scrubbed,
          invoices_kept: result.invoicesKept,
          sessions_freed: freed.length,
          people_chosen: names === null ? "all" : names.length,
        },
      },
      options.logger,
    );
    return result;
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
