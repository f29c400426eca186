/**
 * A letter leaving for every confirmed subscriber (decision 055): rendered
 * once, queued by set-based statements, in short batches.
 *
 * - `startLetter(db, id, { now })` marks the letter sent (its date and
 *   archive address) in one short transaction; null when it does not exist
 *   or already left (a second click, a second process). From then on the
 *   letter never changes; `recipients` stays null while it is being queued.
 * - `queueLetter(db, id, { siteUrl, now, batchSize, onBatch })` renders the
 *   letter once, with the merge tag `LIST_UNSUBSCRIBE_TAG` where each
 *   subscriber's unsubscribe link goes, then writes the outbox rows in
 *   batches of `batchSize` subscribers (the next by id), each batch one transaction
 *   of one statement: a fresh unsubscribe token per subscriber
 *   (`freshTokenSql`, only its hash kept in `link_tokens`), the row's
 *   `List-Unsubscribe` header with the link, the rendered bodies as they
 *   are. The outbox fills the tag from that header when the mail leaves
 *   (`fillListUnsubscribe`, app/mail/layout.server.ts): what the row
 *   promised is what is sent. When no subscriber is left to queue,
 *   `recipients` is set to the number of mails written. Subscribers already
 *   queued for the letter, unconfirmed ones and addresses refused for good
 *   (`refusedAddresses`, decision 042) are skipped, so a run that stopped
 *   half-way (a crash) is finished by running it again, by any process.
 * - `resumeQueueing` (the newsletter's timed job): finishes the letters
 *   whose queueing has not moved for `STALE_QUEUEING_MS` (a process that
 *   died mid-queue).
 *
 * Every batch touches the letter's `updated_at` under its row lock: two
 * processes queueing one letter take turns, and the job leaves a letter
 * that is moving alone.
 */
