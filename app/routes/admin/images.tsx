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
import { data, Form, useActionData, useLoaderData } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { FieldError, Notice } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { pictures as repositoryPictures } from "~/content/pictures";
import {
  listPictures,
  MAX_PICTURE_BYTES,
  pictureFileUrl,
  pictureMessages,
  REPLACEABLE_SLOTS,
  slotPictures,
} from "~/pictures/pictures.server";
import { PictureFileInput } from "~/pictures/file-input";
import { withPictureForm } from "~/pictures/upload-form.server";
import { formatDateTime } from "~/utils/format";
import type { Route } from "./+types/images";
import { dbContext, settingsContext } from "~/context.server";
import { deleteIntent, restoreIntent, SLOT_NAMES, uploadIntent, type ImagesAnswer } from "./images/intents.server";

export const handle = deskHandle;

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

export async function action({ request, context }: Route.ActionArgs) {
  // The photo is written to disk as it arrives: uploads waiting for their turn hold no memory (decision 037).
  return withPictureForm(
    request,
    { maxBytes: UPLOAD_BODY_BYTES, dataDir: context.get(settingsContext).DATA_DIR },
    {
      tooLarge: () => data<ImagesAnswer>({ errors: { picture: pictureMessages.tooBig } }, { status: 413 }),
      answer: (received) => {
        const intent = received.form.get("intent");
        if (intent === "restore") return restoreIntent(received.form, context);
        if (intent === "confirm-delete" || intent === "delete")
          return deleteIntent(received.form, context, intent === "delete");
        return uploadIntent(received, request.signal, context);
      },
    },
  );
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
