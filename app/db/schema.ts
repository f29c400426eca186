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
  customType,
  boolean,
  date,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

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

/** A file attached to an outbox mail: a text file (e.g. `cours.ics`, `text/calendar`), sent as nodemailer's attachment. */
export interface MailAttachment {
  filename: string;
  /** Its MIME type with the charset, e.g. `text/calendar; charset=utf-8; method=PUBLISH`. */
  contentType: string;
  content: string;
}

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
    /**
     * The people the mail names or is sent to, written with it (migration 0013): e-mail lower-cased,
     * telephone in E.164, name as typed ("Marie Dupont"); the erasure finds a person's mails by it.
     */
    named: jsonb("named").$type<NamedPerson[]>().notNull().default([]),
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
    index("outbox_named_idx").using("gin", sql`${table.named} jsonb_path_ops`),
    // A letter never goes twice to one address, whatever happens to the sending.
    uniqueIndex("outbox_letter_recipient_idx")
      .on(table.letterId, table.recipient)
      .where(sql`${table.letterId} is not null`),
    check(
      "outbox_rendered_or_payload",
      sql`${table.payload} is not null or (${table.subject} is not null and ${table.textBody} is not null)`,
    ),
  ],
);

// --- The owner's desk: Better Auth's tables (model names user, session, account, verification,
// twoFactor; property names are Better Auth's field names), app/desk/auth.server.ts.

const authTimestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

/** An owner account (made by `npm run owner:add`; there is no public sign-up). */
export const deskUser = pgTable("desk_user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  twoFactorEnabled: boolean("two_factor_enabled").default(false),
  ...authTimestamps,
});

/** A signed-in browser: the cookie holds `token`. Deleting the account deletes its sessions. */
export const deskSession = pgTable(
  "desk_session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => deskUser.id, { onDelete: "cascade" }),
    ...authTimestamps,
  },
  (table) => [index("desk_session_user_idx").on(table.userId)],
);

/** The password (hashed by Better Auth: scrypt) of an account. */
export const deskAccount = pgTable(
  "desk_account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => deskUser.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    ...authTimestamps,
  },
  (table) => [index("desk_account_user_idx").on(table.userId)],
);

/** Short-lived values of the sign-in (the pending second step, its attempts). */
export const deskVerification = pgTable(
  "desk_verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...authTimestamps,
  },
  (table) => [index("desk_verification_identifier_idx").on(table.identifier)],
);

/** The TOTP secret and the recovery codes of an account (both encrypted with the auth secret). */
export const deskTwoFactor = pgTable(
  "desk_two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => deskUser.id, { onDelete: "cascade" }),
    verified: boolean("verified").default(true),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (table) => [index("desk_two_factor_user_idx").on(table.userId)],
);

/**
 * TOTP codes already accepted, per account: a code is valid for about 90 s
 * (one step either side), and must not open a second session (RFC 6238
 * section 5.2). Rows older than a few minutes are deleted.
 */
export const deskUsedTotp = pgTable(
  "desk_used_totp",
  {
    userId: text("user_id")
      .notNull()
      .references(() => deskUser.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.code] })],
);

/** Secrets the server generates once and keeps (the auth secret when AUTH_SECRET is not set). */
export const siteSecrets = pgTable("site_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Rate-limit counters shared by every server process (rate-limiter-flexible's
 * Drizzle store: `key`, `points`, `expire`): public actions per address,
 * failed sign-ins per account and per address.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull(),
  expire: timestamp("expire", { withTimezone: true }),
});

/**
 * What happened in the desk, without personal data: sign-ins, failed
 * sign-ins, sign-outs, erasures (how many rows), retention runs.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    /** The owner account's id, when known. */
    actor: text("actor"),
    action: text("action").notNull(),
    /** Counts and kinds only (e.g. `{ "contacts": 2, "outbox": 3 }`). */
    details: jsonb("details"),
  },
  (table) => [index("audit_log_at_idx").on(table.at)],
);

/**
 * When the owner last opened the page listing each kind the desk's badges
 * count (`registrations`: /admin/cours; `subscriptions`: /admin/lettres and
 * /admin/abonnes): what came after is "new" (app/desk/live.server.ts,
 * migration 0016). One row per kind, no personal data.
 */
