/**
 * Quotes (devis) for groups (issue 31, item 2; docs/decisions/053-quotes-and-groups.md):
 * the desk makes one from a contact request for a talk or workshop for a
 * group (the organisation, its contact person, the commune, the group's
 * size), sends it by mail (the PDF attached when the outbox sends it,
 * `QUOTE_MAIL.quote`), and records the organisation's answer.
 *
 * - Amounts are whole centimes; lines are the invoices' (`InvoiceLine`,
 *   `lineCentimes`, `totalCentimes` of app/invoices/invoices.server.ts).
 * - `createQuote(db, draft, creditor)`: the next number of the quote
 *   date's year ("D-2026-001"), taken in the transaction that writes the
 *   quote under the lock of that year's `quote_numbers` row (never given
 *   twice, never reused).
 * - States: brouillon (`draft`) → envoyé (`sendQuote`, or `markQuotePosted`
 *   for a quote printed for the post) → accepté or refusé
 *   (`decideQuote`). « Expiré » is not stored: a quote sent whose validity
 *   date is before today (`quoteState(quote, today)`, today from the
 *   injected clock); it can no longer be accepted.
 * - What an accepted quote makes (the closed session, the participants'
 *   list, the invoice): group.server.ts and invoice.server.ts.
 */
import { and, count, desc, eq, ilike, or, sql } from "drizzle-orm";
import { containsPattern, readPage, type ListPage } from "~/components/pages";
import type { Database } from "~/db/client.server";
import { nextInYear } from "~/db/year-sequence.server";
import { contacts, quoteNumbers, quotes, type InvoiceCreditor, type QuoteStatus } from "~/db/schema";
import { courseBySlug } from "~/courses/sessions.server";
import {
  addDays,
  clientAddressLines,
  formatCentimes,
  partyColumns,
  type InvoiceDraft,
} from "~/invoices/invoices.server";
import type { Creditor } from "~/invoices/creditor.server";
import { enqueueMail } from "~/mail/enqueue.server";
import { mailDetails, mailDocument, mailParagraph, replyText, visitorFooter } from "~/mail/layout.server";
import { oneLine } from "~/mail/render.server";
import { formatDate, formatDateTime, isoDateInZurich } from "~/utils/format";

export type Quote = typeof quotes.$inferSelect;

/** What the owner and the organisation see of a quote: its stored status, or « expiré ». */
export type QuoteState = QuoteStatus | "expired";

/** The states in French, as the desk shows them. */
export const QUOTE_STATE_LABELS: Record<QuoteState, string> = {
  draft: "Brouillon",
  sent: "Envoyé",
  accepted: "Accepté",
  refused: "Refusé",
  expired: "Expiré",
};

/** The mails of quotes (outbox kinds): the quote itself, and the group's link page to its contact person. */
export const QUOTE_MAIL = { quote: "quote", groupList: "group-list" } as const;

/** Days between a quote's date and its validity date, unless the owner says otherwise. */
export const DEFAULT_VALID_DAYS = 30;

/** A quote before it has a number: what the desk's form holds (`dueOn` of the invoice's draft: its validity). */
export interface QuoteDraft extends Omit<InvoiceDraft, "dueOn" | "registrationId" | "clientKind"> {
  /** ISO date: the last day the quote may be accepted. */
  validUntil: string;
  groupSize: number | null;
  /** An id of app/content/courses.ts. */
  courseId: string;
  startsAt: Date;
  durationMinutes: number;
  placeName: string;
  placeAddress: string;
}

/** A quote's number: "D-", the year and the sequence on three digits at least ("D-2026-001"). */
export function quoteNumber(year: number, sequence: number): string {
  return `D-${year}-${String(sequence).padStart(3, "0")}`;
}

/** A quote's state on `today` (an ISO date in Swiss time): « expiré » once a sent quote's validity has passed. */
export function quoteState(quote: Pick<Quote, "status" | "validUntil">, today: string): QuoteState {
  return quote.status === "sent" && quote.validUntil < today ? "expired" : quote.status;
}

/** The organisation's address on lines, as the PDF's window and the desk show it. */
export const quoteAddressLines = (quote: Quote) => clientAddressLines({ ...quote, clientKind: "organisation" });

/** The course's title of a quote's planned session (its id when the course is gone from the catalogue). */
export const quoteCourseTitle = (quote: Pick<Quote, "courseId">) =>
  courseBySlug(quote.courseId)?.title ?? quote.courseId;

