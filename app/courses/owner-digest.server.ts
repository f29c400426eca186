/**
 * The owner's booking notices, grouped past a few an hour (issue 33, item
 * 12; decision 036): 200 bookings in a minute must not put 200 mails in the
 * owner's inbox.
 *
 * `enqueueOwnerNotice(tx, perHour, now, notice)` writes the notice as
 * usual while fewer than `perHour` were written in the hour before `now`;
 * past that, the notice joins the one pending digest (`ownerDigest` kind,
 * text only), written with the first notice held and sent an hour later
 * (`not_before`): each held notice adds its text to the digest's and its
 * people to the digest's `named` (export and erasure find them). One
 * transaction-scoped advisory lock (`site:owner-digest`) orders the count
 * and the digest's writes. Without `perHour` (the desk's own bookings), it
 * is `enqueueMail`.
 */
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { enqueueMail, namedIn, type MailToSend } from "~/mail/enqueue.server";
import { BOOKING_MAIL } from "./mails.server";

/** How long a digest gathers notices before it leaves, in milliseconds (an hour). */
export const OWNER_DIGEST_DELAY_MS = 60 * 60_000;

const DIGEST_SUBJECT = "Inscriptions aux cours : plusieurs arrivées en peu de temps";
const DIGEST_INTRO =
  "Bonjour,\n\nBeaucoup d’inscriptions sont arrivées en peu de temps : pour ne pas remplir votre boîte, je les réunis ici, une heure après la première. Les voici, dans l’ordre d’arrivée.";
const SEPARATOR = "\n\n————————————\n\n";

/**
 * Writes the owner's `notice` (recipient null), or adds it to the pending
 * digest when `perHour` notices were written in the hour before `now`.
 * @returns the id of the outbox row that carries it. @throws the driver's error.
 */
export async function enqueueOwnerNotice(
  tx: Database,
  perHour: number | undefined,
  now: Date,
  notice: MailToSend,
): Promise<number> {
  if (perHour === undefined) return enqueueMail(tx, notice);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('site:owner-digest'))`);
  // `created_at` is the database's clock: the hour is counted by it too.
  const [{ written } = { written: 0 }] = await tx
    .select({ written: sql<number>`count(*)::int` })
    .from(outbox)
    .where(and(eq(outbox.kind, notice.kind), gt(outbox.createdAt, sql`now() - interval '1 hour'`)));
  if (written < perHour) return enqueueMail(tx, notice);
  const entry = `${notice.subject}\n\n${notice.text.trim()}`;
  const [pending] = await tx
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.kind, BOOKING_MAIL.ownerDigest),
        isNull(outbox.sentAt),
        isNull(outbox.failedAt),
        gt(outbox.notBefore, sql`now()`),
      ),
    )
    .limit(1);
  if (!pending) {
    return enqueueMail(tx, {
      kind: BOOKING_MAIL.ownerDigest,
      recipient: null,
      people: notice.people ?? [],
      subject: DIGEST_SUBJECT,
      text: `${DIGEST_INTRO}${SEPARATOR}${entry}\n`,
      notBefore: new Date(now.getTime() + OWNER_DIGEST_DELAY_MS),
    });
  }
  const named = namedIn({ recipient: null, subject: notice.subject, text: notice.text, people: notice.people ?? [] });
  await tx
    .update(outbox)
    .set({
      textBody: sql`${outbox.textBody} || ${`${SEPARATOR}${entry}\n`}`,
      named: sql`${outbox.named} || ${JSON.stringify(named)}::jsonb`,
    })
    .where(eq(outbox.id, pending.id));
  return pending.id;
}
