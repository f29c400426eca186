/**
 * Invoices (issue 22, item 3; docs/decisions/026-invoices-and-qr-bill.md):
 * the desk makes them from a registration, a contact request or from
 * scratch, sends them by mail (the PDF attached when the outbox sends it,
 * `INVOICE_MAIL`), and marks them paid or cancelled.
 *
 * - Amounts are whole centimes; a line's amount is its quantity (hundredths
 *   allowed: 1.5 h) times its unit price, rounded to the centime.
 * - `createInvoice(db, draft, creditor)`: the next number of the issue
 *   date's year ("2026-001"), taken in the transaction that writes the
 *   invoice under the lock of that year's `invoice_numbers` row (never
 *   given twice, never reused: a cancelled invoice keeps its number); the
 *   reference is a QR reference with a QR-IBAN, else an ISO 11649 creditor
 *   reference, both made of the year and the sequence.
 * - States: open → paid (`markInvoicePaid`: date and how) or cancelled
 *   (`cancelInvoice`); nothing else changes an invoice once made.
 * - `sendInvoice(db, id, kind, options)`: one mail to the client's e-mail
 *   through the outbox, the invoice itself or a reminder (the owner's
 *   click, never automatic); Reply-To the owner. An invoice leaves once
 *   unless the owner confirms a resend; a reminder at most once a day.
 * - The desk's list (a page, its totals, the accounts' CSV): list.server.ts; the new form's start
 *   from a registration or a request: draft-start.server.ts.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { nextInYear } from "~/db/year-sequence.server";
import {
  contacts,
  courseRegistrations,
  invoiceNumbers,
  invoices,
  type InvoiceCreditor,
  type InvoiceLine,
} from "~/db/schema";
import { enqueueMail } from "~/mail/enqueue.server";
import { mailDetails, mailDocument, mailParagraph, replyText, visitorFooter } from "~/mail/layout.server";
import { oneLine } from "~/mail/render.server";
import { formatChf, formatDate, isoDateInZurich } from "~/utils/format";
import { toE164 } from "~/utils/phone";
import type { Creditor } from "./creditor.server";
import { creditorReference, qrReference } from "./payment-rules";
import { INVOICE_STATUS_LABELS, PAYMENT_METHODS, type PaymentMethod } from "./words";

export type Invoice = typeof invoices.$inferSelect;
export type { InvoiceLine };

export { INVOICE_STATUS_LABELS, PAYMENT_METHODS, type PaymentMethod };

/** Days between an invoice's date and its due date, unless the owner says otherwise. */
export const DEFAULT_DUE_DAYS = 30;

/** The mails of invoices (outbox kinds). */
export const INVOICE_MAIL = { invoice: "invoice", reminder: "invoice-reminder" } as const;

/** An invoice before it has a number: what the desk's form holds. */
export interface InvoiceDraft {
  clientKind: "person" | "organisation";
  clientName: string;
  clientAttention: string | null;
  street: string;
  buildingNumber: string | null;
  postalCode: string;
  locality: string;
  /** ISO two-letter code. */
  country: string;
  email: string | null;
  phone: string | null;
  lines: InvoiceLine[];
  /** ISO dates. */
  issuedOn: string;
  dueOn: string;
  registrationId: number | null;
  contactId: number | null;
}

/** A line's amount in centimes: quantity × unit price, rounded to the centime. */
export function lineCentimes(line: InvoiceLine): number {
  return Math.round((Math.round(line.quantity * 100) * line.unitCentimes) / 100);
}

/** The total of lines in centimes. */
export function totalCentimes(lines: readonly InvoiceLine[]): number {
  return lines.reduce((sum, line) => sum + lineCentimes(line), 0);
}

/** An amount in centimes the Swiss way: "CHF 95.–", "CHF 142.50", "CHF 1’200.–". */
export function formatCentimes(centimes: number): string {
  return formatChf(centimes / 100);
}

/** An invoice's number: the year and the sequence on three digits at least ("2026-001"). */
export function invoiceNumber(year: number, sequence: number): string {
  return `${year}-${String(sequence).padStart(3, "0")}`;
}

/** The QR-bill's reference of an invoice: QRR with a QR-IBAN, SCOR otherwise; made of year and sequence. */
export function invoiceReference(year: number, sequence: number, qrIban: boolean): string {
  const base = `${year}${String(sequence).padStart(6, "0")}`;
  return qrIban ? qrReference(base) : creditorReference(base);
}

/** The ISO date `days` days after the ISO date `isoDate`. */
export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Whether an invoice is open and its due date has passed (`today`: ISO date in Swiss time). */
export function isOverdue(invoice: Pick<Invoice, "status" | "dueOn">, today: string): boolean {
  return invoice.status === "open" && invoice.dueOn < today;
}

/** The client's name as the invoice and the mail address them. */
export function clientGreetingName(invoice: Pick<Invoice, "clientKind" | "clientName" | "clientAttention">): string {
  return invoice.clientKind === "organisation" && invoice.clientAttention
    ? invoice.clientAttention
    : invoice.clientName;
}

