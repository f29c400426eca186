/**
 * One picture upload from a desk form (`/admin/images`, an article's
 * editor): the description and the file checked, the picture made and
 * stored, the audit row written. `altField` names the description's field
 * (the file's is always `picture`); `timeoutSeconds` is the time limit of
 * its making (the `PICTURE_TIMEOUT_SECONDS` setting).
 *
 * Returns `{ ok: true, picture }` (its id, hash and size) or `{ ok: false,
 * errors }` with the French message of each field; nothing is stored then.
 */
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { audit } from "~/desk/audit.server";
import { pictureMessages, preparePicture, savePicture } from "./pictures.server";

export type UploadResult =
  | { ok: true; picture: { id: number; hash: string; width: number; height: number }; alt: string }
  | { ok: false; errors: Partial<Record<"picture" | string, string>> };

export async function uploadPicture(
  db: Database,
  form: FormData,
  {
    altField,
    actor,
    logger,
    timeoutSeconds,
  }: { altField: string; actor: string; logger?: Logger; timeoutSeconds: number },
): Promise<UploadResult> {
  const alt = String(form.get(altField) ?? "").trim();
  const file = form.get("picture");
  const errors: Record<string, string> = {};
  if (!alt) errors[altField] = pictureMessages.altMissing;
  else if (alt.length > 300) errors[altField] = pictureMessages.altTooLong;
  if (!(file instanceof File) || file.size === 0) errors.picture = pictureMessages.missing;
  if (Object.keys(errors).length > 0 || !(file instanceof File)) return { ok: false, errors };
  const bytes = Buffer.from(await file.arrayBuffer());
  const prepared = await preparePicture(bytes, { timeoutSeconds });
  if (!prepared.ok) {
    // Nothing of the file in the log: only that its making was stopped.
    if (prepared.failure === "timeout")
      logger?.warn(
        `pictures: a photo's making passed ${timeoutSeconds} s (PICTURE_TIMEOUT_SECONDS), its process killed`,
      );
    else if (prepared.failure === "crash") logger?.warn("pictures: the process making a photo died (memory?)");
    return { ok: false, errors: { picture: prepared.message } };
  }
  const id = await savePicture(db, prepared, { alt, originalBytes: bytes.length });
  await audit(db, { actor, action: "picture-added", details: { picture: id } }, logger);
  return { ok: true, picture: { id, hash: prepared.hash, width: prepared.width, height: prepared.height }, alt };
}
