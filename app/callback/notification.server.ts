/**
 * The owner's notification of a new callback request (`/rappel`): plain
 * text and HTML, every field, the half-days, the code word to say on the
 * telephone, and the request's page in the desk. No Reply-To: the person
 * gave no e-mail. Values are escaped in the HTML; the subject is one line.
 */
import { escapeHtml, oneLine } from "~/mail/render.server";
import { formatDateTime } from "~/utils/format";
import type { CallbackRequest } from "./schema";
import { halfDaysText } from "~/contact/half-days";

/** The outbox `kind` of the owner's notification of a callback request. */
export const CALLBACK_NOTIFICATION = "callback-notification";

/** What the notification shows: the request, its id, its code word and its arrival (ISO date-time). */
export interface CallbackNotificationPayload extends CallbackRequest {
  contactId: number;
  codeWord: string;
  receivedAt: string;
  /** The site's absolute URL (SITE_URL), for the link to the desk; absent: no link. */
  siteUrl?: string;
}

/** Renders the owner's notification (French, times in Europe/Zurich). */
export function buildCallbackMail(payload: CallbackNotificationPayload) {
  const rows: [string, string][] = [
    ["Prénom", payload.firstName],
    ["Nom", payload.lastName],
    ["Téléphone", payload.phone],
    ["Moments qui conviennent", halfDaysText(payload.halfDays)],
    ["Message", payload.message?.trim() || "(aucun)"],
    ["Mot de code", `« ${payload.codeWord} » (à dire au début de l’appel)`],
    ["Reçue le", formatDateTime(payload.receivedAt)],
    ["N° de la demande", String(payload.contactId)],
  ];
  const deskUrl = payload.siteUrl ? `${payload.siteUrl}/admin/demandes/${payload.contactId}` : null;
  const promise = "Promis sur le site : un appel dans les deux jours ouvrables.";
  return {
    subject: oneLine(`Demande de rappel : ${payload.firstName} ${payload.lastName}, ${payload.phone}`),
    text: `Nouvelle demande de rappel reçue par le site (sans adresse e-mail).\n\n${rows
      .map(([label, value]) => `${label} : ${value}`)
      .join("\n")}\n\n${promise}\n${deskUrl ? `Dans le bureau : ${deskUrl}\n` : ""}`,
    html: `<p>Nouvelle demande de rappel reçue par le site (sans adresse e-mail).</p><table cellpadding="6">${rows
      .map(
        ([label, value]) =>
          `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td>${escapeHtml(value).replace(/\r?\n/g, "<br>")}</td></tr>`,
      )
      .join("")}</table><p>${escapeHtml(promise)}</p>${
      deskUrl ? `<p><a href="${escapeHtml(deskUrl)}">Ouvrir la demande dans le bureau</a></p>` : ""
    }`,
  };
}
