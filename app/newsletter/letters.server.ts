/**
 * Letters in the owner's desk: drafts, a test to oneself, the sending to
 * every confirmed subscriber, its progress, and the public archive.
 *
 * `sendLetter(db, id, { siteUrl, now })` writes, in one transaction, one
 * outbox row per confirmed subscriber whose address was not refused for
 * good by its provider (`refusedForGood`, decision 042) (each with its own unsubscribe link
 * and the RFC 8058 headers) and marks the letter sent; the outbox's unique
 * index on (letter, recipient) and the letter's lock make a second click,
 * or a second process, write nothing more. The outbox worker then sends at
 * NEWSLETTER_RATE_PER_MINUTE; a crash may send one mail twice (the one
 * being sent when it happened: delivery at least once), never more.
 */
import { and, desc, eq, isNotNull, isNull, not, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { newsletterLetters, newsletterSubscribers, outbox } from "~/db/schema";
import { enqueueMail } from "~/mail/enqueue.server";
import { refusedForGood } from "~/mail/manage.server";
import { issueToken } from "~/tokens/tokens.server";
import { letterMail } from "./letter.server";
import { NEWSLETTER_MAIL_KINDS, TOKEN_PURPOSES, UNSUBSCRIBE_LIFETIME_MS } from "./subscriptions.server";

export type Letter = typeof newsletterLetters.$inferSelect;

export async function createLetter(
  db: Database,
  { subject, body }: { subject: string; body: string },
): Promise<number> {
  const [row] = await db.insert(newsletterLetters).values({ subject, body }).returning({ id: newsletterLetters.id });
  return row!.id;
}

/** Saves a draft; false when the letter does not exist or was sent (a sent letter never changes). */
export async function updateLetter(
  db: Database,
  id: number,
  { subject, body }: { subject: string; body: string },
): Promise<boolean> {
  const changed = await db
    .update(newsletterLetters)
    .set({ subject, body, updatedAt: sql`now()` })
    .where(and(eq(newsletterLetters.id, id), isNull(newsletterLetters.sentAt)))
    .returning({ id: newsletterLetters.id });
  return changed.length === 1;
}

export async function getLetter(db: Database, id: number): Promise<Letter | null> {
  const [row] = await db.select().from(newsletterLetters).where(eq(newsletterLetters.id, id));
  return row ?? null;
}

export async function listLetters(db: Database): Promise<Letter[]> {
  return db.select().from(newsletterLetters).orderBy(desc(newsletterLetters.createdAt), desc(newsletterLetters.id));
}

/** Sent letters, newest first (the public archive). */
export async function sentLetters(db: Database): Promise<Letter[]> {
  return db
    .select()
    .from(newsletterLetters)
    .where(isNotNull(newsletterLetters.sentAt))
    .orderBy(desc(newsletterLetters.sentAt));
}

/** What `letterSlug` makes: lowercase ASCII letters, digits and dashes. */
const LETTER_SLUG = /^[a-z0-9-]{1,100}$/;

/**
 * The sent letter whose archive address ends in `slug`, or null; null at
 * once for a slug `letterSlug` cannot make (a NUL byte would make
 * PostgreSQL refuse the query: a 500 instead of the 404).
 */
export async function letterBySlug(db: Database, slug: string): Promise<Letter | null> {
  if (!LETTER_SLUG.test(slug)) return null;
  const [row] = await db
    .select()
    .from(newsletterLetters)
    .where(and(eq(newsletterLetters.slug, slug), isNotNull(newsletterLetters.sentAt)));
  return row ?? null;
}

export async function countConfirmedSubscribers(db: Database): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.status, "confirmed"));
  return row?.count ?? 0;
}

/** The archive's address of a letter: its date and its subject, e.g. `2026-12-conseils-de-decembre`. */
export function letterSlug(subject: string, sentAt: Date, id: number): string {
  const words = subject
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60)
    .replace(/-$/, "");
  const month = sentAt.toISOString().slice(0, 7);
  return `${month}-${words || "lettre"}-${id}`;
}

/** Writes the letter to the owner only ("[Test]" in the subject; its unsubscribe link leads nowhere). */
export async function sendTest(db: Database, letter: Letter, { to, siteUrl }: { to: string; siteUrl: string }) {
  const mail = letterMail({
    subject: `[Test] ${letter.subject}`,
    markdown: letter.body,
    unsubscribeUrl: `${siteUrl}/newsletter/desabonnement/test`,
    archiveUrl: `${siteUrl}/newsletter/archives`,
  });
  await enqueueMail(db, { kind: NEWSLETTER_MAIL_KINDS.test, recipient: to, ...mail });
}

/**
 * Sends a letter to every confirmed subscriber.
 * @returns the number of mails written, or null when the letter does not
 *   exist or was already sent.
 */
export async function sendLetter(
  db: Database,
  id: number,
  { siteUrl, now = new Date() }: { siteUrl: string; now?: Date },
): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [letter] = await tx.select().from(newsletterLetters).where(eq(newsletterLetters.id, id)).for("update");
    if (!letter || letter.sentAt) return null;
    const slug = letterSlug(letter.subject, now, letter.id);
    const archiveUrl = `${siteUrl}/newsletter/archives/${slug}`;
    const subscribers = await tx
      .select({ id: newsletterSubscribers.id, email: newsletterSubscribers.email })
      .from(newsletterSubscribers)
      // An address its provider refused for good (550 at RCPT TO, decision 042) gets no more letters.
      .where(and(eq(newsletterSubscribers.status, "confirmed"), not(refusedForGood(newsletterSubscribers.email))));
    for (const subscriber of subscribers) {
      const token = await issueToken(tx, {
        purpose: TOKEN_PURPOSES.unsubscribe,
        subject: String(subscriber.id),
        lifetimeMs: UNSUBSCRIBE_LIFETIME_MS,
        now,
      });
      const mail = letterMail({
        subject: letter.subject,
        markdown: letter.body,
        unsubscribeUrl: `${siteUrl}/newsletter/desabonnement/${token}`,
        archiveUrl,
      });
      await enqueueMail(tx, { kind: NEWSLETTER_MAIL_KINDS.letter, recipient: subscriber.email, letterId: id, ...mail });
    }
    await tx
      .update(newsletterLetters)
      .set({ sentAt: now.toISOString(), slug, recipients: subscribers.length, updatedAt: sql`now()` })
      .where(eq(newsletterLetters.id, id));
    return subscribers.length;
  });
}

/** How far the sending of a letter is: mails sent, waiting, given up. */
export async function letterProgress(
  db: Database,
  id: number,
): Promise<{ sent: number; waiting: number; failed: number }> {
  const [row] = await db
    .select({
      sent: sql<number>`count(*) filter (where ${outbox.sentAt} is not null)::int`,
      failed: sql<number>`count(*) filter (where ${outbox.failedAt} is not null)::int`,
      waiting: sql<number>`count(*) filter (where ${outbox.sentAt} is null and ${outbox.failedAt} is null)::int`,
    })
    .from(outbox)
    .where(eq(outbox.letterId, id));
  return { sent: row?.sent ?? 0, waiting: row?.waiting ?? 0, failed: row?.failed ?? 0 };
}