import { and, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import type { TimedJob } from "~/desk/jobs.server";
import { newsletterLetters, newsletterSubscribers, outbox } from "~/db/schema";
import { ownerReplyTo } from "~/mail/enqueue.server";
import { LIST_UNSUBSCRIBE_TAG } from "~/mail/layout.server";
import { refusedAddresses } from "~/mail/manage.server";
import { readSiteSettings } from "~/settings/site.server";
import { freshTokenSql, tokenHashSql } from "~/tokens/tokens.server";
import { letterMail } from "./letter.server";
import { NEWSLETTER_MAIL_KINDS, TOKEN_PURPOSES, UNSUBSCRIBE_LIFETIME_MS } from "./subscriptions.server";

/** Subscribers a batch queues: one short transaction each (12 ms of CPU on PGlite, 55 at worst; decision 065). */
export const QUEUE_BATCH = 50;

/** The pause between two batches, in milliseconds: 200 batches for 10,000 subscribers, 4 s in all. */
export const QUEUE_PAUSE_MS = 20;

/** A letter whose queueing has not moved for this long is finished by the job (its process died). */
export const STALE_QUEUEING_MS = 2 * 60_000;

type Letter = typeof newsletterLetters.$inferSelect;

/** Letters this process is queueing now: the job leaves them alone. */
const queueing = new Set<number>();

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

/**
 * Marks the letter sent now, before a single mail is written.
 * @returns the letter as sent, or null when it does not exist or already left.
 */
export async function startLetter(db: Database, id: number, { now = new Date() } = {}): Promise<Letter | null> {
  return db.transaction(async (tx) => {
    const [letter] = await tx.select().from(newsletterLetters).where(eq(newsletterLetters.id, id)).for("update");
    if (!letter || letter.sentAt) return null;
    const [sent] = await tx
      .update(newsletterLetters)
      .set({
        sentAt: now.toISOString(),
        slug: letterSlug(letter.subject, now, letter.id),
        updatedAt: now.toISOString(),
      })
      .where(eq(newsletterLetters.id, id))
      .returning();
    return sent!;
  });
}

/**
 * Writes the outbox rows of a letter `startLetter` marked sent, for every
 * confirmed subscriber not yet queued, `batchSize` at a time; `onBatch`
 * after each batch that wrote rows (wake the outbox).
 * @returns the letter's mails in the outbox, once all are queued; null when
 *   the letter was not sent or is already fully queued.
 * @throws whatever the driver throws (what was queued stays; run it again).
 */
export async function queueLetter(
  db: Database,
  id: number,
  {
    siteUrl,
    now = new Date(),
    batchSize = QUEUE_BATCH,
    onBatch,
  }: { siteUrl: string; now?: Date; batchSize?: number; onBatch?: (queued: number) => void },
): Promise<number | null> {
  const [letter] = await db.select().from(newsletterLetters).where(eq(newsletterLetters.id, id));
  if (!letter?.sentAt || !letter.slug || letter.recipients !== null) return null;
  queueing.add(id);
  try {
    // Rendered once for every subscriber; the link that differs is filled when each mail leaves.
    const mail = letterMail({
      subject: letter.subject,
      markdown: letter.body,
      unsubscribeUrl: LIST_UNSUBSCRIBE_TAG,
      archiveUrl: `${siteUrl}/newsletter/archives/${letter.slug}`,
    });
    const replyTo = ownerReplyTo((await readSiteSettings(db)).identity);
    const expiresAt = new Date(now.getTime() + UNSUBSCRIBE_LIFETIME_MS).toISOString();
    const linkPrefix = `${siteUrl}/newsletter/desabonnement/`;
    let after = 0;
    for (;;) {
      const batch = await db.transaction(async (tx) => {
        // The letter's row lock: batches of two processes take turns; the job sees the letter moving.
        const [locked] = await tx
          .update(newsletterLetters)
          .set({ updatedAt: new Date().toISOString() })
          .where(and(eq(newsletterLetters.id, id), isNull(newsletterLetters.recipients)))
          .returning({ id: newsletterLetters.id });
        if (!locked) return null;
        const result = (await tx.execute(sql`
          with candidates as materialized (
            -- The next subscribers by id (the primary key's order): a batch reads only these, however many are left.
            select s.id, s.email, s.status from ${newsletterSubscribers} s where s.id > ${after} order by s.id limit ${batchSize}
          ),
          picked as (
            select c.id, c.email, ${freshTokenSql} as token
            from candidates c
            where c.status = 'confirmed'
              -- An address its provider refused for good (550 at RCPT TO, decision 042) gets no more letters.
              and lower(c.email) not in (${refusedAddresses})
              and not exists (select 1 from ${outbox} o where o.letter_id = ${id} and o.recipient = c.email)
          ),
          tokens as (
            insert into link_tokens (hash, purpose, subject, expires_at)
            select ${tokenHashSql(sql`picked.token`)}, ${TOKEN_PURPOSES.unsubscribe}, picked.id::text, ${expiresAt}::timestamptz
            from picked
          ),
          mails as (
            insert into ${outbox} (kind, letter_id, recipient, reply_to, subject, text_body, html_body, headers, named)
            select ${NEWSLETTER_MAIL_KINDS.letter}, ${id}, picked.email, ${replyTo}, ${mail.subject}, ${mail.text},
              ${mail.html}, replace(${JSON.stringify(mail.headers)}, ${LIST_UNSUBSCRIBE_TAG}, ${linkPrefix} || picked.token)::jsonb,
              jsonb_build_array(jsonb_build_object('email', lower(picked.email)))
            from picked
            on conflict (letter_id, recipient) where letter_id is not null do nothing
            returning 1
          )
          select (select count(*) from mails)::int as queued, (select max(id) from candidates)::int as last`)) as unknown as {
          rows: { queued: number; last: number | null }[];
        };
        // Both drivers answer `{ rows }`.
        const [row] = result.rows;
        return { queued: row?.queued ?? 0, last: row?.last ?? null };
      });
      if (!batch) return null;
      if (batch.last === null) break;
      after = batch.last;
      if (batch.queued > 0) onBatch?.(batch.queued);
      // A pause for the requests that need the database (one connection on PGlite): each of a page's few
      // queries would otherwise wait behind a batch (a miss waited 8.6 s, 550 ms of the site's CPU).
      await new Promise((resolve) => setTimeout(resolve, QUEUE_PAUSE_MS));
    }
    return await db.transaction(async (tx) => {
      const [{ count } = { count: 0 }] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(outbox)
        .where(eq(outbox.letterId, id));
      const done = await tx
        .update(newsletterLetters)
        .set({ recipients: count, updatedAt: new Date().toISOString() })
        .where(and(eq(newsletterLetters.id, id), isNull(newsletterLetters.recipients)))
        .returning({ id: newsletterLetters.id });
      return done.length ? count : null;
    });
  } finally {
    queueing.delete(id);
  }
}

/**
 * Finishes the queueing of letters left half-way for `STALE_QUEUEING_MS`
 * (their process died), except those this process is queueing.
 * @returns how many letters it finished.
 */
export async function resumeQueueing(db: Database, { siteUrl, now }: { siteUrl: string; now: Date }): Promise<number> {
  const stale = await db
    .select({ id: newsletterLetters.id })
    .from(newsletterLetters)
    .where(
      and(
        isNotNull(newsletterLetters.sentAt),
        isNull(newsletterLetters.recipients),
        lt(newsletterLetters.updatedAt, new Date(now.getTime() - STALE_QUEUEING_MS).toISOString()),
      ),
    );
  let finished = 0;
  for (const { id } of stale) {
    if (queueing.has(id)) continue;
    if ((await queueLetter(db, id, { siteUrl, now })) !== null) finished++;
  }
  return finished;
}

/** The newsletter's timed job: letters whose process died while queueing them are finished. */
export const letterQueueJob: TimedJob = {
  name: "letters being queued",
  intervalMs: 60_000,
  run: async ({ db, siteUrl, now }) => ({ lettersResumed: await resumeQueueing(db, { siteUrl, now }) }),
};
