/**
 * Editing a draft quote (issue 31; decision 058): while a quote is
 * « brouillon », the owner changes its organisation, lines, dates and
 * planned session through the form that made it (app/quotes/form.server.ts);
 * once sent (or decided) it is frozen: what the organisation received is
 * what the desk keeps.
 *
 * - `quoteFormValues(quote)`: the form's fields as the quote holds them.
 * - `updateDraftQuote(db, id, draft)`: rewrites a draft, keeping its number.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { quotes } from "~/db/schema";
import { utcToZurich } from "~/utils/zurich-time.server";
import { getQuote, quoteColumns, type Quote, type QuoteDraft } from "./quotes.server";

/** Centimes as the form's price field shows them: « 95 », « 142.50 ». */
const francsTyped = (centimes: number) => (centimes % 100 === 0 ? String(centimes / 100) : (centimes / 100).toFixed(2));

/** The quote form's fields (names of app/quotes/form.server.ts) filled from `quote`. */
export function quoteFormValues(quote: Quote): Record<string, string> {
  const { date, time } = utcToZurich(new Date(quote.startsAt));
  const values: Record<string, string> = {
    clientKind: "organisation",
    clientName: quote.clientName,
    clientAttention: quote.clientAttention ?? "",
    street: quote.street,
    buildingNumber: quote.buildingNumber ?? "",
    postalCode: quote.postalCode,
    locality: quote.locality,
    country: quote.country,
    email: quote.email ?? "",
    phone: quote.phone ?? "",
    issuedOn: quote.issuedOn,
    dueOn: quote.validUntil,
    contactId: quote.contactId ? String(quote.contactId) : "",
    groupSize: quote.groupSize ? String(quote.groupSize) : "",
    courseId: quote.courseId,
    sessionDate: date,
    sessionTime: time,
    durationMinutes: String(quote.durationMinutes),
    placeName: quote.placeName,
    placeAddress: quote.placeAddress,
  };
  for (const [index, line] of quote.lines.entries()) {
    values[`label-${index}`] = line.label;
    values[`quantity-${index}`] = String(line.quantity);
    values[`price-${index}`] = francsTyped(line.unitCentimes);
  }
  return values;
}

/**
 * Rewrites draft quote `id` with `draft` (its number, creditor and history
 * stay). The quote's date stays in its number's year (« D-2026-004 » is
 * not dated 2027). A quote that is no longer a draft is left as it is.
 * @returns "saved", "not-draft", "other-year" or "not-found". @throws the driver's error.
 */
export async function updateDraftQuote(
  db: Database,
  id: number,
  draft: QuoteDraft,
): Promise<"saved" | "not-draft" | "other-year" | "not-found"> {
  const year = Number(draft.issuedOn.slice(0, 4));
  const saved = await db
    .update(quotes)
    .set(quoteColumns(draft))
    .where(and(eq(quotes.id, id), eq(quotes.status, "draft"), eq(quotes.year, year)))
    .returning({ id: quotes.id });
  if (saved.length) return "saved";
  const quote = await getQuote(db, id);
  if (!quote) return "not-found";
  return quote.status === "draft" ? "other-year" : "not-draft";
}