/**
 * The columns an invoice and a quote share, from a form's draft: the client, its address, e-mail and
 * telephone (its E.164 form too), the lines, their total and the date.
 */
export function partyColumns(draft: Omit<InvoiceDraft, "clientKind" | "dueOn" | "registrationId">) {
  return {
    clientName: draft.clientName,
    clientAttention: draft.clientAttention,
    street: draft.street,
    buildingNumber: draft.buildingNumber,
    postalCode: draft.postalCode,
    locality: draft.locality,
    country: draft.country,
    email: draft.email?.toLowerCase() ?? null,
    phone: draft.phone,
    phoneE164: draft.phone ? toE164(draft.phone) : null,
    lines: draft.lines,
    totalCentimes: totalCentimes(draft.lines),
    issuedOn: draft.issuedOn,
  };
}

/**
 * Writes an invoice with the next number of its issue year (see the module's comment).
 * @returns the new invoice's id. @throws the driver's error (nothing is written then).
 */
export async function createInvoice(db: Database, draft: InvoiceDraft, creditor: Creditor): Promise<number> {
  const year = Number(draft.issuedOn.slice(0, 4));
  return db.transaction(async (tx) => {
    const sequence = await nextInYear(tx, invoiceNumbers, year);
    const snapshot: InvoiceCreditor = { ...creditor };
    const [row] = await tx
      .insert(invoices)
      .values({
        year,
        sequence,
        number: invoiceNumber(year, sequence),
        clientKind: draft.clientKind,
        ...partyColumns(draft),
        dueOn: draft.dueOn,
        reference: invoiceReference(year, sequence, creditor.qrIban),
        creditor: snapshot,
        registrationId: draft.registrationId,
        contactId: draft.contactId,
      })
      .returning({ id: invoices.id });
    return row!.id;
  });
}

/** One invoice, or undefined. @throws the driver's error. */
export async function getInvoice(db: Database, id: number): Promise<Invoice | undefined> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
  return row;
}

/**
 * Marks an open invoice paid on `paidOn` (ISO date) by `paidBy`.
 * @returns "paid", "not-open" (paid or cancelled already) or "not-found". @throws the driver's error.
 */
export async function markInvoicePaid(
  db: Database,
  id: number,
  payment: { paidOn: string; paidBy: PaymentMethod },
): Promise<"paid" | "not-open" | "not-found"> {
  const changed = await db
    .update(invoices)
    .set({ status: "paid", paidOn: payment.paidOn, paidBy: payment.paidBy })
    .where(and(eq(invoices.id, id), eq(invoices.status, "open")))
    .returning({ id: invoices.id });
  if (changed.length) return "paid";
  return (await getInvoice(db, id)) ? "not-open" : "not-found";
}

/**
 * Cancels an open invoice; it keeps its number.
 * @returns "cancelled", "not-open" or "not-found". @throws the driver's error.
 */
export async function cancelInvoice(db: Database, id: number): Promise<"cancelled" | "not-open" | "not-found"> {
  const changed = await db
    .update(invoices)
    .set({ status: "cancelled", cancelledAt: sql`now()` })
    .where(and(eq(invoices.id, id), eq(invoices.status, "open")))
    .returning({ id: invoices.id });
  if (changed.length) return "cancelled";
  return (await getInvoice(db, id)) ? "not-open" : "not-found";
}

/** The file name of an invoice's PDF: "facture-2026-001.pdf". */
export const invoiceFileName = (invoice: Pick<Invoice, "number">) => `facture-${invoice.number}.pdf`;

/**
 * The subject, text and HTML of an invoice's mail or of its reminder;
 * `codeWord`, the code word of the registration or request it was made
 * from (the promise of `/confiance`: an invoice comes with it), when any.
 */
