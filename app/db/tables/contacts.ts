/**
 * Contact requests (app/contact/, app/contact/requests.server.ts) and their history.
 */
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const contacts = pgTable(
  "contacts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** Null on a callback request (`kind` "rappel"), which asks for none. */
    email: text("email"),
    phone: text("phone").notNull(),
    /** A service value (app/contact/schema.ts); null on a callback request. */
    service: text("service"),
    message: text("message"),
    newsletterConsent: boolean("newsletter_consent").notNull().default(false),
    contactConsent: boolean("contact_consent").notNull(),
    consentTimestamp: timestamp("consent_timestamp", { withTimezone: true, mode: "string" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    /** The telephone number in E.164 (`+41791234567`), to find a person's rows; null when it cannot be read. */
    phoneE164: text("phone_e164"),
    /** Where the owner is with the request: nouveau, a-rappeler, en-cours, termine (app/contact/requests.ts). */
    status: text("status").notNull().default("nouveau"),
    /** The owner's free note. */
    note: text("note").notNull().default(""),
    /** The last exchange (arrival, status change, note): the retention period runs from here. */
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    /** For a talk or workshop for a group (service `group-talk`): the association, club or organisation; else null. */
    organisation: text("organisation"),
    /** For a group: the commune where the talk or workshop would take place; else null. */
    commune: text("commune"),
    /** For a group: the number of people (2 to 300); else null. */
    groupSize: integer("group_size"),
    /** "contact" (the contact form: e-mail and service required) or "rappel" (a callback request, /rappel). */
    kind: text("kind").notNull().default("contact"),
    /** A callback's half-days that suit (app/callback/schema.ts: lundi-matin ... samedi-matin); null on a contact. */
    halfDays: text("half_days").array(),
    /** The code word the owner says when he calls back (app/trust/code-word.server.ts); null on rows stored before it. */
    codeWord: text("code_word"),
  },
  (table) => [
    check(
      "contacts_kind_fields",
      sql`(${table.kind} = 'contact' and ${table.email} is not null and ${table.service} is not null) or (${table.kind} = 'rappel' and ${table.halfDays} is not null)`,
    ),
    index("contacts_email_idx").on(sql`lower(${table.email})`),
    index("contacts_phone_idx").on(table.phoneE164),
    index("contacts_created_idx").on(table.createdAt),
    index("contacts_status_idx").on(table.status, table.createdAt),
    // The inbox's search (migration 0037, pg_trgm): the expression of app/contact/requests.server.ts's `requestFilter`.
    index("contacts_search_idx")
      .using(
        "gin",
        sql`(lower(${table.firstName} || ' ' || ${table.lastName} || chr(31) || coalesce(${table.email}, ''))) gin_trgm_ops`,
      )
      .with({ fastupdate: false }),
  ],
);

/** The history of a contact request's status: one row per change. */
export const contactEvents = pgTable(
  "contact_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    contactId: bigint("contact_id", { mode: "number" })
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    at: timestamp("at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [index("contact_events_contact_idx").on(table.contactId)],
);
