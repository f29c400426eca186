/**
 * Per-year numbering (DESIGN.md section 9, « Money »): invoices
 * (« 2026-001 ») and quotes (« D-2026-001 ») take the next number of their
 * year from a counter table of their own (`year`, `last`), in the
 * transaction that writes the document. The counter's row is locked by the
 * upsert until that transaction ends: two documents never get one number,
 * and a number once taken is never given again.
 */
import { sql } from "drizzle-orm";
import type { Database } from "./client.server";
import type { invoiceNumbers, quoteNumbers } from "./schema";

/** A counter table: one row per year, `last` the last number given. */
export type YearCounter = typeof invoiceNumbers | typeof quoteNumbers;

/**
 * The next number of `year` in `counter` (1 for the year's first), taken in
 * `tx`. @throws the driver's error.
 */
export async function nextInYear(tx: Database, counter: YearCounter, year: number): Promise<number> {
  const [taken] = await tx
    .insert(counter)
    .values({ year, last: 1 })
    .onConflictDoUpdate({ target: counter.year, set: { last: sql`${counter.last} + 1` } })
    .returning({ last: counter.last });
  return taken!.last;
}