export const deskSeen = pgTable(
  "desk_seen",
  {
    kind: text("kind").primaryKey(),
    seenAt: timestamp("seen_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [check("desk_seen_kind", sql`${table.kind} in ('registrations', 'subscriptions')`)],
);

// --- Tokens in links (app/tokens/tokens.server.ts): random, stored hashed, single-purpose, expiring.

/** A token sent in a link: only its SHA-256 is stored; `subject` names what it acts on (a subscriber's id...). */
export const linkTokens = pgTable(
  "link_tokens",
  {
    hash: text("hash").primaryKey(),
    purpose: text("purpose").notNull(),
    subject: text("subject").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "string" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "string" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [index("link_tokens_subject_idx").on(table.purpose, table.subject)],
);

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
  (table) => [index("newsletter_subscribers_status_idx").on(table.status)],
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
// --- Courses people can book (app/courses/).

/**
 * A series: the dated sessions of one course sold together ("4 séances de
 * 1h30"; migration 0018, docs/decisions/027-course-series.md). Its sessions
 * name it (`course_sessions.series_id`); a registration for it names it too
 * and takes its seats on every one of them.
 */
export const courseSeries = pgTable("course_series", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  courseId: text("course_id").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

/**
 * A dated session of a course (`course_id`: an id of app/content/courses.ts,
 * also the slug of `/cours/{slug}`). `starts_at` is stored in UTC and shown
 * in Europe/Zurich. `seats_taken` counts the confirmed seats: every booking
 * changes it under the row's lock (app/courses/booking.server.ts), and the
 * check keeps it within `capacity` whatever the concurrency. The state is
 * derived: annulée (`cancelled_at`), passée (started), complète (no seat
 * left), ouverte.
 */
export const courseSessions = pgTable(
  "course_sessions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    courseId: text("course_id").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true, mode: "string" }).notNull(),
    durationMinutes: integer("duration_minutes").notNull(),
    placeName: text("place_name").notNull(),
    placeAddress: text("place_address").notNull(),
    /** Floor, lift, parking, public transport: free text, shown as written. */
    placeAccess: text("place_access").notNull().default(""),
    capacity: integer("capacity").notNull().default(8),
    minimum: integer("minimum").notNull().default(4),
    /** Whole francs (CHF 55.–). */
    priceChf: integer("price_chf").notNull(),
    seatsTaken: integer("seats_taken").notNull().default(0),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true, mode: "string" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    /** The series this session is one date of; null for a single-date session (a Café numérique, a talk). */
    seriesId: bigint("series_id", { mode: "number" }).references(() => courseSeries.id, { onDelete: "cascade" }),
  },
  (table) => [
    index("course_sessions_starts_idx").on(table.startsAt),
    index("course_sessions_series_idx").on(table.seriesId, table.id),
    check("course_sessions_seats", sql`${table.seatsTaken} >= 0 and ${table.seatsTaken} <= ${table.capacity}`),
    check("course_sessions_capacity", sql`${table.capacity} between 1 and 100 and ${table.minimum} >= 0`),
  ],
);

/**
 * One registration for a session: `confirmed` (its `seats` count in the
 * session's `seats_taken`), `waiting` (the waiting list, in `id` order) or
 * `cancelled`. The attendee's name and telephone are required, e-mail
 * optional; `booker_*` are set when someone registers a relative (both get
 * the mails). Telephones are also stored in E.164 to find a person's rows.
 * The registration's link (the confirmation page, its calendar file and
 * its cancellation) is a row of `link_tokens` (purpose
 * `course-registration`, subject the registration's id; migration 0007
 * moved the former `token_hash` there). `reminder_mail_ids` are the scheduled reminders in the
 * outbox, deleted when the registration is cancelled; `mail_ids` every mail
 * about it (erased with the person, app/courses/person.server.ts).
 */
export const courseRegistrations = pgTable(
  "course_registrations",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    sessionId: bigint("session_id", { mode: "number" })
      .notNull()
      .references(() => courseSessions.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    seats: integer("seats").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    phone: text("phone").notNull(),
    phoneE164: text("phone_e164"),
    email: text("email"),
    bookerFirstName: text("booker_first_name"),
    bookerLastName: text("booker_last_name"),
    bookerPhone: text("booker_phone"),
    bookerPhoneE164: text("booker_phone_e164"),
    bookerEmail: text("booker_email"),
    /** When the relative who registered the attendee was erased (their fields are then null; the seat stays). */
    bookerErasedAt: timestamp("booker_erased_at", { withTimezone: true, mode: "string" }),
    message: text("message"),
    /** The code word the owner says when he calls (app/trust/code-word.server.ts); null on rows stored before it. */
    codeWord: text("code_word"),
    /**
     * The key of the day of the client address the form was posted from (app/courses/limits.server.ts):
     * counts the seats one address takes in a day and flags bursts in the desk; null when taken in the desk.
     */
    clientKey: text("client_key"),
    /** `web` (the public form) or `desk` (taken by telephone by the owner). */
    source: text("source").notNull().default("web"),
    /** The scheduled reminders (one per address) in `outbox`. */
    reminderMailIds: bigint("reminder_mail_ids", { mode: "number" })
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** Every `outbox` row about this registration (they carry the person's name): erased with it. */
    mailIds: bigint("mail_ids", { mode: "number" })
      .array()
      .notNull()
      .default(sql`'{}'`),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true, mode: "string" }),
    /**
     * The series registered for (then `session_id` is the series' first session, its anchor, and the seats
     * count on every session of the series); null for a single-date registration.
     */
    seriesId: bigint("series_id", { mode: "number" }).references(() => courseSeries.id, { onDelete: "cascade" }),
  },
  (table) => [
    index("course_registrations_session_idx").on(table.sessionId, table.id),
    index("course_registrations_series_idx").on(table.seriesId, table.id),
    index("course_registrations_email_idx").on(sql`lower(${table.email})`),
    index("course_registrations_booker_email_idx").on(sql`lower(${table.bookerEmail})`),
    index("course_registrations_phone_idx").on(table.phoneE164),
    index("course_registrations_booker_phone_idx").on(table.bookerPhoneE164),
    index("course_registrations_client_idx")
      .on(table.clientKey)
      .where(sql`${table.clientKey} is not null`),
    check("course_registrations_status", sql`${table.status} in ('confirmed', 'waiting', 'cancelled')`),
    check("course_registrations_seats", sql`${table.seats} between 1 and 2`),
  ],
);

/** What the owner ticks for one person on one date (French words: app/courses/attendance.ts). */
export type AttendanceState = "present" | "absent" | "excused";

/**
 * Who came to which date (issue 22, item 2): one row per registration and
 * session once the owner ticked it on the attendance list (no row: not
 * ticked yet). Personal data by its registration: deleted with it.
 */
export const courseAttendance = pgTable(
  "course_attendance",
  {
    registrationId: bigint("registration_id", { mode: "number" })
      .notNull()
      .references(() => courseRegistrations.id, { onDelete: "cascade" }),
    sessionId: bigint("session_id", { mode: "number" })
      .notNull()
      .references(() => courseSessions.id, { onDelete: "cascade" }),
    state: text("state").$type<AttendanceState>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: "course_attendance_pk", columns: [table.registrationId, table.sessionId] }),
    index("course_attendance_session_idx").on(table.sessionId),
    check("course_attendance_state", sql`${table.state} in ('present', 'absent', 'excused')`),
  ],
);

