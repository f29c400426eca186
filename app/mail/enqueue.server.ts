/**
 * Writing a mail into the outbox (`enqueueMail`), already rendered: the
 * worker (`outbox.server.ts`) sends the row's subject, bodies, headers and
 * attached files as they were written, whatever the templates become later. Call it inside
 * the transaction that writes what the mail announces (a contact request, a
 * booking...): both rows are stored, or neither.
 */
import type { Database } from "~/db/client.server";
import type { IdentitySettings } from "~/settings/schema";
import { readSiteSettings } from "~/settings/site.server";
import { outbox, type MailAttachment, type NamedPerson } from "~/db/schema";
import { toE164 } from "~/utils/phone";
import { mailbox } from "./render.server";

export type { MailAttachment, NamedPerson };

/** A person a mail may name, as typed: the name ("Marie Dupont"), e-mail and telephone. */
export interface MailPerson {
  name: string;
  email?: string | null;
  phone?: string | null;
}

/** A mail as the outbox stores it: everything but the sender, which is MAIL_FROM when sent. */
export interface MailToSend {
  /** Which mail, e.g. "contact-notification"; the desk and the rate limits go by it. */
  kind: string;
  /** The recipient's e-mail address, or null for the owner (CONTACT_NOTIFY_TO, read when sending). */
  recipient: string | null;
  /**
   * A Reply-To: a bare address, or `mailbox(name, address)` (render.server.ts).
   * Absent on a mail to a visitor (`recipient` set): the owner's address
   * (`ownerReplyTo()`), so that "Répondre" reaches the owner, never MAIL_FROM.
   */
  replyTo?: string | null;
  /** One line (nodemailer encodes it; a line break would be folded away). */
  subject: string;
  /** The plain-text body. */
  text: string;
  /** The HTML body, its values already escaped; absent: a text-only mail. */
  html?: string | null;
  /** Extra headers, name to value (e.g. List-Unsubscribe). */
  headers?: Record<string, string> | null;
  /** Text files attached to the mail (a course's calendar file). */
  attachments?: MailAttachment[] | null;
  /** The invoice the mail carries, if any: its PDF is rendered and attached when the mail is sent (app/invoices/). */
  invoiceId?: number | null;
  /** The quote the mail carries, if any: its PDF is rendered and attached when the mail is sent (app/quotes/). */
  quoteId?: number | null;
  /** The earliest time the mail may leave (a reminder); absent: now. */
  notBefore?: Date;
  /** The time past which it would say something untrue (a reminder: the lesson's start): given up then, never sent late. */
  notAfter?: Date;
  /** The contact request the mail belongs to, if any. */
  contactId?: number | null;
  /** The newsletter letter the mail carries, if any (a letter goes once to each address). */
  letterId?: number | null;
  /**
   * The people the mail may name (a registration's attendee and relative, the first on the waiting
   * list): those whose name, e-mail or telephone the subject or text body holds are stored in
   * `outbox.named`, with the recipient, so that erasing one of them finds the mail (decision 019).
   */
  people?: readonly MailPerson[];
}

/**
 * Who `mail` names (decision 019): each of `mail.people` whose name, e-mail or
 * telephone (as typed) is in its subject or text body, then the recipient
 * (unless one of those has its address); e-mails lower-cased, telephones in E.164.
 */
export function namedIn(mail: Pick<MailToSend, "recipient" | "subject" | "text" | "people">): NamedPerson[] {
  const squeeze = (value: string) => value.trim().replace(/\s+/g, " ").toLowerCase();
  const text = squeeze(`${mail.subject}\n${mail.text}`);
  const appears = (value: string | null | undefined) => !!value?.trim() && text.includes(squeeze(value));
  const recipient = mail.recipient?.trim().toLowerCase();
  const people = mail.people ?? [];
  const named = people
    .filter((person) => appears(person.name) || appears(person.email) || appears(person.phone))
    .map(namedPerson);
  if (recipient && !named.some((person) => person.email === recipient)) {
    const known = people.find((person) => person.email?.trim().toLowerCase() === recipient);
    named.push(known ? namedPerson(known) : { email: recipient });
  }
  return named;
}

/** A person as `outbox.named` stores them: name with single spaces, e-mail lower-cased, telephone in E.164. */
function namedPerson(person: MailPerson): NamedPerson {
  const entry: NamedPerson = { name: person.name.trim().replace(/\s+/g, " ") };
  if (person.email?.trim()) entry.email = person.email.trim().toLowerCase();
  const phone = person.phone ? toE164(person.phone) : null;
  if (phone) entry.phone = phone;
  return entry;
}

/**
 * Inserts one rendered mail into the outbox, inside the caller's
 * transaction (`tx` is a Drizzle transaction or the database itself). A
 * mail to a visitor gets Reply-To the owner (`ownerReplyTo`) unless it
 * names another.
 * The worker sends it at `notBefore` or soon after (call `wakeOutbox` after
 * the commit to send it at once).
 * @returns the outbox row's id. @throws whatever the driver throws (the
 *   caller's transaction is then rolled back), and the check constraint's
 *   error when `subject` or `text` is missing.
 */
export async function enqueueMail(tx: Database, mail: MailToSend): Promise<number> {
  return (await enqueueMails(tx, [mail]))[0]!;
}

/**
 * `enqueueMail` for several mails in one statement (a booking's
 * confirmation and reminders: one round trip under the series' lock, not one
 * a mail).
 * @returns the rows' ids, in the order of `mails`. @throws as `enqueueMail`.
 */
export async function enqueueMails(tx: Database, mails: readonly MailToSend[]): Promise<number[]> {
  if (mails.length === 0) return [];
  const ownerReply = mails.some((mail) => mail.replyTo == null && mail.recipient !== null)
    ? ownerReplyTo((await readSiteSettings(tx)).identity)
    : null;
  const rows = await tx
    .insert(outbox)
    .values(
      mails.map((mail) => {
        const notBefore = mail.notBefore?.toISOString();
        return {
          kind: mail.kind,
          contactId: mail.contactId ?? null,
          letterId: mail.letterId ?? null,
          recipient: mail.recipient,
          replyTo: mail.replyTo ?? (mail.recipient !== null ? ownerReply : null),
          subject: mail.subject,
          textBody: mail.text,
          htmlBody: mail.html ?? null,
          headers: mail.headers ?? null,
          attachments: mail.attachments?.length ? mail.attachments : null,
          invoiceId: mail.invoiceId ?? null,
          quoteId: mail.quoteId ?? null,
          named: namedIn(mail),
          notAfter: mail.notAfter?.toISOString() ?? null,
          // The worker's schedule starts at the promised time: the pending index then finds it.
          ...(notBefore ? { notBefore, nextAttemptAt: notBefore } : {}),
        };
      }),
    )
    .returning({ id: outbox.id });
  // One statement takes its ids from the sequence in the order of its rows.
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/** The Reply-To of every mail to a visitor: the owner's name and public address (Réglages' `identity`). */
export function ownerReplyTo(identity: Pick<IdentitySettings, "name" | "email">): string {
  return mailbox(identity.name, identity.email);
}
