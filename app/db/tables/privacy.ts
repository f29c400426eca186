/**
 * The breach log (« Journal des violations », app/privacy/; LPD art. 24,
 * OPDo art. 15 al. 4: documented and kept at least two years after the
 * notification; migration 0027). Written by the owner on the desk; never
 * deleted by the retention job; holds categories and counts, never a name.
 */
import { sql } from "drizzle-orm";
import { bigserial, boolean, check, date, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** One breach of data security, as the owner documented it. Dates are calendar days (ISO strings). */
export const dataBreaches = pgTable(
  "data_breaches",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    discoveredOn: date("discovered_on", { mode: "string" }).notNull(),
    /** When it happened, when known. */
    occurredOn: date("occurred_on", { mode: "string" }),
    whatHappened: text("what_happened").notNull(),
    dataConcerned: text("data_concerned").notNull(),
    peopleConcerned: text("people_concerned").notNull(),
    /** How many people, when known. */
    peopleCount: integer("people_count"),
    /** Whether the risk for the people is likely high (LPD art. 24 al. 1: then the FDPIC must be told). */
    highRisk: boolean("high_risk").notNull(),
    riskAssessment: text("risk_assessment").notNull(),
    measures: text("measures").notNull(),
    /** When the FDPIC (PFPDT) was told; null: not told. */
    fdpicToldOn: date("fdpic_told_on", { mode: "string" }),
    /** When the people concerned were told; null: not told. */
    peopleToldOn: date("people_told_on", { mode: "string" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [
    check("data_breaches_people_count", sql`${table.peopleCount} is null or ${table.peopleCount} >= 0`),
    check("data_breaches_occurred", sql`${table.occurredOn} is null or ${table.occurredOn} <= ${table.discoveredOn}`),
  ],
);
