/**
 * The desk's list of invoices (app/routes/admin/invoices.tsx and its CSV):
 * a page of a filter (every invoice, the open ones, those overdue), what is
 * open and overdue in all, and the accounts' CSV, streamed.
 */
import { and, count, desc, eq, sql } from "drizzle-orm";
import { formatReference } from "swissqrbill/utils";
import { readPage, type ListPage } from "~/components/pages";
import type { Database } from "~/db/client.server";
import { invoices } from "~/db/schema";
import { keysetBatches, spreadsheetCsv, spreadsheetCsvStream, type CsvColumn } from "~/desk/csv.server";
import { clientAddressLines, type Invoice } from "./invoices.server";
import { INVOICE_STATUS_LABELS, PAYMENT_METHODS, type PaymentMethod } from "./words";

/** The desk's filters of the list: every invoice, the open ones, those open past their due date. */
export type InvoiceFilter = "toutes" | "ouvertes" | "en-retard";

/** The condition of `filter` on `today` (ISO date; `isOverdue` in SQL). */
function invoiceFilter(filter: InvoiceFilter, today: string) {
  if (filter === "toutes") return undefined;
  const open = eq(invoices.status, "open");
  return filter === "ouvertes" ? open : and(open, sql`${invoices.dueOn} < ${today}`);
}

/** Newest number first. */
const newestNumberFirst = [desc(invoices.year), desc(invoices.sequence)];

/**
 * Page `asked` of the invoices of `filter` on `today` (ISO date), newest
 * number first, `DESK_PAGE_SIZE` a page, with how many there are.
 * @throws the driver's error.
 */
export async function invoicesPage(
  db: Database,
  filter: InvoiceFilter,
  today: string,
  asked: number,
): Promise<ListPage<Invoice>> {
  const where = invoiceFilter(filter, today);
  return readPage(
    asked,
    async () => (await db.select({ total: count() }).from(invoices).where(where))[0]!.total,
    (limit, offset) =>
      db
        .select()
        .from(invoices)
        .where(where)
        .orderBy(...newestNumberFirst)
        .limit(limit)
        .offset(offset),
  );
}

/**
 * What is open and what is overdue on `today` (ISO date) over every
 * invoice: counts and totals in centimes. @throws the driver's error.
 */
export async function invoiceTotals(
  db: Database,
  today: string,
): Promise<Record<"open" | "overdue", { count: number; centimes: number }>> {
  const overdue = sql`${invoices.status} = 'open' and ${invoices.dueOn} < ${today}`;
  const [row] = await db
    .select({
      open: count(),
      openCentimes: sql<number>`coalesce(sum(${invoices.totalCentimes}), 0)::int`,
      overdue: sql<number>`(count(*) filter (where ${overdue}))::int`,
      overdueCentimes: sql<number>`coalesce(sum(${invoices.totalCentimes}) filter (where ${overdue}), 0)::int`,
    })
    .from(invoices)
    .where(eq(invoices.status, "open"));
  return {
    open: { count: row!.open, centimes: row!.openCentimes },
    overdue: { count: row!.overdue, centimes: row!.overdueCentimes },
  };
}

/** An amount in centimes as a spreadsheet reads it: "142.50". */
const plainAmount = (centimes: number) => (centimes / 100).toFixed(2);

/** The accounts' columns (one row per invoice). */
const INVOICE_COLUMNS: readonly CsvColumn<Invoice>[] = [
  { label: "Numéro", value: (row) => row.number },
  { label: "Date", value: (row) => row.issuedOn.split("-").reverse().join(".") },
  { label: "Échéance", value: (row) => row.dueOn.split("-").reverse().join(".") },
  { label: "Client", value: (row) => row.clientName },
  { label: "Adresse", value: (row) => clientAddressLines(row).slice(1).join(", ") },
  { label: "Montant CHF", value: (row) => plainAmount(row.totalCentimes) },
  { label: "État", value: (row) => INVOICE_STATUS_LABELS[row.status] ?? row.status },
  { label: "Payée le", value: (row) => row.paidOn?.split("-").reverse().join(".") ?? "" },
  { label: "Moyen de paiement", value: (row) => (row.paidBy ? PAYMENT_METHODS[row.paidBy as PaymentMethod] : "") },
  // In blocks as the bill prints it ("21 00000 00003 13947 14300 09017"): a spreadsheet reads 27 bare digits
  // as a number and loses the last ones (decision 031).
  { label: "Référence", value: (row) => formatReference(row.reference) },
  { label: "Annulée le", value: (row, formatTime) => (row.cancelledAt ? formatTime(row.cancelledAt) : "") },
];

/** The invoices as CSV for the accounts. */
export function invoicesCsv(rows: readonly Invoice[]): string {
  return spreadsheetCsv(INVOICE_COLUMNS, rows);
}

/** Every invoice, newest number first, as CSV for the accounts, streamed 500 a query (`keysetBatches`). */
export function invoicesCsvStream(db: Database): ReadableStream<Uint8Array> {
  return spreadsheetCsvStream(
    INVOICE_COLUMNS,
    keysetBatches<Invoice>((after, size) =>
      db
        .select()
        .from(invoices)
        .where(after ? sql`(${invoices.year}, ${invoices.sequence}) < (${after.year}, ${after.sequence})` : undefined)
        .orderBy(...newestNumberFirst)
        .limit(size),
    ),
  );
}
