/**
 * The double opt-in (issue 14): nobody is subscribed without following the
 * link of the confirmation mail.
 *
 * - `requestSubscription(tx, { email, source, siteUrl, now })` stores a
 *   pending subscriber (the consent text's version and the time) and writes
 *   the confirmation mail (a token valid 7 days) into the outbox. A second
 *   request for the same address within 10 minutes writes no second mail;
 *   a confirmed address gets nothing more. The caller answers the same in
 *   every case: it never says whether an address was known.
 * - `confirmSubscription(db, token, now)` → "confirmed" or "invalid"
 *   (unknown, tampered, expired or used token).
 * - `unsubscribe(db, token, now)` → "unsubscribed" or "invalid"; the token
 *   of a letter's link works as often as it is used (after a new
 *   subscription, the next letter has a new one).
 * - `deleteUnconfirmed(db, now)` deletes pending entries requested more
 *   than 30 days ago.
 * - `beforeErasingSubscriber(tx, email)` deletes the link tokens of an
 *   address's subscription (confirmation, unsubscription) in an erasure's
 *   transaction, before the subscriber’s row goes (app/newsletter/plug.server.ts).
 */
import { and, count, eq, ilike, lt, sql } from "drizzle-orm";
import { containsPattern, readPage, type ListPage } from "~/components/pages";
import { keysetBatches, spreadsheetCsvStream } from "~/desk/csv.server";
import type { Database } from "~/db/client.server";
import { newsletterSubscribers } from "~/db/schema";
import { enqueueVisitorMail, type RecipientCap } from "~/mail/recipient-cap.server";
import { consumeToken, deleteTokensOfRows, issueToken, readToken } from "~/tokens/tokens.server";
import { confirmationMail } from "./letter.server";
import { CONSENT_VERSION, subscriberStates } from "./words";

const DAY = 24 * 60 * 60 * 1000;

/** How long a confirmation link works. */
export const CONFIRMATION_LIFETIME_MS = 7 * DAY;

/** A second request within this time sends no second mail. */
export const CONFIRMATION_RESEND_AFTER_MS = 10 * 60 * 1000;

/** Pending entries are deleted after this long. */
export const UNCONFIRMED_LIFETIME_MS = 30 * DAY;

/** How long a letter's unsubscribe link works (two years: an old letter still unsubscribes). */
export const UNSUBSCRIBE_LIFETIME_MS = 730 * DAY;

export const TOKEN_PURPOSES = { confirm: "newsletter-confirm", unsubscribe: "newsletter-unsubscribe" } as const;

/** The outbox kinds of the newsletter's mails. */
export const NEWSLETTER_MAIL_KINDS = {
  confirmation: "newsletter-confirmation",
  letter: "newsletter-letter",
  test: "newsletter-test",
} as const;

/**
 * Stores the request and writes the confirmation mail when one is due; with
 * `mailCap` (a public action), a mail past the address's mails of the day is
 * held (app/mail/recipient-cap.server.ts), the request stored all the same.
 * @returns whether a mail was written.
 */
export async function requestSubscription(
  tx: Database,
  {
    email,
    source,
    siteUrl,
    now = new Date(),
    mailCap,
  }: { email: string; source: string; siteUrl: string; now?: Date; mailCap?: RecipientCap },
): Promise<boolean> {
  const address = email.trim().toLowerCase();
  const nowIso = now.toISOString();
  await tx
    .insert(newsletterSubscribers)
    .values({ email: address, source, consentVersion: CONSENT_VERSION, requestedAt: nowIso })
    .onConflictDoNothing();
  const [subscriber] = await tx
    .select()
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.email, address))
    .for("update");
  if (!subscriber || subscriber.status === "confirmed") return false;
  const recent =
    subscriber.confirmationSentAt &&
    now.getTime() - Date.parse(subscriber.confirmationSentAt) < CONFIRMATION_RESEND_AFTER_MS;
  if (recent) return false;
  await tx
    .update(newsletterSubscribers)
    .set({
      status: "pending",
      source,
      consentVersion: CONSENT_VERSION,
      requestedAt: nowIso,
      confirmationSentAt: nowIso,
      unsubscribedAt: null,
    })
    .where(eq(newsletterSubscribers.id, subscriber.id));
  const token = await issueToken(tx, {
    purpose: TOKEN_PURPOSES.confirm,
    subject: String(subscriber.id),
    lifetimeMs: CONFIRMATION_LIFETIME_MS,
    now,
  });
  const mail = confirmationMail({ confirmUrl: `${siteUrl}/newsletter/confirmer/${token}` });
  const written = await enqueueVisitorMail(mailCap, tx, {
    kind: NEWSLETTER_MAIL_KINDS.confirmation,
    recipient: address,
    ...mail,
  });
  return written !== null;
}

/** Confirms the subscription a confirmation token names. */
export async function confirmSubscription(
  db: Database,
  token: string,
  now = new Date(),
): Promise<"confirmed" | "invalid"> {
  return db.transaction(async (tx) => {
    const subject = await consumeToken(tx, { purpose: TOKEN_PURPOSES.confirm, token, now });
    if (!subject) return "invalid";
    const changed = await tx
      .update(newsletterSubscribers)
      .set({ status: "confirmed", confirmedAt: now.toISOString(), unsubscribedAt: null })
      .where(and(eq(newsletterSubscribers.id, Number(subject)), eq(newsletterSubscribers.status, "pending")))
      .returning({ id: newsletterSubscribers.id });
    return changed.length === 1 ? "confirmed" : "invalid";
  });
}

