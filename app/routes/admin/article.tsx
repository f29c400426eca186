/**
 * `/admin/articles/:id`: writing one article. Its fields (title, summary,
 * category, picture and colour of its card, featured, video, the Markdown
 * text with a small toolbar once JavaScript runs), the preview as the page
 * will look (live while typing with JavaScript; the "Aperçu" button
 * without, which saves nothing), then "Enregistrer", "Publier maintenant",
 * "Programmer" at a Swiss date and time, "Retirer du site", or deleting a
 * draft. Each mistake has its French message beside its field, and nothing
 * is saved while there is one. Every change is audited (no text of the
 * article in the audit). One function per intent:
 * app/routes/admin/article/actions.server.ts; the form: app/blog/article-editor.tsx.
 */
import { data, useActionData, useLoaderData } from "react-router";
import { ArticleEditorForm } from "~/blog/article-editor";
import { ArticleView } from "~/blog/article-view";
import {
  addPictureIntent,
  deleteDraftIntent,
  fieldsOf,
  previewIntent,
  previewOf,
  publishIntent,
  saveIntent,
  scheduleIntent,
  unpublishIntent,
  type ArticleAnswer,
  type ArticleIntentArgs,
} from "./article/actions.server";
import { articleFormSchema, articleState, getArticle, publicationMoment, usedCategories } from "~/blog/desk.server";
import type { ArticleRow } from "~/blog/store.server";
import { dbContext, settingsContext } from "~/context.server";
import { DeskBackLink, deskLinkClass } from "~/desk/frame";
import { Notice } from "~/desk/form-parts";
import { useLivePreview } from "~/desk/live-preview";
import { deskHandle, deskMeta } from "~/desk/meta";
import { idParam } from "~/desk/route-params.server";
import { MAX_PICTURE_BYTES, pictureMessages } from "~/pictures/pictures.server";
import { withPictureForm } from "~/pictures/upload-form.server";
import type { Route } from "./+types/article";

export const handle = deskHandle;

function stateLabel(row: ArticleRow): string {
  const state = articleState(row);
  if (state.kind === "draft") return "Brouillon : pas encore sur le site.";
  if (state.kind === "scheduled") return `Programmé : paraîtra le ${publicationMoment(row)}.`;
  return `Publié le ${publicationMoment(row)}.`;
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const row = await getArticle(db, idParam(params.id));
  if (!row) throw data(null, { status: 404 });
  const fields = fieldsOf(row);
  const parsed = articleFormSchema.safeParse({ ...fields, featured: fields.featured ? "on" : undefined });
  return {
    id: row.id,
    slug: row.slug,
    fields,
    state: articleState(row).kind,
    stateLabel: stateLabel(row),
    fromFile: row.sourceFile !== null,
    categories: await usedCategories(db),
    preview: parsed.success ? await previewOf(db, row, parsed.data) : null,
  };
}

export const meta: Route.MetaFunction = ({ data: loaded, matches }) =>
  deskMeta(loaded ? loaded.fields.title : "Article introuvable", matches);

export async function action({ request, context, params }: Route.ActionArgs) {
  const id = idParam(params.id);
  const row = await getArticle(context.get(dbContext), id);
  if (!row) throw data(null, { status: 404 });
  // A photo is written to disk as it arrives (decision 037); removed once answered, whatever the intent.
  return withPictureForm(
    request,
    { maxBytes: MAX_PICTURE_BYTES + 256 * 1024, dataDir: context.get(settingsContext).DATA_DIR },
    {
      tooLarge: () => data<ArticleAnswer>({ errors: { picture: pictureMessages.tooBig } }, 413),
      answer: (received) =>
        answer({ form: received.form, context, id, row }, { picture: received.picture, signal: request.signal }),
    },
  );
}

/** What `action` answers to the form read, by its intent (`upload` also gets the photo received). */
function answer(args: ArticleIntentArgs, upload: Parameters<typeof addPictureIntent>[1]) {
  switch (args.form.get("intent") ?? "save") {
    case "unpublish":
      return unpublishIntent(args);
    case "delete":
      return deleteDraftIntent(args);
    case "upload":
      return addPictureIntent(args, upload);
    case "preview":
      return previewIntent(args);
    case "publish":
      return publishIntent(args);
    case "schedule":
      return scheduleIntent(args);
    case "save":
      return saveIntent(args);
    default:
      return data<ArticleAnswer>({ message: "Action inconnue." }, 400);
  }
}

export default function ArticleEditor() {
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const preview = useLivePreview<ArticleAnswer>(answer);
  const values = answer?.values ?? loaded.fields;
  const errors = answer?.errors ?? {};
  const shown = preview.data?.preview ?? loaded.preview;

  return (
    <div className="mt-8">
      <DeskBackLink to="/admin/articles">Tous les articles</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">Écrire l’article</h1>
      <p className="mt-2 text-lg">
        {loaded.stateLabel}{" "}
        {loaded.state === "published" ? (
          <a href={`/blog/${loaded.slug}`} className={deskLinkClass}>
            Voir sur le site
          </a>
        ) : null}
      </p>
      {answer?.message ? (
        <Notice tone="status" className="mt-4">
          {answer.message}
        </Notice>
      ) : null}
      {Object.keys(errors).length > 0 ? (
        <Notice tone="alert" className="mt-4">
          Rien n’a été enregistré : corrigez ce qui est indiqué sous chaque champ.
        </Notice>
      ) : null}
      <div className="mt-6 grid gap-8 lg:grid-cols-2">
        <ArticleEditorForm
          values={values}
          errors={errors}
          added={answer?.added}
          categories={loaded.categories}
          published={loaded.state !== "draft"}
          fromFile={loaded.fromFile}
          onChange={preview.onChange}
        />
        <section aria-labelledby="preview-title" className="min-w-0">
          <h2 id="preview-title" className="text-2xl font-bold">
            Aperçu
          </h2>
          <div className="mt-4 rounded-xl border-2 border-gray-200 bg-white p-4 sm:p-6">
            {shown ? (
              <ArticleView article={shown} headingLevel={2} />
            ) : (
              <p className="text-lg text-muted">L’aperçu paraîtra quand le titre sera rempli.</p>
            )}
          </div>
        </section>
      </div>
    </div>
  );
}
