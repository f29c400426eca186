/**
 * Database tables (Drizzle, PostgreSQL dialect; PGlite or a PostgreSQL 15+
 * server). `contacts` keeps the first site's columns (spec section 3,
 * DESIGN.md section 7) plus `id` and `created_at`; `outbox` holds every mail
 * the site sends, rendered, written in the same transaction as what it announces.
 * Changing a table: edit here, then `npm run db:generate` writes the SQL
 * migration into `app/db/migrations/` (commit it); the server applies it at start.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

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

/**
 * One mail to deliver (app/mail/): every kind of mail the site sends goes
 * through this table. A row is written already rendered (`subject`,
 * `text_body`, `html_body`, `headers`: what was promised is what is sent),
 * in the transaction of what it announces. `recipient` null means the owner
 * (CONTACT_NOTIFY_TO, read when sending). `not_before` is the earliest time
 * it may leave (a reminder); `next_attempt_at` is the worker's own schedule
 * (claims, back-off), never earlier than `not_before`. Final states:
 * `sent_at` or `failed_at`. `payload` is only set on `contact-notification`
 * rows written before mails were rendered at write time: the worker renders
 * those when sending.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    contactId: bigint("contact_id", { mode: "number" }).references(() => contacts.id),
    /** Legacy rows only (see above); null on every row written since. */
    payload: jsonb("payload"),
    /** An e-mail address; null: the owner (CONTACT_NOTIFY_TO when sending). */
    recipient: text("recipient"),
    /** A Reply-To address, optionally with a display name (`"Name" <address>`). */
    replyTo: text("reply_to"),
    subject: text("subject"),
    textBody: text("text_body"),
    htmlBody: text("html_body"),
    /** Extra headers (e.g. List-Unsubscribe), name to value. */
    headers: jsonb("headers").$type<Record<string, string>>(),
    notBefore: timestamp("not_before", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
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
    index("outbox_contact_id_idx").on(table.contactId),
    check(
      "outbox_rendered_or_payload",
      sql`${table.payload} is not null or (${table.subject} is not null and ${table.textBody} is not null)`,
    ),
  ],
);