// --- Blog articles (app/blog/, docs/decisions/023-articles-in-the-database.md).

/**
 * A blog article: written in the desk, or imported from
 * `app/content/blog/{slug}.md` (`source_file`, with the SHA-256 of the file
 * as imported in `source_hash`; such a row follows its file until the owner
 * edits it in the desk, `edited_in_desk`). `body` is Markdown; `date` and
 * `updated` are ISO dates ("2024-11-15") shown on the page; the article is
 * public once `published_at` has passed (future: scheduled; NULL: a draft
 * or unpublished). `icon` and `color` name an icon of app/components/icon.tsx
 * and a theme colour; `read_time` is in minutes.
 */
export const articles = pgTable(
  "articles",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull(),
    category: text("category").notNull(),
    author: text("author").notNull(),
    body: text("body").notNull(),
    icon: text("icon").notNull(),
    color: text("color").notNull(),
    featured: boolean("featured").notNull().default(false),
    video: text("video"),
    readTime: integer("read_time").notNull(),
    date: text("date").notNull(),
    updated: text("updated"),
    publishedAt: timestamp("published_at", { withTimezone: true, mode: "string" }),
    sourceFile: text("source_file"),
    sourceHash: text("source_hash"),
    editedInDesk: boolean("edited_in_desk").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [index("articles_published_at_idx").on(table.publishedAt)],
);

