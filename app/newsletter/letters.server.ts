/**
 * Letters in the owner's desk: drafts, a test to oneself, the sending to
 * every confirmed subscriber, its progress, and the public archive.
 *
 * `sendLetter(db, id, { siteUrl, now })` marks the letter sent and writes
 * one outbox row per confirmed subscriber whose address was not refused for
 * good by its provider (`refusedForGood`, decision 042), each with its own
 * unsubscribe link and the RFC 8058 headers (set-based, in short batches:
 * queue.server.ts, decision 055); the outbox's unique index on (letter,
 * recipient) and the letter's lock make a second click, or a second
 * process, write nothing more. The outbox worker then sends at
 * NEWSLETTER_RATE_PER_MINUTE; a crash may send one mail twice (the one
 * being sent when it happened: delivery at least once), never more.
 */
import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { newsletterLetters, newsletterSubscribers, outbox } from "~/db/schema";
import { enqueueMail } from "~/mail/enqueue.server";
import { letterMail } from "./letter.server";
import { queueLetter, startLetter } from "./queue.server";
import { NEWSLETTER_MAIL_KINDS } from "./subscriptions.server";

export { letterSlug } from "./queue.server";

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

/** What the public lists show of a sent letter (never its text): its archive slug, subject and ISO send time. */
export type SentLetter = { slug: string; subject: string; sentAt: string };

/**
 * Sent letters, newest first (the public archive, the newsletter page's
 * last `limit`, the sitemap), without their text.
 */
export async function sentLetters(db: Database, { limit }: { limit?: number } = {}): Promise<SentLetter[]> {
  const rows = await db
    .select({ slug: newsletterLetters.slug, subject: newsletterLetters.subject, sentAt: newsletterLetters.sentAt })
    .from(newsletterLetters)
    .where(isNotNull(newsletterLetters.sentAt))
    .orderBy(desc(newsletterLetters.sentAt))
    .limit(limit ?? Number.MAX_SAFE_INTEGER);
  // A sent letter has both (sendLetter sets them together).
  return rows.map((row) => ({ slug: row.slug!, subject: row.subject, sentAt: row.sentAt! }));
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
 * Sends a letter to every confirmed subscriber and waits until every mail
 * is queued (`startLetter`, then `queueLetter`: app/newsletter/queue.server.ts;
 * the desk's "Envoyer" answers after the first and queues in the background).
 * @returns the number of mails written, or null when the letter does not
 *   exist or was already sent.
 */
export async function sendLetter(
  db: Database,
  id: number,
  { siteUrl, now = new Date() }: { siteUrl: string; now?: Date },
): Promise<number | null> {
  if (!(await startLetter(db, id, { now }))) return null;
  return queueLetter(db, id, { siteUrl, now });
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
