/**
 * The outbox: every mail the site sends, rendered, written in the same
 * transaction as what it announces (app/mail/, decision 013).
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { contacts } from "./contacts";
import { invoices } from "./invoices";
import { quotes } from "./quotes";

/** A file attached to an outbox mail: a text file (e.g. `cours.ics`, `text/calendar`), sent as nodemailer's attachment. */
export interface MailAttachment {
  filename: string;
  /** Its MIME type with the charset, e.g. `text/calendar; charset=utf-8; method=PUBLISH`. */
  contentType: string;
  content: string;
}

/** How an outbox row reaches its person: an e-mail, or an SMS (app/mail/sms.server.ts). */
export type OutboxChannel = "mail" | "sms";

/** A person an outbox mail names or is sent to (`outbox.named`); absent keys were not known. */
export interface NamedPerson {
  /** As typed: "Marie Dupont". */
  name?: string;
  /** Lower-cased. */
  email?: string;
  /** E.164. */
  phone?: string;
}

/**
 * One mail to deliver (app/mail/): every kind of mail the site sends goes
 * through this table. A row is written already rendered (`subject`,
 * `text_body`, `html_body`, `headers`: what was promised is what is sent),
 * in the transaction of what it announces. `recipient` null means the owner
 * (CONTACT_NOTIFY_TO, read when sending). `not_before` is the earliest time
 * it may leave (a reminder); `not_after`, when set, the time past which it
 * is no longer true (a reminder: the lesson's start), when the worker marks
 * it failed, never sent; `next_attempt_at` is the worker's own schedule
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
    /** `mail`, or `sms` (migration 0030): then `recipient` is a mobile number in E.164 and `text_body` the message. */
    channel: text("channel").$type<OutboxChannel>().notNull().default("mail"),
    contactId: bigint("contact_id", { mode: "number" }).references(() => contacts.id),
    /** The newsletter letter this mail carries, if any (one row per recipient and letter). */
    letterId: bigint("letter_id", { mode: "number" }),
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
    /** Files attached to the mail (a course's calendar file), their content as text. */
    attachments: jsonb("attachments").$type<MailAttachment[]>(),
    /** The invoice this mail carries (migration 0017): its PDF is rendered and attached when the mail is sent. */
    invoiceId: bigint("invoice_id", { mode: "number" }).references((): AnyPgColumn => invoices.id),
    /** The quote this mail carries (migration 0030): its PDF is rendered and attached when the mail is sent. */
    quoteId: bigint("quote_id", { mode: "number" }).references((): AnyPgColumn => quotes.id, { onDelete: "set null" }),
    /**
     * The people the mail names or is sent to, written with it (migration 0013): e-mail lower-cased,
     * telephone in E.164, name as typed ("Marie Dupont"); the erasure finds a person's mails by it.
     */
    named: jsonb("named").$type<NamedPerson[]>().notNull().default([]),
    notBefore: timestamp("not_before", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    /** Past this time the mail says something untrue (migration 0021): failed, never sent; null: never. */
    notAfter: timestamp("not_after", { withTimezone: true, mode: "string" }),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    lastError: text("last_error"),
    /**
     * Where the last failure came (migration 0025, app/mail/refusal.server.ts): recipient, message,
     * sender, connection, expired or other; with `error_code`, the SMTP reply code (550, 451…) if any.
     * What the desk says in French; no personal data (the address stays in `recipient` and `last_error`).
     */
    errorStage: text("error_stage"),
    errorCode: integer("error_code"),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "string" }),
    /** When the SMS provider's delivery receipt said the telephone received it (migration 0030); null for mails. */
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "string" }),
    /** Set when the mail was refused for good or given up after OUTBOX_MAX_ATTEMPTS attempts; the row is kept for the owner. */
    failedAt: timestamp("failed_at", { withTimezone: true, mode: "string" }),
    /** When the owner chose not to send this failed mail again (migration 0025): out of the desk's count. */
    dismissedAt: timestamp("dismissed_at", { withTimezone: true, mode: "string" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [
    index("outbox_pending_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.sentAt} is null and ${table.failedAt} is null`),
    // The worker's round with a letter's thousands of mails due (migration 0033): expired rows, claims by kind.
    index("outbox_expiring_idx")
      .on(table.notAfter)
      .where(sql`${table.sentAt} is null and ${table.failedAt} is null and ${table.notAfter} is not null`),
    index("outbox_pending_kind_idx")
      .on(table.kind, table.id)
      .where(sql`${table.sentAt} is null and ${table.failedAt} is null`),
    index("outbox_contact_id_idx").on(table.contactId),
    index("outbox_undelivered_idx")
      .on(table.failedAt)
      .where(sql`${table.failedAt} is not null and ${table.dismissedAt} is null`),
    index("outbox_named_idx").using("gin", sql`${table.named} jsonb_path_ops`),
    // A letter never goes twice to one address, whatever happens to the sending.
    uniqueIndex("outbox_letter_recipient_idx")
      .on(table.letterId, table.recipient)
      .where(sql`${table.letterId} is not null`),
    check("outbox_channel", sql`${table.channel} in ('mail', 'sms')`),
    check(
      "outbox_rendered_or_payload",
      sql`${table.payload} is not null or (${table.subject} is not null and ${table.textBody} is not null)`,
    ),
  ],
);
