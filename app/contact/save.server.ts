/**
 * Stores a valid contact request and its owner notification in one
 * transaction: both rows or neither. Sets `contact_consent = true`,
 * `consent_timestamp` (server time) and `phone_e164` (the telephone in
 * E.164, null when unreadable: app/utils/phone.ts) itself, and the group's
 * details (organisation, commune, size) for a talk or workshop for a group,
 * null otherwise. The notification
 * is rendered now (`buildContactMail`) and queued in the outbox for the
 * owner (`recipient` null: CONTACT_NOTIFY_TO when sent). With
 * `newsletterConsent` and `siteUrl`, the newsletter's double opt-in starts
 * in the same transaction (`requestSubscription`: a confirmation mail,
 * nobody subscribed without clicking; with `mailCap`, held past the
 * address's mails of the day). The request gets `codeWord` (a new
 * one of app/trust/code-word.server.ts when not given), stored and shown in
 * the notification.
 * @returns the new contact's id. @throws whatever the driver throws when the
 *   database is unreachable (nothing is written then).
 */
import type { Database } from "~/db/client.server";
import { contacts } from "~/db/schema";
import { enqueueMail } from "~/mail/enqueue.server";
import type { RecipientCap } from "~/mail/recipient-cap.server";
import { requestSubscription } from "~/newsletter/subscriptions.server";
import { buildContactMail, CONTACT_NOTIFICATION } from "./notification.server";
import { newCodeWord } from "~/trust/code-word.server";
import { toE164 } from "~/utils/phone";
import { groupDetails, type ContactRequest } from "./schema";

export async function saveContactRequest(
  db: Database,
  request: ContactRequest,
  now = new Date(),
  { siteUrl, codeWord = newCodeWord(), mailCap }: { siteUrl?: string; codeWord?: string; mailCap?: RecipientCap } = {},
): Promise<number> {
  const consentTimestamp = now.toISOString();
  const group = groupDetails(request);
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
        organisation: group.organisation ?? null,
        commune: group.commune ?? null,
        groupSize: group.groupSize ?? null,
        newsletterConsent: request.newsletterConsent,
        contactConsent: true,
        consentTimestamp,
        codeWord,
      })
      .returning({ id: contacts.id });
    const contactId = row!.id;
    await enqueueMail(tx, {
      kind: CONTACT_NOTIFICATION,
      recipient: null,
      contactId,
      people: [{ name: `${request.firstName} ${request.lastName}`, email: request.email, phone: request.phone }],
      ...buildContactMail({ ...request, contactId, consentTimestamp, codeWord }),
    });
    // "Je souhaite recevoir la lettre d'information": the same double opt-in as the boxes.
    if (request.newsletterConsent && siteUrl) {
      await requestSubscription(tx, { email: request.email, source: "contact", siteUrl, now, mailCap });
    }
    return contactId;
  });
}
