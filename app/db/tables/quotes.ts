/**
 * Quotes for groups (app/quotes/, docs/decisions/053-quotes-and-groups.md; migration 0030).
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import { contacts } from "./contacts";
import { courseSessions } from "./courses";
import { invoices, type InvoiceCreditor, type InvoiceLine } from "./invoices";

/** The last quote number given in a year: taken under this row's lock, never given twice. */
export const quoteNumbers = pgTable(
  "quote_numbers",
  {
    year: integer("year").primaryKey(),
    last: integer("last").notNull(),
  },
  (table) => [check("quote_numbers_last", sql`${table.last} >= 1`)],
);

/** What the owner does with a quote: brouillon, envoyé, accepté, refusé (expiré is derived from `valid_until`). */
export type QuoteStatus = "draft" | "sent" | "accepted" | "refused";

/**
 * A quote (devis) for a group: its number ("D-2026-001", `year` and
 * `sequence`), the organisation and its contact person ("à l’attention
 * de") with a postal address, e-mail and telephone to send it, the group's
 * size, its lines and total in centimes (the invoices' lines), the date and
 * the validity date (ISO dates), the planned session (course, start in UTC,
 * duration, place), the owner as creditor when it was made. Accepted, it
 * makes a closed session (`session_id`) and an invoice (`invoice_id`);
 * `participants` are the names the organisation or the owner fills in.
 */
export const quotes = pgTable(
  "quotes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    year: integer("year").notNull(),
    sequence: integer("sequence").notNull(),
    number: text("number").notNull().unique("quotes_number_unique"),
    status: text("status").$type<QuoteStatus>().notNull().default("draft"),
    /** The organisation (association, club, commune). */
    clientName: text("client_name").notNull(),
    /** Its contact person ("Prénom Nom"), or null. */
    clientAttention: text("client_attention"),
    street: text("street").notNull(),
    buildingNumber: text("building_number"),
    postalCode: text("postal_code").notNull(),
    locality: text("locality").notNull(),
    country: text("country").notNull().default("CH"),
    email: text("email"),
    phone: text("phone"),
    phoneE164: text("phone_e164"),
    groupSize: integer("group_size"),
    lines: jsonb("lines").$type<InvoiceLine[]>().notNull(),
    totalCentimes: integer("total_centimes").notNull(),
    issuedOn: date("issued_on", { mode: "string" }).notNull(),
    validUntil: date("valid_until", { mode: "string" }).notNull(),
    /** An id of app/content/courses.ts: what the session will be. */
    courseId: text("course_id").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true, mode: "string" }).notNull(),
    durationMinutes: integer("duration_minutes").notNull(),
    placeName: text("place_name").notNull(),
    placeAddress: text("place_address").notNull(),
    creditor: jsonb("creditor").$type<InvoiceCreditor>().notNull(),
    contactId: bigint("contact_id", { mode: "number" }).references(() => contacts.id, { onDelete: "set null" }),
    sessionId: bigint("session_id", { mode: "number" }).references(() => courseSessions.id, { onDelete: "set null" }),
    invoiceId: bigint("invoice_id", { mode: "number" }).references(() => invoices.id, { onDelete: "set null" }),
    /** The participants' names, as typed ("Marie Dupont"), in the order given. */
    participants: text("participants")
      .array()
      .notNull()
      .default(sql`'{}'`),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "string" }),
    /** When it was accepted or refused. */
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "string" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [
    unique("quotes_year_sequence_unique").on(table.year, table.sequence),
    index("quotes_email_idx").on(sql`lower(${table.email})`),
    index("quotes_phone_idx").on(table.phoneE164),
    check("quotes_status", sql`${table.status} in ('draft', 'sent', 'accepted', 'refused')`),
    check("quotes_total", sql`${table.totalCentimes} > 0 and ${table.totalCentimes} <= 100000000`),
    check("quotes_valid", sql`${table.validUntil} >= ${table.issuedOn}`),
    check("quotes_group_size", sql`${table.groupSize} is null or ${table.groupSize} between 1 and 300`),
    check("quotes_duration", sql`${table.durationMinutes} between 15 and 720`),
  ],
);