/** Whether an unsubscribe token is valid (for its page, which changes nothing). */
export async function isUnsubscribeTokenValid(db: Database, token: string, now = new Date()): Promise<boolean> {
  return (await readToken(db, { purpose: TOKEN_PURPOSES.unsubscribe, token, now })) !== null;
}

/** Unsubscribes the subscriber a letter's token names (again: no change, still "unsubscribed"). */
export async function unsubscribe(db: Database, token: string, now = new Date()): Promise<"unsubscribed" | "invalid"> {
  const found = await readToken(db, { purpose: TOKEN_PURPOSES.unsubscribe, token, now });
  if (!found) return "invalid";
  await db
    .update(newsletterSubscribers)
    .set({ status: "unsubscribed", unsubscribedAt: now.toISOString() })
    .where(and(eq(newsletterSubscribers.id, Number(found.subject)), eq(newsletterSubscribers.status, "confirmed")));
  return "unsubscribed";
}

/** Deletes pending subscribers whose latest request is older than 30 days. @returns how many. */
export async function deleteUnconfirmed(db: Database, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(newsletterSubscribers)
    .where(
      and(
        eq(newsletterSubscribers.status, "pending"),
        lt(newsletterSubscribers.requestedAt, new Date(now.getTime() - UNCONFIRMED_LIFETIME_MS).toISOString()),
      ),
    )
    .returning({ id: newsletterSubscribers.id });
  return deleted.length;
}

type SubscriberRow = typeof newsletterSubscribers.$inferSelect;

/** The subscribers' order in the desk and its CSV: newest first, the id breaking ties. */
const newestFirst = [sql`${newsletterSubscribers.createdAt} desc`, sql`${newsletterSubscribers.id} desc`];

/** The subscribers whose address contains `search` (any case), every one without it (migration 0037's trigrams). */
const addressFilter = (search: string | undefined) =>
  search ? ilike(newsletterSubscribers.email, containsPattern(search)) : undefined;

/**
 * Page `asked` of the subscribers (newest first, `DESK_PAGE_SIZE` a page),
 * those whose address contains `search` if given, with how many match and
 * how many of them are confirmed; a page past the last is the last.
 */
export async function subscribersPage(
  db: Database,
  search: string | undefined,
  asked: number,
): Promise<ListPage<SubscriberRow> & { confirmed: number }> {
  const where = addressFilter(search);
  let confirmed = 0;
  const page = await readPage(
    asked,
    async () => {
      const [counts] = await db
        .select({
          total: count(),
          confirmed: count(sql`case when ${newsletterSubscribers.status} = 'confirmed' then 1 end`),
        })
        .from(newsletterSubscribers)
        .where(where);
      confirmed = counts!.confirmed;
      return counts!.total;
    },
    (limit, offset) =>
      db
        .select()
        .from(newsletterSubscribers)
        .where(where)
        .orderBy(...newestFirst)
        .limit(limit)
        .offset(offset),
  );
  return { ...page, confirmed };
}

/** Every subscriber, newest first, as the desk's CSV, streamed 500 a query (`keysetBatches`). */
export function subscribersCsvStream(db: Database): ReadableStream<Uint8Array> {
  return spreadsheetCsvStream(
    SUBSCRIBER_COLUMNS,
    keysetBatches<SubscriberRow>((after, size) =>
      db
        .select()
        .from(newsletterSubscribers)
        .where(
          after
            ? sql`(${newsletterSubscribers.createdAt}, ${newsletterSubscribers.id}) < (${after.createdAt}::timestamptz, ${after.id})`
            : undefined,
        )
        .orderBy(...newestFirst)
        .limit(size),
    ),
  );
}

/** The subscribers' columns of the desk's CSV (app/desk/csv.server.ts). */
export const SUBSCRIBER_COLUMNS: readonly {
  label: string;
  value(row: typeof newsletterSubscribers.$inferSelect, moment: (iso: string) => string): string;
}[] = [
  { label: "E-mail", value: (row) => row.email },
  { label: "État", value: (row) => subscriberStates[row.status] ?? row.status },
  { label: "Demandé le", value: (row, moment) => moment(row.requestedAt) },
  { label: "Depuis", value: (row) => row.source },
  { label: "Version du texte d’accord", value: (row) => row.consentVersion },
  { label: "Confirmé le", value: (row, moment) => (row.confirmedAt ? moment(row.confirmedAt) : "") },
  { label: "Désabonné le", value: (row, moment) => (row.unsubscribedAt ? moment(row.unsubscribedAt) : "") },
];

/**
 * Deletes the link tokens (every purpose of `TOKEN_PURPOSES`) of the
 * subscription of `email` (lower-cased), in the caller's transaction: call
 * it before the subscriber's row is deleted, or the tokens would outlive it
 * (an unsubscription link lasts 2 years).
 * @throws the driver's error.
 */
export async function beforeErasingSubscriber(tx: Database, email: string): Promise<void> {
  await deleteTokensOfRows(tx, Object.values(TOKEN_PURPOSES), {
    id: newsletterSubscribers.id,
    where: eq(newsletterSubscribers.email, email),
  });
}
