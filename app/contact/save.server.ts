/**
 * Stores a valid contact request and its owner notification in one
 * transaction: both rows or neither. Sets `contact_consent = true`,
 * `consent_timestamp` (server time) and `phone_e164` (the telephone in
 * E.164, null when unreadable: app/utils/phone.ts) itself.
 * @returns the new contact's id. @throws whatever the driver throws when the
 *   database is unreachable (nothing is written then).
 */
import type { Database } from "~/db/client.server";
import { contacts, outbox } from "~/db/schema";
import { toE164 } from "~/utils/phone";
import type { ContactNotificationPayload } from "./notification.server";
import type { ContactRequest } from "./schema";

export const CONTACT_NOTIFICATION = "contact-notification";

export async function saveContactRequest(db: Database, request: ContactRequest, now = new Date()): Promise<number> {
  const consentTimestamp = now.toISOString();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contacts)
      .values({
        firstName: request.firstName,
        lastName: request.lastName,
        email: request.email,
        phone: request.phone,
        phoneE164: toE164(request.phone),
        service: request.service,
        message: request.message || null,
        newsletterConsent: request.newsletterConsent,
        contactConsent: true,
        consentTimestamp,
      })
      .returning({ id: contacts.id });
    const contactId = row!.id;
    const payload: ContactNotificationPayload = { ...request, contactId, consentTimestamp };
    await tx.insert(outbox).values({ kind: CONTACT_NOTIFICATION, contactId, payload });
    return contactId;
  });
}
