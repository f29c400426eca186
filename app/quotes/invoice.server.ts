/**
 * « Faire la facture » of an accepted quote (docs/decisions/053-quotes-and-groups.md):
 * `invoiceFromQuote(db, id, creditor, today)` makes the invoice with the
 * quote's lines (hence its total), addressed to the organisation (the
 * QR-bill's debtor) to the attention of its contact person, dated today,
 * due `DEFAULT_DUE_DAYS` later, made from the quote's contact request; the
 * quote keeps the invoice's id. Under the quote's row lock: two clicks
 * make one invoice.
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { quotes } from "~/db/schema";
import type { Creditor } from "~/invoices/creditor.server";
import { addDays, createInvoice, DEFAULT_DUE_DAYS } from "~/invoices/invoices.server";

/**
 * The invoice of accepted quote `id` (see the module's comment); `today`: an ISO date in Swiss time.
 * @returns "made" or "exists" with the invoice's id, "not-accepted" or "not-found". @throws the driver's error.
 */
export async function invoiceFromQuote(
  db: Database,
  id: number,
  creditor: Creditor,
  today: string,
): Promise<{ outcome: "made" | "exists"; invoiceId: number } | { outcome: "not-accepted" | "not-found" }> {
  return db.transaction(async (tx) => {
    const [quote] = await tx.select().from(quotes).where(eq(quotes.id, id)).for("update");
    if (!quote) return { outcome: "not-found" } as const;
    if (quote.invoiceId !== null) return { outcome: "exists", invoiceId: quote.invoiceId } as const;
    if (quote.status !== "accepted") return { outcome: "not-accepted" } as const;
    const invoiceId = await createInvoice(
      tx,
      {
        clientKind: "organisation",
        clientName: quote.clientName,
        clientAttention: quote.clientAttention,
        street: quote.street,
        buildingNumber: quote.buildingNumber,
        postalCode: quote.postalCode,
        locality: quote.locality,
        country: quote.country,
        email: quote.email,
        phone: quote.phone,
        lines: quote.lines,
        issuedOn: today,
        dueOn: addDays(today, DEFAULT_DUE_DAYS),
        registrationId: null,
        contactId: quote.contactId,
      },
      creditor,
    );
    await tx.update(quotes).set({ invoiceId }).where(eq(quotes.id, id));
    return { outcome: "made", invoiceId } as const;
  });
}