/** The file name of a quote's PDF: "devis-D-2026-001.pdf". */
export const quoteFileName = (quote: Pick<Quote, "number">) => `devis-${quote.number}.pdf`;

/** The columns a quote's form gives (`draft`): what making a quote writes and editing a draft rewrites. */
export function quoteColumns(draft: QuoteDraft) {
  return {
    ...partyColumns(draft),
    groupSize: draft.groupSize,
    validUntil: draft.validUntil,
    courseId: draft.courseId,
    startsAt: draft.startsAt.toISOString(),
    durationMinutes: draft.durationMinutes,
    placeName: draft.placeName,
    placeAddress: draft.placeAddress,
    contactId: draft.contactId,
  };
}

/**
 * Writes a quote with the next number of its year (see the module's comment).
 * @returns the new quote's id. @throws the driver's error (nothing is written then).
 */
export async function createQuote(db: Database, draft: QuoteDraft, creditor: Creditor): Promise<number> {
  const year = Number(draft.issuedOn.slice(0, 4));
  return db.transaction(async (tx) => {
    const sequence = await nextInYear(tx, quoteNumbers, year);
    const snapshot: InvoiceCreditor = { ...creditor };
    const [row] = await tx
      .insert(quotes)
      .values({ year, sequence, number: quoteNumber(year, sequence), ...quoteColumns(draft), creditor: snapshot })
      .returning({ id: quotes.id });
    return row!.id;
  });
}

/** One quote, or undefined. @throws the driver's error. */
export async function getQuote(db: Database, id: number): Promise<Quote | undefined> {
  const [row] = await db.select().from(quotes).where(eq(quotes.id, id));
  return row;
}

/** The subject, text and HTML of a quote's mail to the organisation's contact person. */
export function quoteMail(quote: Quote) {
  const name = quote.clientAttention ?? quote.clientName;
  const amount = formatCentimes(quote.totalCentimes);
  const subject = oneLine(`Devis n° ${quote.number} : ${quoteCourseTitle(quote)}`);
  const paragraphs = [
    `Bonjour ${name},`,
    `Merci de votre demande. Vous trouverez ci-joint le devis n° ${quote.number} pour ${quote.clientName} : « ${quoteCourseTitle(quote)} », le ${formatDateTime(quote.startsAt)}, d’un montant de ${amount}.`,
    `Il est valable jusqu’au ${formatDate(quote.validUntil)}. Pour l’accepter, répondez simplement à ce message ou appelez-moi : je vous enverrai alors le lien où inscrire les noms des participants.`,
    "Au plaisir de vous rencontrer.",
  ];
  const details: [string, string][] = [
    ["Devis", `n° ${quote.number} du ${formatDate(quote.issuedOn)}`],
    ["Montant", amount],
    ["Valable jusqu’au", formatDate(quote.validUntil)],
  ];
  const signature = quote.creditor.name;
  const text = `${paragraphs.join("\n\n")}\n\n${details.map(([label, value]) => `${label} : ${value}`).join("\n")}\n\n${signature}\n\n${replyText()}\n`;
  const html = mailDocument({
    title: subject,
    body: [...paragraphs.map(mailParagraph), mailDetails(details), mailParagraph(signature)].join(""),
    footer: visitorFooter(),
  });
  return { subject, text, html };
}

/**
 * Puts a quote's mail into the outbox for its e-mail, the PDF attached when
 * it is sent; the quote becomes « envoyé ». Under the quote's row lock: a
 * quote already sent leaves again only with `resend` (the owner confirmed).
 * @returns "queued", "already-sent", "no-email", "decided" (accepted or
 *   refused), "expired" or "not-found". @throws the driver's error.
 */
export async function sendQuote(
  db: Database,
  id: number,
  { resend = false, now = new Date() }: { resend?: boolean; now?: Date } = {},
): Promise<"queued" | "already-sent" | "no-email" | "decided" | "expired" | "not-found"> {
  return db.transaction(async (tx) => {
    const [quote] = await tx.select().from(quotes).where(eq(quotes.id, id)).for("update");
    if (!quote) return "not-found";
    const state = quoteState(quote, isoDateInZurich(now));
    if (state === "accepted" || state === "refused") return "decided";
    if (state === "expired" || quote.validUntil < isoDateInZurich(now)) return "expired";
    if (!quote.email) return "no-email";
    if (state === "sent" && !resend) return "already-sent";
    await enqueueMail(tx, {
      kind: QUOTE_MAIL.quote,
      recipient: quote.email,
      ...quoteMail(quote),
      quoteId: quote.id,
      people: [
        ...(quote.clientAttention ? [{ name: quote.clientAttention, email: quote.email, phone: quote.phone }] : []),
      ],
    });
    await tx.update(quotes).set({ status: "sent", sentAt: now.toISOString() }).where(eq(quotes.id, id));
    return "queued";
  });
}

