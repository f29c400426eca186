/**
 * The owner's notification of a new contact request: plain text and HTML,
 * every field of the request, `Reply-To` the visitor. Values are escaped in
 * the HTML, and the subject is one line whatever a field holds (nodemailer
 * encodes headers too, so no header can be injected).
 */
import { serviceLabel, type ContactRequest } from "./schema";

/** What the outbox stores for a contact notification (JSON). */
export interface ContactNotificationPayload extends ContactRequest {
  contactId: number;
  /** ISO date-time of the consent (the request's arrival). */
  consentTimestamp: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

const oneLine = (value: string) => value.replace(/\p{Cc}+/gu, " ").trim();

export function buildContactMail(payload: ContactNotificationPayload, { from, to }: { from: string; to: string }) {
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
    ["Message", payload.message?.trim() || "(aucun)"],
    ["Lettre d’information", payload.newsletterConsent ? "oui, souhaite la recevoir" : "non"],
    ["Consentement", `accepté le ${when}`],
    ["N° de la demande", String(payload.contactId)],
  ];
  return {
    from,
    to,
    replyTo: { name: oneLine(`${payload.firstName} ${payload.lastName}`), address: payload.email },
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
