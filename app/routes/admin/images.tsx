/**
 * `/admin/images`: the owner's pictures. Upload a photo from the phone or
 * the computer (JPEG, PNG or WebP, at most 15 MB, checked by its content),
 * with its description (required: what a blind visitor hears); put it in
 * place of the home page's main picture or the trainer's portrait, or give
 * a slot its picture from the repository back (the uploaded one it showed
 * is deleted when nothing else shows it); delete a picture after a
 * confirmation, refused in French while a slot, an article or a letter
 * shows it. A refused file gets its French reason beside the field and
 * nothing is stored. Audited (ids only).
 */
import { data, Form, redirect, useActionData, useLoaderData } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { audit } from "~/desk/audit.server";
import { FieldError, Notice } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { pictures as repositoryPictures } from "~/content/pictures";
import {
  clearSlotPicture,
  deletePicture,
  listPictures,
  MAX_PICTURE_BYTES,
  pictureFileUrl,
  pictureMessages,
  REPLACEABLE_SLOTS,
  setSlotPicture,
  slotPictures,
  type PictureUses,
  type ReplaceableSlot,
} from "~/pictures/pictures.server";
import { PictureFileInput } from "~/pictures/file-input";
import { refreshSiteShareImage } from "~/seo/share-image.server";
import { uploadPicture } from "~/pictures/upload.server";
import { withPictureForm, type PictureForm } from "~/pictures/upload-form.server";
import { formatDateTime } from "~/utils/format";
import type { Route } from "./+types/images";
import { dbContext, loggerContext, ownerContext, settingsContext } from "~/context.server";

export const handle = deskHandle;

/** What each replaceable slot is, in French. */
const SLOT_NAMES: Record<ReplaceableSlot, string> = {
  hero: "la grande image de la page d’accueil",
  portrait: "votre portrait (section « Votre formateur »)",
};

/** Room for the form's other fields around the largest photo. */
const UPLOAD_BODY_BYTES = MAX_PICTURE_BYTES + 64 * 1024;

