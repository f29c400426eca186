/**
 * Database tables (Drizzle, PostgreSQL dialect; PGlite or a PostgreSQL 15+
 * server). `contacts` keeps the first site's columns (spec section 3,
 * DESIGN.md section 7) plus `id` and `created_at`; `outbox` holds the mails
 * still to send, written in the same transaction as the request they announce.
 * Changing a table: edit here, then `npm run db:generate` writes the SQL
 * migration into `app/db/migrations/` (commit it); the server applies it at start.
 */
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const contacts = pgTable("contacts", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  email: text("email").notNull(),
  phone: text("phone").notNull(),
  service: text("service").notNull(),
  message: text("message"),
  newsletterConsent: boolean("newsletter_consent").notNull().default(false),
  contactConsent: boolean("contact_consent").notNull(),
  consentTimestamp: timestamp("consent_timestamp", { withTimezone: true, mode: "string" }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

/** A notification to deliver: `kind` says which mail, `payload` its data. */
export const outbox = pgTable(
  "outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    contactId: bigint("contact_id", { mode: "number" }).references(() => contacts.id),
    payload: jsonb("payload").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "string" }),
    /** Set when the mail was given up after OUTBOX_MAX_ATTEMPTS attempts; the row is kept for the owner. */
    failedAt: timestamp("failed_at", { withTimezone: true, mode: "string" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [
    index("outbox_pending_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.sentAt} is null and ${table.failedAt} is null`),
  ],
);
