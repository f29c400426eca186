/**
 * The intents of the desk's request page (`/admin/demandes/:id`), one
 * function each, dispatched by the route's action on the posted `intent`:
 * `status` (a status of the list; its change is kept in the history),
 * `note` (the free note, at most NOTE_MAX characters) and `resend` (a
 * failed notification to the owner leaves again). Each answers
 * `{ message }` in French, with 400 when refused; an unknown request
 * throws a 404.
 */
import { data } from "react-router";
import { dbContext, wakeOutboxContext } from "~/context.server";
import type { DeskIntentArgs } from "~/desk/intent.server";
import { isRequestStatus, NOTE_MAX, statusLabel } from "./requests";
import { resendNotification, setNote, setStatus } from "./requests.server";

/** `status`: sets the request's status. */
export async function setStatusIntent({ form, context, id }: DeskIntentArgs) {
  const status = form.get("status");
  if (!isRequestStatus(status)) return data({ message: "Choisissez un statut de la liste." }, { status: 400 });
  const outcome = await setStatus(context.get(dbContext), id, status);
  if (!outcome) throw data(null, { status: 404 });
  return {
    message:
      outcome === "changed" ? `Statut changé : ${statusLabel(status)}.` : `Le statut reste : ${statusLabel(status)}.`,
  };
}

/** `note`: saves the owner's free note. */
export async function saveNoteIntent({ form, context, id }: DeskIntentArgs) {
  const note = String(form.get("note") ?? "");
  if (note.length > NOTE_MAX) {
    return data({ message: `La note doit contenir au plus ${NOTE_MAX} caractères.` }, { status: 400 });
  }
  if (!(await setNote(context.get(dbContext), id, note))) throw data(null, { status: 404 });
  return { message: "Note enregistrée." };
}

/** `resend`: the failed notification `mail` of this request leaves again. */
export async function resendIntent({ form, context, id }: DeskIntentArgs) {
  const mailId = Number(form.get("mail"));
  const resent = Number.isSafeInteger(mailId) && (await resendNotification(context.get(dbContext), id, mailId));
  if (resent) context.get(wakeOutboxContext)();
  return resent
    ? { message: "La notification repart : elle sera envoyée dans quelques instants." }
    : data({ message: "Cette notification ne peut pas être renvoyée." }, { status: 400 });
}