/**
 * Records that draft quote `id`, without e-mail, was printed and posted on
 * `now`'s day: it becomes « envoyé » (so the organisation's answer can be
 * recorded), unless it is no longer a draft or its validity has passed.
 * @returns "posted", "not-draft", "expired" or "not-found". @throws the driver's error.
 */
export async function markQuotePosted(
  db: Database,
  id: number,
  now: Date,
): Promise<"posted" | "not-draft" | "expired" | "not-found"> {
  const today = isoDateInZurich(now);
  const changed = await db
    .update(quotes)
    .set({ status: "sent", sentAt: now.toISOString() })
    .where(and(eq(quotes.id, id), eq(quotes.status, "draft"), sql`${quotes.validUntil} >= ${today}`))
    .returning({ id: quotes.id });
  if (changed.length) return "posted";
  const quote = await getQuote(db, id);
  if (!quote) return "not-found";
  return quote.status === "draft" ? "expired" : "not-draft";
}

/**
 * Records the organisation's answer to a sent quote: `accepted` or
 * `refused`, once (a quote still a draft, already decided or expired on
 * `now`'s day is left as it is).
 * @returns the new state, "not-sent", "decided", "expired" or "not-found". @throws the driver's error.
 */
export async function decideQuote(
  db: Database,
  id: number,
  answer: "accepted" | "refused",
  now: Date,
): Promise<"accepted" | "refused" | "not-sent" | "decided" | "expired" | "not-found"> {
  const changed = await db
    .update(quotes)
    .set({ status: answer, decidedAt: now.toISOString() })
    .where(and(eq(quotes.id, id), eq(quotes.status, "sent"), sql`${quotes.validUntil} >= ${isoDateInZurich(now)}`))
    .returning({ id: quotes.id });
  if (changed.length) return answer;
  const quote = await getQuote(db, id);
  if (!quote) return "not-found";
  const state = quoteState(quote, isoDateInZurich(now));
  return state === "draft" ? "not-sent" : state === "expired" ? "expired" : "decided";
}

/**
 * What the form of a new quote starts with: the organisation, its contact
 * person, e-mail, telephone, commune and group's size of contact request
 * `contactId` (the request's words, `from`), today and the validity date.
 * @throws the driver's error.
 */
export async function quoteStart(
  db: Database,
  contactId: number | undefined,
  today: string,
): Promise<{ values: Record<string, string>; from: string | null }> {
  const values: Record<string, string> = {
    clientKind: "organisation",
    country: "CH",
    issuedOn: today,
    dueOn: addDays(today, DEFAULT_VALID_DAYS),
    durationMinutes: "90",
  };
  const [row] = contactId ? await db.select().from(contacts).where(eq(contacts.id, contactId)) : [];
  if (!row) return { values, from: null };
  Object.assign(values, {
    contactId: String(row.id),
    clientName: row.organisation?.trim() || `${row.firstName} ${row.lastName}`,
    clientAttention: `${row.firstName} ${row.lastName}`,
    email: row.email ?? "",
    phone: row.phone,
    ...(row.commune ? { locality: row.commune } : {}),
    ...(row.groupSize ? { groupSize: String(row.groupSize) } : {}),
  });
  return { values, from: `Demande n° ${row.id} du ${formatDateTime(row.createdAt)}` };
}

/**
 * Page `asked` of the quotes, newest number first, `DESK_PAGE_SIZE` a page;
 * only those whose number, organisation, contact person, locality or
 * e-mail contains `search` (any case) when it is given.
 * @throws the driver's error.
 */
export function quotesPage(db: Database, asked: number, search?: string): Promise<ListPage<Quote>> {
  const pattern = search ? containsPattern(search) : undefined;
  const where = pattern
    ? or(
        ...[quotes.number, quotes.clientName, quotes.clientAttention, quotes.locality, quotes.email].map((column) =>
          ilike(column, pattern),
        ),
      )
    : undefined;
  return readPage(
    asked,
    async () => (await db.select({ total: count() }).from(quotes).where(where))[0]!.total,
    (limit, offset) =>
      db
        .select()
        .from(quotes)
        .where(where)
        .orderBy(desc(quotes.year), desc(quotes.sequence))
        .limit(limit)
        .offset(offset),
  );
}
