/**
 * Letters for the post (app/letters/, migration 0027): the days the owner
 * marked a registration's letter as posted.
 */
import { bigint, bigserial, date, index, pgTable, timestamp } from "drizzle-orm/pg-core";
import { courseRegistrations } from "./courses";

/**
 * One letter posted to the person of registration `registration_id`, on
 * `sent_on` (an ISO date, Swiss time). Names no one: the name and the
 * address are the registration's; deleted with it.
 */
export const postalLetters = pgTable(
  "postal_letters",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    registrationId: bigint("registration_id", { mode: "number" })
      .notNull()
      .references(() => courseRegistrations.id, { onDelete: "cascade" }),
    sentOn: date("sent_on", { mode: "string" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [index("postal_letters_registration_idx").on(table.registrationId, table.id)],
);
