/**
 * Limits on what one person can book or be mailed (app/guards/daily-key.server.ts, decision 028).
 */
import { date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

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
