/**
 * The desk's audit trail (`audit_log`): one row, and one log line, per
 * sign-in, failed sign-in, sign-out, export or erasure of a person's data,
 * retention run, per registration the owner cancels or seat the owner gives,
 * per series created, session cancelled and attendance ticked (issue 22),
 * per change of an article and picture added or placed, per invoice made, sent, reminded, paid
 * or cancelled, per breach recorded or changed in the breach log (ids only). A row holds
 * when, which owner account (its id, when known), what, and counts: never
 * an e-mail, a name, a telephone number or an address.
 */
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { auditLog } from "~/db/schema";

/** What the audit trail records. */
export type AuditAction =
  | "sign-in"
  | "sign-in-failed"
  | "sign-in-limited"
  | "sign-out"
  | "sign-out-everywhere"
  | "erasure"
  | "export"
  | "retention"
  | "owner-added"
  | "two-factor-reset"
  | "article-created"
  | "article-saved"
  | "article-published"
  | "article-scheduled"
  | "article-unpublished"
  | "article-deleted"
  | "picture-added"
  | "picture-slot"
  | "picture-deleted"
  | "settings-saved"
  | "registration-cancelled"
  | "seat-given"
  | "offer-declined"
  | "sms-consent-given"
  | "sms-consent-withdrawn"
  | "series-created"
  | "series-date-moved"
  | "session-cancelled"
  | "course-kept"
  | "course-cancelled-below-minimum"
  | "attendance-marked"
  | "letter-address-saved"
  | "letters-sent"
  | "invoice-created"
  | "invoice-sent"
  | "invoice-reminded"
  | "invoice-paid"
  | "invoice-cancelled"
  | "quote-created"
  | "quote-edited"
  | "quote-sent"
  | "quote-posted"
  | "quote-accepted"
  | "quote-refused"
  | "quote-session-made"
  | "quote-participants-saved"
  | "quote-invoiced"
  | "mail-resent"
  | "breach-recorded"
  | "breach-updated";

/**
 * Writes one audit row and its log line. `details` holds counts and kinds
 * only (e.g. `{ step: "password" }`, `{ contacts: 2 }`).
 * @throws the driver's error when the database refuses the write.
 */
export async function audit(
  db: Pick<Database, "insert">,
  entry: { actor?: string | null; action: AuditAction; details?: Record<string, string | number> },
  logger?: Logger,
): Promise<void> {
  await db
    .insert(auditLog)
    .values({ actor: entry.actor ?? null, action: entry.action, details: entry.details ?? null });
  logger?.info({ audit: entry.action, actor: entry.actor ?? undefined, ...entry.details }, `desk: ${entry.action}`);
}
