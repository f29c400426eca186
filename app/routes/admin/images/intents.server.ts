/**
 * The intents of `/admin/images`, one function each (the route's action
 * only reads the multipart form and dispatches on `intent`):
 * `restore` (a slot gets the repository's picture back), `confirm-delete`
 * (asks), `delete` (refused in French while a slot, an article or a letter
 * shows the picture) and `upload` (the default: a photo stored, and put in
 * a slot when one is chosen). Each answers `ImagesAnswer` (or redirects
 * after an upload); every change is audited with ids only.
 */
import { data, redirect } from "react-router";
import { dbContext, loggerContext, ownerContext, settingsContext, type RequestContext } from "~/context.server";
import { audit } from "~/desk/audit.server";
import {
  clearSlotPicture,
  deletePicture,
  listPictures,
  REPLACEABLE_SLOTS,
  setSlotPicture,
  type PictureUses,
  type ReplaceableSlot,
} from "~/pictures/pictures.server";
import type { PictureForm } from "~/pictures/upload-form.server";
import { uploadPicture } from "~/pictures/upload.server";
import { refreshSiteShareImage } from "~/seo/share-image.server";

/** What the page shows after a post. */
export type ImagesAnswer = {
  message?: string;
  errors?: Partial<Record<string, string>>;
  /** The picture whose deletion is to be confirmed. */
  confirmDelete?: { id: number; alt: string };
  /** Why a deletion was refused, in French. */
  refused?: string;
};

/** What each replaceable slot is, in French. */
export const SLOT_NAMES: Record<ReplaceableSlot, string> = {
  hero: "la grande image de la page d’accueil",
  portrait: "votre portrait (section « Votre formateur »)",
};

const reply = (answer: ImagesAnswer, status = 200) => data<ImagesAnswer>(answer, { status });

/** The slot the form names (`slot`), if it is one. */
const slotOf = (form: FormData) => REPLACEABLE_SLOTS.find((candidate) => candidate === form.get("slot"));

/** « Cette photo est encore utilisée : … » with each place that shows it, in French. */
function usesSentence(uses: PictureUses): string {
  const places = [
    ...uses.slots.map((slot) => `pour ${SLOT_NAMES[slot]}`),
    ...uses.articles.map((title) => `dans l’article «\u00a0${title}\u00a0»`),
    ...uses.letters.map((subject) => `dans la lettre «\u00a0${subject}\u00a0»`),
  ];
  return `Cette photo est encore utilisée\u00a0: ${places.join("\u00a0; ")}. Retirez-la d’abord de là (ou remettez l’image d’origine), puis supprimez-la.`;
}

/** Audits the deletion of picture `picture` (none when null: the slot showed the repository's). */
function logDeleted(context: RequestContext, picture: number | null) {
  if (picture === null) return undefined;
  return audit(
    context.get(dbContext),
    { actor: context.get(ownerContext).userId, action: "picture-deleted", details: { picture } },
    context.get(loggerContext),
  );
}

/** Audits slot `slot` now showing picture `picture` (0: the repository's), and refreshes the share image for the hero. */
async function slotChanged(context: RequestContext, slot: ReplaceableSlot, picture: number) {
  const db = context.get(dbContext);
  // The site's share image follows the hero (every page names it), made now for the first link shared.
  if (slot === "hero") await refreshSiteShareImage(db, context.get(loggerContext));
  await audit(
    db,
    { actor: context.get(ownerContext).userId, action: "picture-slot", details: { slot, picture } },
    context.get(loggerContext),
  );
}

/** `restore`: the slot shows the repository's picture again; the uploaded one goes when nothing else shows it. */
export async function restoreIntent(form: FormData, context: RequestContext) {
  const slot = slotOf(form);
  if (!slot) return reply({ refused: "Cette image n’existe pas sur le site." }, 400);
  const dropped = await clearSlotPicture(context.get(dbContext), slot);
  await slotChanged(context, slot, 0);
  await logDeleted(context, dropped);
  return reply({ message: `L’image d’origine est revenue pour ${SLOT_NAMES[slot]}.` });
}

/** `confirm-delete` (asks first) and `delete` (`pictureId`): refused (409) while something shows the picture. */
export async function deleteIntent(form: FormData, context: RequestContext, confirmed: boolean) {
  const db = context.get(dbContext);
  const id = Number(form.get("pictureId"));
  const picture =
    Number.isSafeInteger(id) && id > 0 ? (await listPictures(db)).find((row) => row.id === id) : undefined;
  if (!picture) return reply({ refused: "Cette photo n’existe plus : elle a peut-être déjà été supprimée." }, 404);
  if (!confirmed) return reply({ confirmDelete: { id, alt: picture.alt } });
  const result = await deletePicture(db, id);
  if (!result.deleted)
    return reply({ refused: result.uses ? usesSentence(result.uses) : "Cette photo n’existe plus." }, 409);
  await logDeleted(context, id);
  return reply({ message: `Photo supprimée : «\u00a0${picture.alt}\u00a0» n’est plus sur le site.` });
}

/** `upload` (the default): the photo checked and stored, put in `slot` when one is chosen; redirects to `?ajoutee={id}`. */
export async function uploadIntent(received: PictureForm, signal: AbortSignal, context: RequestContext) {
  const db = context.get(dbContext);
  const uploaded = await uploadPicture(db, received, {
    altField: "alt",
    actor: context.get(ownerContext).userId,
    logger: context.get(loggerContext),
    timeoutSeconds: context.get(settingsContext).PICTURE_TIMEOUT_SECONDS,
    signal,
  });
  if (!uploaded.ok) return reply({ errors: uploaded.errors }, 400);
  const id = uploaded.picture.id;
  const slot = slotOf(received.form);
  if (slot) {
    const dropped = await setSlotPicture(db, slot, id, uploaded.alt);
    await slotChanged(context, slot, id);
    await logDeleted(context, dropped);
  }
  return redirect(`/admin/images?ajoutee=${id}`, { status: 303 });
}
