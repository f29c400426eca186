/**
 * Stores a valid callback request (`/rappel`) and the owner's notification
 * in one transaction: both rows or neither. The request is a row of
 * `contacts` of kind "rappel" (no e-mail, no service; its half-days), so
 * that it reaches the desk's inbox, the person's export and erasure by
 * telephone (`phone_e164`) and the retention like every request. It gets a
 * code word (`newCodeWord`), shown on the confirmation and in the mail.
 * @returns the new row's id and its code word. @throws whatever the driver
 *   throws when the database is unreachable (nothing is written then).
 */
import type { Database } from "~/db/client.server";
import { contacts } from "~/db/schema";
import { enqueueMail } from "~/mail/enqueue.server";
import { newCodeWord } from "~/trust/code-word.server";
import { toE164 } from "~/utils/phone";
import { buildCallbackMail, CALLBACK_NOTIFICATION } from "./notification.server";
import type { CallbackRequest } from "./schema";

export async function saveCallbackRequest(
  db: Database,
  request: CallbackRequest,
  { now = new Date(), siteUrl, codeWord = newCodeWord() }: { now?: Date; siteUrl?: string; codeWord?: string } = {},
): Promise<{ id: number; codeWord: string }> {
  const receivedAt = now.toISOString();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contacts)
      .values({
        kind: "rappel",
        firstName: request.firstName,
        lastName: request.lastName,
        email: null,
        phone: request.phone,
        phoneE164: toE164(request.phone),
        service: null,
        halfDays: request.halfDays,
        message: request.message || null,
        codeWord,
        newsletterConsent: false,
        contactConsent: true,
        consentTimestamp: receivedAt,
        createdAt: receivedAt,
        lastActivityAt: receivedAt,
      })
      .returning({ id: contacts.id });
    const id = row!.id;
    await enqueueMail(tx, {
      kind: CALLBACK_NOTIFICATION,
      recipient: null,
      contactId: id,
      ...buildCallbackMail({ ...request, contactId: id, codeWord, receivedAt, siteUrl }),
    });
    return { id, codeWord };
  });
}
