/**
 * The newsletter (app/newsletter/): subscribers and letters.
 */
import { sql } from "drizzle-orm";
import { bigserial, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// --- The newsletter (app/newsletter/).

/**
 * A subscriber: pending until the confirmation link is followed (double
 * opt-in), confirmed, or unsubscribed. The consent is proven by the text's
 * version and the times of the request and of the confirmation.
 */
export const newsletterSubscribers = pgTable(
  "newsletter_subscribers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** Lower-cased. */
    email: text("email").notNull().unique(),
    /** pending, confirmed or unsubscribed. */
    status: text("status").notNull().default("pending"),
    /** Where the request came from: home, blog, article, newsletter, contact. */
    source: text("source").notNull(),
    /** The version of the consent text shown (app/newsletter/consent.ts). */
    consentVersion: text("consent_version").notNull(),
    /** When the address was typed (the latest request). */
    requestedAt: timestamp("requested_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    /** When the latest confirmation mail was written (a second request within 10 minutes sends none). */
    confirmationSentAt: timestamp("confirmation_sent_at", { withTimezone: true, mode: "string" }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "string" }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true, mode: "string" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [
    index("newsletter_subscribers_status_idx").on(table.status),
    index("newsletter_subscribers_confirmed_idx")
      .on(table.confirmedAt)
      .where(sql`${table.status} = 'confirmed'`),
    index("newsletter_subscribers_created_idx").on(table.createdAt, table.id),
    // The desk's search by a part of the address (migration 0037, pg_trgm).
    index("newsletter_subscribers_email_trgm_idx")
      .using("gin", table.email.op("gin_trgm_ops"))
      .with({ fastupdate: false }),
  ],
);

/** A letter written in the desk: a draft, then sent (and shown in the public archive). */
export const newsletterLetters = pgTable("newsletter_letters", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  subject: text("subject").notNull(),
  /** The letter in Markdown, as the owner wrote it. */
  body: text("body").notNull(),
  /** The archive's address: `/newsletter/archives/{slug}`, set when sent. */
  slug: text("slug").unique(),
  /** How many confirmed subscribers it was written for. */
  recipients: integer("recipients"),
  sentAt: timestamp("sent_at", { withTimezone: true, mode: "string" }),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});
