/**
 * Courses people can book (app/courses/): series, sessions, registrations, attendance.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  type AnyPgColumn,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

// --- Courses people can book (app/courses/).

/** How a course is paid (migration 0023): on the day, by invoice, or as the person chooses (words: app/content/payment.ts). */
export type PaymentMode = "sur-place" | "facture" | "au-choix";

/** How one registration pays. */
export type PaysBy = "sur-place" | "facture";

/** What the owner ticks for one person on one date (French words: app/courses/attendance.ts). */
export type AttendanceState = "present" | "absent" | "excused";

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
    /**
     * How the course is paid (migration 0023, decision 035): `sur-place`, `facture` or `au-choix` (the
     * person chooses when booking); a series: the same on each of its dates. Words: app/content/payment.ts.
     */
    payment: text("payment").$type<PaymentMode>().notNull().default("sur-place"),
    /**
     * A closed group's session (migration 0030, app/quotes/): made from an accepted quote, never listed on
     * `/cours` nor booked there (`listSessions` leaves it out unless asked).
     */
    closed: boolean("closed").notNull().default(false),
  },
  (table) => [
    index("course_sessions_starts_idx").on(table.startsAt),
    index("course_sessions_series_idx").on(table.seriesId, table.id),
    check("course_sessions_seats", sql`${table.seatsTaken} >= 0 and ${table.seatsTaken} <= ${table.capacity}`),
    check("course_sessions_capacity", sql`${table.capacity} between 1 and 100 and ${table.minimum} >= 0`),
    check("course_sessions_payment", sql`${table.payment} in ('sur-place', 'facture', 'au-choix')`),
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
    /** How this registration pays (migration 0023): `sur-place`, or `facture` (then the postal address below is set). */
    paysBy: text("pays_by").$type<PaysBy>().notNull().default("sur-place"),
    /**
     * The postal address: where the invoice goes (« sur facture »), or a letter for the post (the desk fills it for
     * someone without e-mail, app/letters/): street and number, Swiss NPA (4 digits), locality.
     */
    postalStreet: text("postal_street"),
    postalCode: text("postal_code"),
    postalLocality: text("postal_locality"),
    /** Whether the person agreed to an SMS reminder at `phone` (the form's checkbox, or the owner for a telephone registration; migration 0030). */
    smsConsent: boolean("sms_consent").notNull().default(false),
  },
  (table) => [
    index("course_registrations_session_idx").on(table.sessionId, table.id),
    index("course_registrations_series_idx").on(table.seriesId, table.id),
    index("course_registrations_email_idx").on(sql`lower(${table.email})`),
    index("course_registrations_booker_email_idx").on(sql`lower(${table.bookerEmail})`),
    index("course_registrations_phone_idx").on(table.phoneE164),
    index("course_registrations_booker_phone_idx").on(table.bookerPhoneE164),
    index("course_registrations_web_created_idx")
      .on(table.createdAt)
      .where(sql`${table.source} = 'web'`),
    index("course_registrations_waiting_idx")
      .on(table.sessionId)
      .where(sql`${table.status} = 'waiting'`),
    index("course_registrations_client_idx")
      .on(table.clientKey)
      .where(sql`${table.clientKey} is not null`),
    check("course_registrations_status", sql`${table.status} in ('confirmed', 'waiting', 'cancelled')`),
    check("course_registrations_seats", sql`${table.seats} between 1 and 2`),
    check("course_registrations_pays_by", sql`${table.paysBy} in ('sur-place', 'facture')`),
  ],
);

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

/**
 * Why the owner must call someone: a date moved, a session (or one date of a
 * series) cancelled, a freed seat offered (no e-mail, no SMS), or a reminder
 * whose SMS the per-number daily cap held.
 */
export type CallReason = "moved" | "cancelled" | "offer" | "reminder";

/**
 * The « à appeler » list (issue 33, item 2): one row per registration
 * without e-mail told nothing of a change to session `session_id` (the
 * date moved or cancelled), kept on that session's desk page until the
 * owner ticks « appelé·e » (`called_at`). The name and telephone are read
 * from the registration: personal data by it, deleted with it.
 */