export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const [rows, slots] = await Promise.all([listPictures(db), slotPictures(db)]);
  return {
    pictures: rows.map((row) => ({
      id: row.id,
      alt: row.alt,
      thumbnail: pictureFileUrl(row, Math.min(480, row.width), "webp"),
      size: `${row.width} × ${row.height} px`,
      added: formatDateTime(row.createdAt),
    })),
    slots: REPLACEABLE_SLOTS.map((slot) => ({
      slot,
      name: SLOT_NAMES[slot],
      uploaded: Boolean(slots[slot]),
      alt: slots[slot]?.alt ?? repositoryPictures[slot].alt,
    })),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Images", matches);

type ActionData = {
  message?: string;
  errors?: Partial<Record<string, string>>;
  /** The picture whose deletion is to be confirmed. */
  confirmDelete?: { id: number; alt: string };
  /** Why a deletion was refused, in French. */
  refused?: string;
};

/** « Cette photo est encore utilisée : … » with each place that shows it, in French. */
function usesSentence(uses: PictureUses): string {
  const places = [
    ...uses.slots.map((slot) => `pour ${SLOT_NAMES[slot]}`),
    ...uses.articles.map((title) => `dans l’article «\u00a0${title}\u00a0»`),
    ...uses.letters.map((subject) => `dans la lettre «\u00a0${subject}\u00a0»`),
  ];
  return `Cette photo est encore utilisée\u00a0: ${places.join("\u00a0; ")}. Retirez-la d’abord de là (ou remettez l’image d’origine), puis supprimez-la.`;
}

export async function action({ request, context }: Route.ActionArgs) {
  // The photo is written to disk as it arrives: uploads waiting for their turn hold no memory (decision 037).
  return withPictureForm(
    request,
    { maxBytes: UPLOAD_BODY_BYTES, dataDir: context.get(settingsContext).DATA_DIR },
    {
      tooLarge: () => data<ActionData>({ errors: { picture: pictureMessages.tooBig } }, { status: 413 }),
      answer: (received) => answer(received, request.signal, context),
    },
  );
}

/** What `action` answers to the form read. */
async function answer(received: PictureForm, signal: AbortSignal, context: Route.ActionArgs["context"]) {
  const owner = context.get(ownerContext);
  const db = context.get(dbContext);
  const reply = (answer: ActionData, status = 200) => data<ActionData>(answer, { status });
  const { form } = received;
  const intent = String(form.get("intent") ?? "upload");
  const slot = REPLACEABLE_SLOTS.find((candidate) => candidate === form.get("slot"));
  const logDeleted = (picture: number | null) =>
    picture === null
      ? undefined
      : audit(db, { actor: owner.userId, action: "picture-deleted", details: { picture } }, context.get(loggerContext));
  if (intent === "restore" && slot) {
    const dropped = await clearSlotPicture(db, slot);
    if (slot === "hero") await refreshSiteShareImage(db, context.get(loggerContext));
    await audit(
      db,
      { actor: owner.userId, action: "picture-slot", details: { slot, picture: 0 } },
      context.get(loggerContext),
    );
    await logDeleted(dropped);
    return reply({ message: `L’image d’origine est revenue pour ${SLOT_NAMES[slot]}.` });
  }
  if (intent === "confirm-delete" || intent === "delete") {
    const id = Number(form.get("pictureId"));
    const picture =
      Number.isSafeInteger(id) && id > 0 ? (await listPictures(db)).find((row) => row.id === id) : undefined;
    if (!picture) return reply({ refused: "Cette photo n’existe plus : elle a peut-être déjà été supprimée." }, 404);
    if (intent === "confirm-delete") return reply({ confirmDelete: { id, alt: picture.alt } });
    const result = await deletePicture(db, id);
    if (!result.deleted)
      return reply({ refused: result.uses ? usesSentence(result.uses) : "Cette photo n’existe plus." }, 409);
    await logDeleted(id);
    return reply({ message: `Photo supprimée : «\u00a0${picture.alt}\u00a0» n’est plus sur le site.` });
  }
  const uploaded = await uploadPicture(db, received, {
    altField: "alt",
    actor: owner.userId,
    logger: context.get(loggerContext),
    timeoutSeconds: context.get(settingsContext).PICTURE_TIMEOUT_SECONDS,
    signal,
  });
  if (!uploaded.ok) return reply({ errors: uploaded.errors }, 400);
  const id = uploaded.picture.id;
  if (slot) {
    const dropped = await setSlotPicture(db, slot, id, uploaded.alt);
    // The site's share image follows the hero (every page names it), made now for the first link shared.
    if (slot === "hero") await refreshSiteShareImage(db, context.get(loggerContext));
    await audit(
      db,
      { actor: owner.userId, action: "picture-slot", details: { slot, picture: id } },
      context.get(loggerContext),
    );
    await logDeleted(dropped);
  }
  return redirect(`/admin/images?ajoutee=${id}`, { status: 303 });
}

export default function Images() {
  const { pictures, slots } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const errors = answer?.errors ?? {};
  return (
    <div className="mt-8">
      <h1 className="text-3xl font-bold">Images</h1>
      {answer?.message ? (
        <Notice tone="status" className="mt-4">
          {answer.message}
        </Notice>
      ) : null}
      {answer?.refused ? (
        <Notice tone="alert" className="mt-4">
          {answer.refused}
        </Notice>
      ) : null}
      {answer?.confirmDelete ? (
        <div role="alert" className="mt-4 rounded-xl border-2 border-accent bg-white p-4 text-lg">
          <p className="font-semibold">
            {/* French spacing: no-break spaces inside « », a narrow one before "?". */}
            Supprimer la photo «{"\u00a0"}
            {answer.confirmDelete.alt}
            {"\u00a0"}»{"\u202f"}? Ses fichiers disparaissent du site ; vous ne pourrez pas la récupérer.
          </p>
          <Form method="post" encType="multipart/form-data" className="mt-3 flex flex-wrap gap-3">
            <input type="hidden" name="pictureId" value={answer.confirmDelete.id} />
            <Button type="submit" name="intent" value="delete">
              Oui, supprimer la photo
            </Button>
            <a href="/admin/images" className={buttonVariants({ variant: "outline" })}>
              Non, garder la photo
            </a>
          </Form>
        </div>
      ) : null}
      <section aria-labelledby="upload" className="mt-6 rounded-2xl border-2 border-gray-200 bg-white p-4">
        <h2 id="upload" className="text-2xl font-bold">
          Ajouter une photo
        </h2>
        <Form method="post" encType="multipart/form-data" className="mt-4 space-y-5">
          <PictureFileInput error={errors.picture} required />
          <div>
            <Label htmlFor="alt">Description de la photo</Label>
            <p id="alt-hint" className="mt-1 text-lg text-muted">
              Une phrase qui dit ce qu’on voit, lue aux personnes aveugles ou malvoyantes.
            </p>
            <Textarea
              id="alt"
              name="alt"
              rows={2}
              maxLength={300}
              required
              className="mt-2"
              aria-invalid={errors.alt ? true : undefined}
              aria-describedby={errors.alt ? "alt-hint alt-error" : "alt-hint"}
            />
            <FieldError id="alt-error" message={errors.alt} />
          </div>
          <fieldset>
            <legend className="text-lg font-semibold">Utiliser cette photo</legend>
            <div className="mt-2 space-y-1">
              {[
                ["", "Pas tout de suite (pour un article, par exemple)"],
                ...slots.map((slot) => [slot.slot, `Pour ${slot.name}`]),
              ].map(([value, label]) => (
                <label key={value} className="flex min-h-12 items-center gap-3 text-lg">
                  <input type="radio" name="slot" value={value} defaultChecked={value === ""} className="size-6" />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit">Envoyer la photo</Button>
        </Form>
      </section>
      <section aria-labelledby="slots" className="mt-8">
        <h2 id="slots" className="text-2xl font-bold">
          Les images de la page d’accueil
        </h2>
        <ul className="mt-4 space-y-3">
          {slots.map((slot) => (
            <li key={slot.slot} className="rounded-2xl border-2 border-gray-200 bg-white p-4">
              <p className="text-lg font-semibold">Pour {slot.name}</p>
              <p className="mt-1 text-lg">
                {slot.uploaded ? "Une photo que vous avez envoyée" : "L’image d’origine du site"} : «{"\u00a0"}
                {slot.alt}
                {"\u00a0"}»
              </p>
              {slot.uploaded ? (
                <Form method="post" encType="multipart/form-data" className="mt-3">
                  <input type="hidden" name="slot" value={slot.slot} />
                  <Button type="submit" name="intent" value="restore" variant="outline">
                    Remettre l’image d’origine
                  </Button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="all" className="mt-8">
        <h2 id="all" className="text-2xl font-bold">
          Vos photos
        </h2>
        {pictures.length === 0 ? (
          <p className="mt-2 text-lg text-muted">Aucune photo envoyée pour l’instant.</p>
        ) : (
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {pictures.map((picture) => (
              <li key={picture.id} className="rounded-2xl border-2 border-gray-200 bg-white p-3">
                <img src={picture.thumbnail} alt={picture.alt} loading="lazy" className="h-auto w-full rounded-lg" />
                <p className="mt-2 text-lg">{picture.alt}</p>
                <p className="text-base text-muted">
                  {picture.size}, ajoutée le {picture.added}
                </p>
                <Form method="post" encType="multipart/form-data" className="mt-2">
                  <input type="hidden" name="pictureId" value={picture.id} />
                  <Button type="submit" name="intent" value="confirm-delete" variant="outline">
                    Supprimer
                    <span className="sr-only">
                      {" "}
                      la photo «{"\u00a0"}
                      {picture.alt}
                      {"\u00a0"}»
                    </span>
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