export function invoiceMail(invoice: Invoice, kind: keyof typeof INVOICE_MAIL, codeWord?: string | null) {
  const name = clientGreetingName(invoice);
  const amount = formatCentimes(invoice.totalCentimes);
  const issued = formatDate(invoice.issuedOn);
  const due = formatDate(invoice.dueOn);
  const subject = oneLine(
    kind === "invoice" ? `Facture n° ${invoice.number}` : `Rappel : facture n° ${invoice.number} pas encore payée`,
  );
  const paragraphs =
    kind === "invoice"
      ? [
          `Bonjour ${name},`,
          `Vous trouverez ci-joint la facture n° ${invoice.number} du ${issued}, d’un montant de ${amount}, à payer d’ici au ${due}.`,
          "Pour la payer, scannez le code QR de la facture avec l’application de votre banque, ou imprimez-la et payez-la au guichet de la poste.",
          ...(codeWord
            ? [`Votre mot de code : « ${codeWord} ». Il vous montre que cette facture vient bien de moi.`]
            : []),
          "Merci de votre confiance.",
        ]
      : [
          `Bonjour ${name},`,
          `Sauf erreur de ma part, la facture n° ${invoice.number} du ${issued}, d’un montant de ${amount}, était à payer d’ici au ${due} et n’est pas encore payée. Je vous la joins à nouveau.`,
          "Si vous l’avez payée entre-temps, merci de ne pas tenir compte de ce message.",
        ];
  const details: [string, string][] = [
    ["Facture", `n° ${invoice.number} du ${issued}`],
    ["Montant", amount],
    ["À payer d’ici au", due],
  ];
  const signature = invoice.creditor.name;
  const text = `${paragraphs.join("\n\n")}\n\n${details.map(([label, value]) => `${label} : ${value}`).join("\n")}\n\n${signature}\n\n${replyText()}\n`;
  const html = mailDocument({
    title: subject,
    body: [...paragraphs.map(mailParagraph), mailDetails(details), mailParagraph(signature)].join(""),
    footer: visitorFooter(),
  });
  return { subject, text, html };
}

/** The code word of the registration or contact request invoice `invoice` was made from, or null. */
async function codeWordOf(db: Database, invoice: Invoice): Promise<string | null> {
  if (invoice.registrationId) {
    const [row] = await db
      .select({ codeWord: courseRegistrations.codeWord })
      .from(courseRegistrations)
      .where(eq(courseRegistrations.id, invoice.registrationId));
    return row?.codeWord ?? null;
  }
  if (invoice.contactId) {
    const [row] = await db
      .select({ codeWord: contacts.codeWord })
      .from(contacts)
      .where(eq(contacts.id, invoice.contactId));
    return row?.codeWord ?? null;
  }
  return null;
}

/**
 * Puts an invoice's mail (`kind` "invoice") or reminder ("reminder") into the
 * outbox for the client's e-mail, the PDF attached when it is sent; records
 * when (`sent_at` or `reminded_at`). Under the invoice's row lock, so that
 * three clicks at once send once: an invoice already sent leaves again only
 * with `resend` (the owner confirmed it), a reminder once per day in Zurich
 * (`now`'s day).
 * @returns "queued", "already-sent", "reminded-today", "no-email" (the
 *   client has none), "not-open" (paid or cancelled) or "not-found".
 * @throws the driver's error.
 */
export async function sendInvoice(
  db: Database,
  id: number,
  kind: keyof typeof INVOICE_MAIL,
  { resend = false, now = new Date() }: { resend?: boolean; now?: Date } = {},
): Promise<"queued" | "already-sent" | "reminded-today" | "no-email" | "not-open" | "not-found"> {
  return db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, id)).for("update");
    if (!invoice) return "not-found";
    if (invoice.status !== "open") return "not-open";
    if (!invoice.email) return "no-email";
    if (kind === "invoice" && invoice.sentAt && !resend) return "already-sent";
    if (kind === "reminder" && invoice.remindedAt && isoDateInZurich(invoice.remindedAt) === isoDateInZurich(now))
      return "reminded-today";
    await enqueueMail(tx, {
      kind: INVOICE_MAIL[kind],
      recipient: invoice.email,
      ...invoiceMail(invoice, kind, await codeWordOf(tx, invoice)),
      invoiceId: invoice.id,
      people: [
        { name: invoice.clientName, email: invoice.email, phone: invoice.phone },
        ...(invoice.clientAttention ? [{ name: invoice.clientAttention, email: invoice.email }] : []),
      ],
    });
    await tx
      .update(invoices)
      .set(kind === "invoice" ? { sentAt: now.toISOString() } : { remindedAt: now.toISOString() })
      .where(eq(invoices.id, id));
    return "queued";
  });
}

/** An invoice's client address on lines: name, attention, street and number, postal code and locality. */
export function clientAddressLines(
  invoice: Pick<
    Invoice,
    | "clientKind"
    | "clientName"
    | "clientAttention"
    | "street"
    | "buildingNumber"
    | "postalCode"
    | "locality"
    | "country"
  >,
): string[] {
  return [
    invoice.clientName,
    ...(invoice.clientAttention ? [`À l’attention de ${invoice.clientAttention}`] : []),
    [invoice.street, invoice.buildingNumber].filter(Boolean).join(" "),
    `${invoice.country === "CH" ? "" : `${invoice.country}-`}${invoice.postalCode} ${invoice.locality}`,
  ];
}

/**
 * The last day an invoice must be kept (CO art. 958f: ten years after the end of the financial
 * year, here the calendar year of its date): "2036-12-31" for an invoice of 2026. An ISO date.
 */
export function invoiceKeptUntil(invoice: Pick<Invoice, "issuedOn">): string {
  return `${Number(invoice.issuedOn.slice(0, 4)) + 10}-12-31`;
}

/** Today in Swiss time, as an ISO date. */
export const todayInZurich = (now = new Date()) => isoDateInZurich(now);