export const courseCalls = pgTable(
  "course_calls",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    sessionId: bigint("session_id", { mode: "number" })
      .notNull()
      .references(() => courseSessions.id, { onDelete: "cascade" }),
    registrationId: bigint("registration_id", { mode: "number" })
      .notNull()
      .references(() => courseRegistrations.id, { onDelete: "cascade" }),
    reason: text("reason").$type<CallReason>().notNull(),
    /** The offer a call of reason `offer` is about (its hold's end is shown); null otherwise. */
    offerId: bigint("offer_id", { mode: "number" }).references((): AnyPgColumn => courseOffers.id, {
      onDelete: "cascade",
    }),
    /** True when the line is there because the daily cap held an SMS to the person (migration 0034). */
    smsHeld: boolean("sms_held").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    calledAt: timestamp("called_at", { withTimezone: true, mode: "string" }),
  },
  (table) => [
    index("course_calls_session_idx").on(table.sessionId, table.id),
    index("course_calls_registration_idx").on(table.registrationId),
    index("course_calls_pending_idx")
      .on(table.sessionId)
      .where(sql`${table.calledAt} is null`),
    check("course_calls_reason", sql`${table.reason} in ('moved', 'cancelled', 'offer', 'reminder')`),
  ],
);

/** Where an offer of a freed seat stands (French words: app/courses/offers.ts). */
export type OfferState = "open" | "accepted" | "declined" | "expired" | "withdrawn";

/**
 * How an offer reaches the person: by mail (her links), by SMS (her link, no
 * e-mail), or on the owner's list of calls (neither, or the SMS cap held it).
 */
export type OfferChannel = "mail" | "sms" | "call";

/**
 * A freed seat offered to a person of the waiting list (issue 30, item 1;
 * migration 0027, decision 049): held for her until `hold_until`, then
 * `accepted` (her registration confirmed), `declined` (she left the list),
 * `expired` (no answer in time: she left the list, the next is offered) or
 * `withdrawn` (the session was cancelled, its seats lowered, or the owner
 * gave the seat to someone else: she stays on the list). At most one open
 * offer per registration. `session_id` is the registration's (a series'
 * anchor). Names no one: personal data by its registration, deleted with it.
 */
export const courseOffers = pgTable(
  "course_offers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    registrationId: bigint("registration_id", { mode: "number" })
      .notNull()
      .references(() => courseRegistrations.id, { onDelete: "cascade" }),
    sessionId: bigint("session_id", { mode: "number" })
      .notNull()
      .references(() => courseSessions.id, { onDelete: "cascade" }),
    seats: integer("seats").notNull(),
    state: text("state").$type<OfferState>().notNull().default("open"),
    channel: text("channel").$type<OfferChannel>().notNull(),
    offeredAt: timestamp("offered_at", { withTimezone: true, mode: "string" }).notNull(),
    holdUntil: timestamp("hold_until", { withTimezone: true, mode: "string" }).notNull(),
    /** When it stopped being open (answered, expired or withdrawn). */
    closedAt: timestamp("closed_at", { withTimezone: true, mode: "string" }),
    /** Who closed it: `person` (her link), `owner` (the desk) or `job` (expiry, withdrawal). */
    closedBy: text("closed_by"),
  },
  (table) => [
    uniqueIndex("course_offers_open_idx")
      .on(table.registrationId)
      .where(sql`${table.state} = 'open'`),
    index("course_offers_session_idx").on(table.sessionId, table.id),
    index("course_offers_due_idx")
      .on(table.holdUntil)
      .where(sql`${table.state} = 'open'`),
    check("course_offers_state", sql`${table.state} in ('open', 'accepted', 'declined', 'expired', 'withdrawn')`),
    check("course_offers_channel", sql`${table.channel} in ('mail', 'sms', 'call')`),
    check("course_offers_seats", sql`${table.seats} between 1 and 2`),
  ],
);

/** What came of a course's go/no-go (French words: app/courses/go-no-go.server.ts). */
export type GoNoGoState = "met" | "below" | "kept" | "cancelled" | "lapsed";

/**
 * The go/no-go of a course (issue 30, item 3; migration 0030, decision
 * 052): one row per group (`session_id`: the single session, or a series'
 * anchor) once its go/no-go time passed, for its first date then
 * (`first_start`): the confirmed seats and the minimum at the check, and
 * the state: `met`, `below` (the owner must decide: the desk's badge),
 * `kept`, `cancelled`, `lapsed` (the course began undecided). Names no one.
 */
export const courseGoNoGo = pgTable(
  "course_go_no_go",
  {
    sessionId: bigint("session_id", { mode: "number" })
      .primaryKey()
      .references(() => courseSessions.id, { onDelete: "cascade" }),
    firstStart: timestamp("first_start", { withTimezone: true, mode: "string" }).notNull(),
    checkedAt: timestamp("checked_at", { withTimezone: true, mode: "string" }).notNull(),
    seats: integer("seats").notNull(),
    minimum: integer("minimum").notNull(),
    state: text("state").$type<GoNoGoState>().notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "string" }),
  },
  (table) => [
    index("course_go_no_go_below_idx")
      .on(table.sessionId)
      .where(sql`${table.state} = 'below'`),
    check("course_go_no_go_state", sql`${table.state} in ('met', 'below', 'kept', 'cancelled', 'lapsed')`),
  ],
);
