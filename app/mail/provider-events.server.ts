/**
 * What a mail provider tells later about a mail it accepted (decision 044):
 * a bounce (the recipient's server refused it after all) or a complaint
 * (the person marked it as spam). Each provider's webhook has its adapter
 * (Mailgun's: mailgun.server.ts) that turns its body into a `ProviderEvent`;
 * `recordProviderEvent` then marks the outbox row: a permanent bounce or a
 * complaint makes the row not delivered (`sent_at` cleared, `failed_at` set,
 * `error_stage` "bounce" or "complaint"), so that the desk lists it with its
 * reason in French and `refusedForGood` (manage.server.ts) stops the
 * newsletter's letters to that address. A temporary bounce changes nothing
 * (the provider retries it itself).
 *
 * The row is found by the Message-ID the worker gives each mail
 * (`outboxMessageId`: `<o{row id}.{random}@domain of MAIL_FROM>`), checked
 * against the event's recipient; else the latest mail sent to that recipient.
 */
import { randomUUID } from "node:crypto";
import { and, desc, eq, isNotNull, or, sql } from "drizzle-orm";
import { addressParser } from "postal-mime";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { mailsTo } from "./undelivered.server";

/** One event of a provider, as every adapter gives it. */
export type ProviderEvent =
  | {
      kind: "bounce";
      /** True: the address or message will never be accepted (a 5xx); false: the provider retries. */
      permanent: boolean;
      recipient: string;
      /** The mail's Message-ID, with or without its angle brackets; null when the provider gave none. */
      messageId: string | null;
      /** The SMTP reply code the provider met (550…), or null. */
      code: number | null;
      /** The provider's words (may name the address: stored for the owner, never logged), or null. */
      description: string | null;
    }
  | { kind: "complaint"; recipient: string; messageId: string | null };

/**
 * The domain of a sender mailbox (MAIL_FROM: « site@exemple.ch » or « Nom <site@exemple.ch> »),
 * lower-cased; "localhost" when it has none. Every Message-ID is on it, and the desk's sender check
 * (sender-check.server.ts) looks it up.
 */
export function mailFromDomain(from: string): string {
  return (addressParser(from, { flatten: true })[0]?.address?.split("@").pop() || "localhost").toLowerCase();
}

/**
 * The Message-ID of outbox row `id` sent from `domain`: `<o42.{uuid}@domain>`
 * (unique on every attempt; the row id is what `recordProviderEvent` reads back).
 */
export function outboxMessageId(id: number, domain: string): string {
  return `<o${id}.${randomUUID()}@${domain}>`;
}

/** The outbox row id a Message-ID of `outboxMessageId` names, or null for any other. */
export function outboxIdOfMessageId(messageId: string): number | null {
  const match = /^<?o(\d{1,15})\.[0-9a-f-]{36}@[^>\s]+>?$/i.exec(messageId.trim());
  return match ? Number(match[1]) : null;
}

/** What `recordProviderEvent` did: the row marked, or why nothing was. */
export type RecordOutcome =
  { outcome: "marked"; mailId: number } | { outcome: "ignored"; reason: "temporary" | "unknown-mail" };

/**
 * Marks the mail `event` is about as not delivered (see above), at `now`.
 * The row named by the Message-ID when it is to the event's recipient, else
 * the latest mail sent to that recipient (or, failing that, already marked).
 * @throws whatever the driver throws.
 */
export async function recordProviderEvent(db: Database, event: ProviderEvent, now: Date): Promise<RecordOutcome> {
  if (event.kind === "bounce" && !event.permanent) return { outcome: "ignored", reason: "temporary" };
  const to = mailsTo(event.recipient);
  const named = event.messageId ? outboxIdOfMessageId(event.messageId) : null;
  const [row] = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(to, or(isNotNull(outbox.sentAt), isNotNull(outbox.failedAt))))
    .orderBy(
      ...(named === null ? [] : [desc(eq(outbox.id, named))]),
      desc(isNotNull(outbox.sentAt)),
      desc(sql`coalesce(${outbox.sentAt}, ${outbox.failedAt})`),
      desc(outbox.id),
    )
    .limit(1);
  if (!row) return { outcome: "ignored", reason: "unknown-mail" };
  const bounce = event.kind === "bounce";
  await db
    .update(outbox)
    .set({
      sentAt: null,
      failedAt: now.toISOString(),
      dismissedAt: null,
      errorStage: bounce ? "bounce" : "complaint",
      errorCode: bounce ? event.code : null,
      lastError: bounce ? event.description : null,
    })
    .where(eq(outbox.id, row.id));
  return { outcome: "marked", mailId: row.id };
}
