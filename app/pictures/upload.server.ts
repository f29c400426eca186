/**
 * One picture upload from a desk form (`/admin/images`, an article's
 * editor), read by `readPictureForm` (upload-form.server.ts: the photo on
 * disk): the description and the file checked, the picture made and
 * stored, the audit row written. `altField` names the description's field
 * (the file's is always `picture`); `timeoutSeconds` is the time limit of
 * its making (the `PICTURE_TIMEOUT_SECONDS` setting); `signal` (the
 * request's) gives the making up when the owner goes away. The caller still
 * disposes of the form (its temporary file).
 *
 * Returns `{ ok: true, picture }` (its id, hash and size) or `{ ok: false,
 * errors }` with the French message of each field; nothing is stored then.
 */
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { audit } from "~/desk/audit.server";
import { pictureMessages, preparePicture, savePicture } from "./pictures.server";
import type { PictureForm } from "./upload-form.server";

export type UploadResult =
  | { ok: true; picture: { id: number; hash: string; width: number; height: number }; alt: string }
  | { ok: false; errors: Partial<Record<"picture" | string, string>> };

export async function uploadPicture(
  db: Database,
  { form, picture }: Pick<PictureForm, "form" | "picture">,
  {
    altField,
    actor,
    logger,
    timeoutSeconds,
    signal,
  }: { altField: string; actor: string; logger?: Logger; timeoutSeconds: number; signal?: AbortSignal },
): Promise<UploadResult> {
  const alt = String(form.get(altField) ?? "").trim();
  const errors: Record<string, string> = {};
  if (!alt) errors[altField] = pictureMessages.altMissing;
  else if (alt.length > 300) errors[altField] = pictureMessages.altTooLong;
  if (!picture) errors.picture = pictureMessages.missing;
  if (Object.keys(errors).length > 0 || !picture) return { ok: false, errors };
  const prepared = await preparePicture(picture, { timeoutSeconds, signal });
  if (!prepared.ok) {
    // Nothing of the file in the log: only that its making was stopped.
    if (prepared.failure === "timeout")
      logger?.warn(
        `pictures: a photo's making passed ${timeoutSeconds} s (PICTURE_TIMEOUT_SECONDS), its process killed`,
      );
    else if (prepared.failure === "crash") logger?.warn("pictures: the process making a photo died (memory?)");
    return { ok: false, errors: { picture: prepared.message } };
  }
  const id = await savePicture(db, prepared, { alt, originalBytes: picture.size });
  await audit(db, { actor, action: "picture-added", details: { picture: id } }, logger);
  return { ok: true, picture: { id, hash: prepared.hash, width: prepared.width, height: prepared.height }, alt };
}