// --- Pictures uploaded in the desk (app/pictures/).

/** Binary data (PostgreSQL `bytea`), read and written as a Node Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A picture uploaded in the desk: its French description (`alt`), the size
 * in pixels of its largest variant, the size of the file sent, and `hash`
 * (12 hex digits of the SHA-256 of that file), part of its files' addresses
 * (`/images/{id}-{hash}-{width}.{avif|webp}`), so that a new picture never
 * takes an old address.
 */
export const pictures = pgTable("pictures", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  hash: text("hash").notNull(),
  alt: text("alt").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  originalBytes: integer("original_bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

/** One file made from a picture: AVIF or WebP at one width (pixels), its bytes. */
export const pictureFiles = pgTable(
  "picture_files",
  {
    pictureId: bigint("picture_id", { mode: "number" })
      .notNull()
      .references(() => pictures.id, { onDelete: "cascade" }),
    format: text("format").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    bytes: bytea("bytes").notNull(),
  },
  (table) => [primaryKey({ name: "picture_files_pk", columns: [table.pictureId, table.format, table.width] })],
);

/** Which picture, with which description, fills a slot of the home page ("hero", "portrait"). */
export const sitePictures = pgTable("site_pictures", {
  slot: text("slot").primaryKey(),
  pictureId: bigint("picture_id", { mode: "number" })
    .notNull()
    .references(() => pictures.id),
  alt: text("alt").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

// --- Invoices (app/invoices/, docs/decisions/026-invoices-and-qr-bill.md; migration 0017).

/** The last invoice number given in a year: taken under this row's lock, never given twice, never reused. */
export const invoiceNumbers = pgTable(
  "invoice_numbers",
  {
    year: integer("year").primaryKey(),
    last: integer("last").notNull(),
  },
  (table) => [check("invoice_numbers_last", sql`${table.last} >= 1`)],
);

/** One line of an invoice: what, how many (hours, lessons; up to two decimals), the unit price in centimes. */
export interface InvoiceLine {
  label: string;
  quantity: number;
  unitCentimes: number;
}

/**
 * The owner as an invoice shows them, copied into it when it was made (app/invoices/creditor.server.ts);
 * the address as the QR-bill's structured address (type "S") wants it.
 */
export interface InvoiceCreditor {
  /** The name on the invoice and the QR-bill (the business name, at most 70 characters). */
  name: string;
  street: string;
  buildingNumber: string | null;
  postalCode: string;
  locality: string;
  /** ISO 3166 two-letter code ("CH"). */
  country: string;
  /** IBAN or QR-IBAN, normalized (no spaces). */
  iban: string;
  /** Whether `iban` is a QR-IBAN (a QR reference is then required). */
  qrIban: boolean;
  /** The enterprise number (CHE-…) when there is one. */
  uid: string | null;
  email: string;
  phone: string;
  /** false: not subject to VAT (the default). */
  vatSubject: boolean;
  /** The VAT line of the invoice. */
  vatMention: string;
}

/**
 * An invoice: its number ("2026-001", `year` and `sequence`), the client (a
 * person or an organisation, with a postal address; e-mail and telephone to
 * send it), its lines and total in centimes, the dates (`issued_on`,
 * `due_on`, ISO dates), the QR-bill's reference (QRR or SCOR), the creditor
 * as it was then. States: `open`, `paid` (`paid_on`, `paid_by`: virement,
 * twint, especes), `cancelled` (keeps its number). Made from a registration
 * or a contact request (`registration_id`, `contact_id`, set null when those
 * are erased) or from scratch. Kept 10 years (CO art. 958f) even when its
 * client asks for erasure: the e-mail and telephone then go.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    year: integer("year").notNull(),
    sequence: integer("sequence").notNull(),
    number: text("number").notNull().unique("invoices_number_unique"),
    status: text("status").notNull().default("open"),
    /** person or organisation. */
    clientKind: text("client_kind").notNull(),
    clientName: text("client_name").notNull(),
    /** For an organisation: "à l’attention de" (a person's name); else null. */
    clientAttention: text("client_attention"),
    street: text("street").notNull(),
    buildingNumber: text("building_number"),
    postalCode: text("postal_code").notNull(),
    locality: text("locality").notNull(),
    country: text("country").notNull().default("CH"),
    email: text("email"),
    phone: text("phone"),
    phoneE164: text("phone_e164"),
    lines: jsonb("lines").$type<InvoiceLine[]>().notNull(),
    totalCentimes: integer("total_centimes").notNull(),
    issuedOn: date("issued_on", { mode: "string" }).notNull(),
    dueOn: date("due_on", { mode: "string" }).notNull(),
    reference: text("reference").notNull(),
    creditor: jsonb("creditor").$type<InvoiceCreditor>().notNull(),
    registrationId: bigint("registration_id", { mode: "number" }).references(() => courseRegistrations.id, {
      onDelete: "set null",
    }),
    contactId: bigint("contact_id", { mode: "number" }).references(() => contacts.id, { onDelete: "set null" }),
    paidOn: date("paid_on", { mode: "string" }),
    paidBy: text("paid_by"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true, mode: "string" }),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "string" }),
    remindedAt: timestamp("reminded_at", { withTimezone: true, mode: "string" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [
    unique("invoices_year_sequence_unique").on(table.year, table.sequence),
    index("invoices_email_idx").on(sql`lower(${table.email})`),
    index("invoices_phone_idx").on(table.phoneE164),
    index("invoices_status_due_idx").on(table.status, table.dueOn),
    check("invoices_status", sql`${table.status} in ('open', 'paid', 'cancelled')`),
    check("invoices_client_kind", sql`${table.clientKind} in ('person', 'organisation')`),
    check("invoices_total", sql`${table.totalCentimes} > 0 and ${table.totalCentimes} <= 100000000`),
    check(
      "invoices_paid",
      sql`(${table.status} = 'paid') = (${table.paidOn} is not null and ${table.paidBy} is not null)`,
    ),
    check("invoices_paid_by", sql`${table.paidBy} is null or ${table.paidBy} in ('virement', 'twint', 'especes')`),
    check("invoices_due", sql`${table.dueOn} >= ${table.issuedOn}`),
  ],
);

/**
 * Réglages (migration 0015, decision 024): one row per section of the owner's settings
 * (`app/settings/schema.ts`), its value the section as the desk validated it; no row = the
 * content files' default. A trigger announces "settings" to every process's render cache.
 */
export const siteSettings = pgTable("site_settings", {
  section: text("section").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

/**
 * The share image of a published article (1200×630 PNG, `app/seo/share-card.server.tsx`), made when it is
 * published or when what it shows changes; `source` is the hash of what it shows, part of its address
 * (`/og/articles/{slug}-{source}.png`). Deleted with its article. Decision 029.
 */
export const articleShareImages = pgTable("article_share_images", {
  articleId: bigint("article_id", { mode: "number" })
    .primaryKey()
    .references(() => articles.id, { onDelete: "cascade" }),
  source: text("source").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

// --- Limits on what one person can book (app/guards/daily-key.server.ts, decision 028).

/** One random salt per day (Europe/Zurich); deleted after two days, and with it any way back from a key. */
export const dailySalts = pgTable("daily_salts", {
  day: date("day", { mode: "string" }).primaryKey(),
  salt: text("salt").notNull(),
});

/**
 * Mails written by public actions to one address on one day (app/mail/recipient-cap.server.ts), by the
 * address's key of the day; `held`: those not written past MAILS_PER_RECIPIENT_PER_DAY.
 */
export const recipientMailDays = pgTable(
  "recipient_mail_days",
  {
    day: date("day", { mode: "string" }).notNull(),
    recipientKey: text("recipient_key").notNull(),
    queued: integer("queued").notNull().default(0),
    held: integer("held").notNull().default(0),
  },
  (table) => [primaryKey({ name: "recipient_mail_days_pk", columns: [table.day, table.recipientKey] })],
);
