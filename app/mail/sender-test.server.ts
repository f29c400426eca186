/**
 * The owner's test mail (« M’envoyer un essai », the desk's « Envoi des
 * e-mails » page): one outbox row of kind `sender-test` to the owner
 * (recipient null: CONTACT_NOTIFY_TO when sent, like every notice to the
 * owner), with a plain-text part and an HTML part like every mail, sent by
 * the worker like any other and kept in the outbox.
 *
 * Guarded so that a button pressed again and again sends little: a new
 * test is refused while the previous one has not left yet (`pending`), and
 * past `SENDER_TESTS_PER_HOUR` tests in the last hour of the clock
 * (`too-many`); both counted under one transaction-scoped advisory lock
 * (`site:sender-test`), so two posts at once queue one mail.
 */
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { siteName } from "~/content/site-name";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { formatDateTime } from "~/utils/format";
import { enqueueMail } from "./enqueue.server";
import { mailDocument, mailParagraph } from "./layout.server";
import { escapeHtml } from "./render.server";

/** The outbox kind of the owner's test mail. */
export const SENDER_TEST_MAIL = "sender-test";

/** The most test mails queued in any hour. */
export const SENDER_TESTS_PER_HOUR = 5;

/** What `queueSenderTest` did: the row queued, or why none was. */
export type SenderTestOutcome = { queued: true; id: number } | { queued: false; reason: "pending" | "too-many" };

/** The test mail's words: `moment` is when it was asked for, `pageUrl` the desk page it came from. */
export function senderTestMail(moment: Date, pageUrl: string) {
  const paragraphs = [
    "Bonjour,",
    `Cet e-mail est un essai, demandé le ${formatDateTime(moment)} depuis la page « Envoi des e-mails » du bureau de votre site.`,
    "S’il est arrivé dans votre boîte de réception, l’envoi fonctionne. S’il est arrivé dans les indésirables, la page « Envoi des e-mails » dit ce qu’il faut corriger.",
    "Pour en savoir plus : dans Gmail, ouvrez cet e-mail, puis le menu ⋮ et « Afficher l’original ». Les lignes SPF, DKIM et DMARC doivent dire « PASS ».",
  ];
  const subject = "Essai d’envoi depuis votre site";
  return {
    subject,
    text: `${paragraphs.join("\n\n")}\n\n-- \n${siteName}, bureau : ${pageUrl}\n`,
    html: mailDocument({
      title: subject,
      body: paragraphs.map(mailParagraph).join("\n"),
      footer: `${escapeHtml(siteName)}, bureau : <a href="${escapeHtml(pageUrl)}">${escapeHtml(pageUrl)}</a>`,
    }),
  };
}

/**
 * Queues the owner's test mail unless one is still waiting or
 * `SENDER_TESTS_PER_HOUR` were queued in the hour before `now`.
 * @throws whatever the driver throws (nothing is then queued).
 */
export async function queueSenderTest(db: Database, now: Date, pageUrl: string): Promise<SenderTestOutcome> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('site:sender-test'))`);
    const ofKind = eq(outbox.kind, SENDER_TEST_MAIL);
    const [waiting] = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(ofKind, isNull(outbox.sentAt), isNull(outbox.failedAt)))
      .limit(1);
    if (waiting) return { queued: false, reason: "pending" };
    const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
    const [recent] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(outbox)
      .where(and(ofKind, gt(outbox.createdAt, hourAgo)));
    if ((recent?.count ?? 0) >= SENDER_TESTS_PER_HOUR) return { queued: false, reason: "too-many" };
    const id = await enqueueMail(tx, { kind: SENDER_TEST_MAIL, recipient: null, ...senderTestMail(now, pageUrl) });
    return { queued: true, id };
  });
}

/** The last test mail: when it was asked for, sent or given up, and the server's last words; null: none yet. */
export async function lastSenderTest(db: Database) {
  const [row] = await db
    .select({
      createdAt: outbox.createdAt,
      sentAt: outbox.sentAt,
      failedAt: outbox.failedAt,
      attempts: outbox.attempts,
      lastError: outbox.lastError,
    })
    .from(outbox)
    .where(eq(outbox.kind, SENDER_TEST_MAIL))
    .orderBy(desc(outbox.id))
    .limit(1);
  return row ?? null;
}
