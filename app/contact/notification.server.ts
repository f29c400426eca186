/**
 * The owner's notification of a new contact request: plain text and HTML,
 * every field of the request, `Reply-To` the visitor. Values are escaped in
 * the HTML, and the subject is one line whatever a field holds (nodemailer
 * encodes headers too, so no header can be injected). Rendered when the
 * request is stored (`saveContactRequest`), and by the outbox worker for
 * rows stored before that, which kept only the request's fields.
 */
import { escapeHtml, mailbox, oneLine } from "~/mail/render.server";
import { groupDetails, groupRows, serviceLabel, type ContactRequest } from "./schema";

/** The outbox `kind` of the owner's notification of a contact request. */
export const CONTACT_NOTIFICATION = "contact-notification";

/** The request's fields the notification shows (and the JSON of a legacy outbox row's `payload`). */
export interface ContactNotificationPayload extends ContactRequest {
  contactId: number;
  /** ISO date-time of the consent (the request's arrival). */
  consentTimestamp: string;
  /** The code word the visitor was shown (absent on legacy outbox rows). */
  codeWord?: string;
}

/** The rendered notification: what the outbox row stores. */
export interface ContactMail {
  /** The visitor, with their name: `"Marie Dupont" <marie@example.ch>`. */
  replyTo: string;
  subject: string;
  text: string;
  html: string;
}

/** Renders the owner's notification of the request `payload` (French, times in Europe/Zurich). */
export function buildContactMail(payload: ContactNotificationPayload): ContactMail {
  const when = new Intl.DateTimeFormat("fr-CH", {
    dateStyle: "full",
    timeStyle: "short",
    timeZone: "Europe/Zurich",
  }).format(new Date(payload.consentTimestamp));
  const rows: [string, string][] = [
    ["Prénom", payload.firstName],
    ["Nom", payload.lastName],
    ["E-mail", payload.email],
    ["Téléphone", payload.phone],
    ["Service", serviceLabel(payload.service)],
    ...groupRows(groupDetails(payload)),
    ["Message", payload.message?.trim() || "(aucun)"],
    ["Lettre d’information", payload.newsletterConsent ? "oui, souhaite la recevoir" : "non"],
    ["Consentement", `accepté le ${when}`],
    ["N° de la demande", String(payload.contactId)],
    ...(payload.codeWord
      ? ([["Mot de code", `« ${payload.codeWord} » (à dire au début de votre appel ou de votre réponse)`]] as [
          string,
          string,
        ][])
      : []),
  ];
  return {
    replyTo: mailbox(`${payload.firstName} ${payload.lastName}`, payload.email),
    subject: oneLine(
      `Nouvelle demande de contact : ${payload.firstName} ${payload.lastName} (${serviceLabel(payload.service)})`,
    ),
    text: `Nouvelle demande de contact reçue par le site.\n\n${rows.map(([label, value]) => `${label} : ${value}`).join("\n")}\n\nRépondez simplement à ce message pour écrire à la personne.\n`,
    html: `<p>Nouvelle demande de contact reçue par le site.</p><table cellpadding="6">${rows
      .map(
        ([label, value]) =>
          `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td>${escapeHtml(value).replace(/\r?\n/g, "<br>")}</td></tr>`,
      )
      .join("")}</table><p>Répondez simplement à ce message pour écrire à la personne.</p>`,
  };
}
