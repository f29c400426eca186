/**
 * The owner's desk: Better Auth's tables, the site's secrets, rate limits,
 * the audit log, what the desk has seen, and the tokens in links.
 */
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

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
