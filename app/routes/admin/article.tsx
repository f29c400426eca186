/**
 * `/admin/articles/:id`: writing one article. Its fields (title, summary,
 * category, picture and colour of its card, featured, video, the Markdown
 * text with a small toolbar once JavaScript runs), the preview as the page
 * will look (live while typing with JavaScript; the "Aperçu" button
 * without, which saves nothing), then "Enregistrer", "Publier maintenant",
 * "Programmer" at a Swiss date and time, "Retirer du site", or deleting a
 * draft. Each mistake has its French message beside its field, and nothing
 * is saved while there is one. Every change is audited (no text of the
 * article in the audit).
 */
import { useRef } from "react";
import { data, Form, redirect, useActionData, useLoaderData } from "react-router";
import { youtubeId, renderArticle } from "~/blog/articles.server";
import { ArticleView } from "~/blog/article-view";
import { ARTICLE_LIMITS, COLOR_CHOICES, ICON_CHOICES } from "~/blog/fields";
import {
  articleFormSchema,
  articleState,
  deleteDraft,
  getArticle,
  publishArticle,
  publishProblems,
  readTimeOf,
  saveArticle,
  scheduledMoment,
  unpublishArticle,
  usedCategories,
  type ArticleForm,
} from "~/blog/desk.server";
import { picturesOf, recordOf, type ArticleRow } from "~/blog/store.server";
import type { Database } from "~/db/client.server";
import { PictureFileInput } from "~/pictures/file-input";
import { MAX_PICTURE_BYTES, pictureFileUrl, pictureMessages } from "~/pictures/pictures.server";
import { uploadPicture } from "~/pictures/upload.server";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { audit } from "~/desk/audit.server";
import { makeShareImage } from "~/seo/share-image.server";
import { DeskBackLink, deskLinkClass } from "~/desk/frame";
import { FieldError, Notice, TextField } from "~/desk/form-parts";
import { useLivePreview } from "~/desk/live-preview";
import { deskHandle, deskMeta } from "~/desk/meta";
import { idParam } from "~/desk/route-params.server";
import { BodyTooLargeError, readFormData } from "~/guards/body.server";
import { formatDateTime } from "~/utils/format";
import { useHydrated } from "~/utils/use-hydrated";
import type { Route } from "./+types/article";
import { dbContext, loggerContext, ownerContext, clockContext } from "~/context.server";

export const handle = deskHandle;

type Fields = Record<"title" | "author" | "excerpt" | "category" | "body" | "icon" | "color" | "video", string> & {
  featured: boolean;
};
type FieldName = keyof Fields | "publishDate" | "picture" | "pictureAlt";

/** The form's values of a stored article. */
function fieldsOf(row: ArticleRow): Fields {
  return {
    title: row.title,
    author: row.author,
    excerpt: row.excerpt,
    category: row.category,
    body: row.body,
    icon: row.icon,
    color: row.color,
    video: row.video ?? "",
    featured: row.featured,
  };
}

/** The preview: the article as its page shows it, from the stored row with `fields` over it. */
async function previewOf(db: Database, row: ArticleRow, fields: ArticleForm) {
  const article = renderArticle(
    {
      ...recordOf(row),
      ...fields,
      author: fields.author || row.author,
      video: fields.video || undefined,
      readTime: readTimeOf(fields.body),
    },
    await picturesOf(db, [fields]),
  );
  return { ...article, videoId: article.video ? youtubeId(article.video) : null };
}

function stateLabel(row: ArticleRow): string {
  const state = articleState(row);
  if (state.kind === "draft") return "Brouillon : pas encore sur le site.";
  if (state.kind === "scheduled") return `Programmé : paraîtra le ${formatDateTime(state.at)}.`;
  return `Publié le ${formatDateTime(state.at)}.`;
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

type ActionData = {
  message?: string;
  errors?: Partial<Record<FieldName, string>>;
  values?: Fields;
  preview?: Awaited<ReturnType<typeof previewOf>>;
  /** The id of the picture just added to the text (the text field is drawn anew with it). */
  added?: number;
};

export async function action({ request, context, params }: Route.ActionArgs) {
  const owner = context.get(ownerContext);
  const db = context.get(dbContext);
  const id = idParam(params.id);
  const row = await getArticle(db, id);
  if (!row) throw data(null, { status: 404 });
  let form: FormData;
  try {
    form = await readFormData(request, MAX_PICTURE_BYTES + 256 * 1024);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return data<ActionData>({ errors: { picture: pictureMessages.tooBig } }, 413);
    throw error;
  }
  const intent = String(form.get("intent") ?? "save");
  const reply = (answer: ActionData, status = 200) => data<ActionData>(answer, { status });
  const log = (action: Parameters<typeof audit>[1]["action"]) =>
    audit(db, { actor: owner.userId, action, details: { article: id } }, context.get(loggerContext));

  if (intent === "unpublish") {
    if (await unpublishArticle(db, id)) await log("article-unpublished");
    return reply({ message: "L’article n’est plus sur le site : il est redevenu un brouillon." });
  }
  if (intent === "delete") {
    if (!(await deleteDraft(db, id))) {
      return reply(
        { message: "Seul un brouillon écrit ici peut être supprimé ; retirez d’abord l’article du site." },
        409,
      );
    }
    await log("article-deleted");
    return redirect("/admin/articles", { status: 303 });
  }

  const text = (name: string) => String(form.get(name) ?? "");
  const values: Fields = {
    title: text("title"),
    author: text("author"),
    excerpt: text("excerpt"),
    category: text("category"),
    body: text("body"),
    icon: text("icon"),
    color: text("color"),
    video: text("video"),
    featured: form.get("featured") === "on",
  };
  const parsed = articleFormSchema.safeParse({ ...values, featured: values.featured ? "on" : undefined });
  const errors: Partial<Record<FieldName, string>> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[issue.path[0] as FieldName] ??= issue.message;
    return reply({ errors, values }, 400);
  }
  const fields = parsed.data;
  if (intent === "upload") {
    const uploaded = await uploadPicture(db, form, {
      altField: "pictureAlt",
      actor: owner.userId,
      logger: context.get(loggerContext),
    });
    if (!uploaded.ok) return reply({ errors: uploaded.errors, values }, 400);
    const { picture, alt } = uploaded;
    const markdown = `![${alt.replace(/[[\]]/g, "")}](${pictureFileUrl(picture, Math.min(800, picture.width), "webp")})`;
    const withPicture = { ...fields, body: `${fields.body.trimEnd()}\n\n${markdown}\n` };
    return reply({
      message: "Photo ajoutée à la fin du texte. Déplacez-la si besoin, puis enregistrez ou publiez l’article.",
      values: { ...values, body: withPicture.body },
      preview: await previewOf(db, row, withPicture),
      added: picture.id,
    });
  }
  const preview = await previewOf(db, row, fields);
  if (intent === "preview") return reply({ values, preview });

  let publishAt: Date | null = null;
  if (intent === "publish" || intent === "schedule") {
    Object.assign(errors, publishProblems(fields));
    if (intent === "schedule") {
      publishAt = scheduledMoment(text("publishDate"), text("publishTime"));
      if (!publishAt) errors.publishDate = "Choisissez le jour de la publication (et l’heure, 8 h 00 sinon).";
      else if (publishAt <= context.get(clockContext).now())
        errors.publishDate = "Choisissez un moment à venir, ou publiez maintenant.";
    } else publishAt = context.get(clockContext).now();
    if (Object.keys(errors).length > 0) return reply({ errors, values, preview }, 400);
  }

  await saveArticle(db, id, fields);
  if (!publishAt) {
    await log("article-saved");
    // A published article's title or category may have changed: its share image follows (decision 029).
    await makeShareImage(db, await getArticle(db, id), context.get(loggerContext));
    return reply({ message: "Article enregistré.", values, preview });
  }
  await publishArticle(db, id, publishAt);
  await log(intent === "schedule" ? "article-scheduled" : "article-published");
  await makeShareImage(db, await getArticle(db, id), context.get(loggerContext));
  return reply({
    message:
      intent === "schedule"
        ? `Article programmé : il paraîtra le ${formatDateTime(publishAt)}.`
        : "Article publié : il est sur le site, dans le blog, sur la page d’accueil et dans le flux RSS.",
    values,
    preview: await previewOf(db, (await getArticle(db, id))!, fields),
  });
}

/** How to write the text (no-break spaces inside « », so that no mark starts a line). */
const MARKDOWN_HINT =
  "Une ligne vide entre deux paragraphes, «\u00a0##\u00a0» devant un intertitre, «\u00a0-\u00a0» devant chaque point d’une liste, **gras**, [texte du lien](https://adresse).";

/** The toolbar's actions on the text's selection. */
const TOOLS = [
  { label: "Intertitre", apply: (text: string) => `\n\n## ${text || "Intertitre"}\n\n` },
  { label: "Gras", apply: (text: string) => `**${text || "texte en gras"}**` },
  {
    label: "Liste",
    apply: (text: string) =>
      `\n${(text || "premier point\ndeuxième point")
        .split("\n")
        .map((line) => `- ${line.replace(/^- /, "")}`)
        .join("\n")}\n`,
  },
  { label: "Lien", apply: (text: string) => `[${text || "texte du lien"}](https://adresse)` },
] as const;

/** Buttons that put Markdown around the selection of `textarea` (shown only once JavaScript runs). */
function MarkdownToolbar({ textarea }: { textarea: React.RefObject<HTMLTextAreaElement | null> }) {
  return (
    <div role="toolbar" aria-label="Mise en forme" aria-controls="article-body" className="mt-2 flex flex-wrap gap-2">
      {TOOLS.map((tool) => (
        <Button
          key={tool.label}
          type="button"
          variant="outline"
          onClick={() => {
            const field = textarea.current;
            if (!field) return;
            const { selectionStart, selectionEnd, value } = field;
            field.setRangeText(
              tool.apply(value.slice(selectionStart, selectionEnd)),
              selectionStart,
              selectionEnd,
              "end",
            );
            field.focus();
            // Tells the form (and its live preview) that the text changed.
            field.dispatchEvent(new Event("input", { bubbles: true }));
          }}
        >
          {tool.label}
        </Button>
      ))}
    </div>
  );
}

/** A select of the editor with its label and its French error. */
function ChoiceField({
  name,
  label,
  choices,
  value,
  error,
}: {
  name: "icon" | "color";
  label: string;
  choices: Record<string, string>;
  value: string;
  error?: string;
}) {
  return (
    <div>
      <Label htmlFor={name}>{label}</Label>
      <Select
        id={name}
        name={name}
        defaultValue={value}
        className="mt-2"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
      >
        {Object.entries(choices).map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </Select>
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}

export default function ArticleEditor() {
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const preview = useLivePreview<ActionData>(answer);
  const hydrated = useHydrated();
  const body = useRef<HTMLTextAreaElement>(null);
  const values = answer?.values ?? loaded.fields;
  const errors = answer?.errors ?? {};
  const shown = preview.data?.preview ?? loaded.preview;
  const invalid = (name: FieldName) =>
    errors[name] ? { "aria-invalid": true as const, "aria-describedby": `${name}-error` } : {};
  const published = loaded.state !== "draft";

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
        <Form method="post" encType="multipart/form-data" className="min-w-0 space-y-5" onChange={preview.onChange}>
          <TextField
            id="title"
            label="Titre"
            required
            maxLength={ARTICLE_LIMITS.title}
            defaultValue={values.title}
            error={errors.title}
          />
          <div>
            <Label htmlFor="excerpt">Résumé (sur les cartes du blog)</Label>
            <Textarea
              id="excerpt"
              name="excerpt"
              rows={3}
              maxLength={ARTICLE_LIMITS.excerpt}
              defaultValue={values.excerpt}
              className="mt-2"
              {...invalid("excerpt")}
            />
            <FieldError id="excerpt-error" message={errors.excerpt} />
          </div>
          <TextField
            id="category"
            label="Catégorie"
            list="categories"
            maxLength={ARTICLE_LIMITS.category}
            defaultValue={values.category}
            error={errors.category}
          />
          <datalist id="categories">
            {loaded.categories.map((category) => (
              <option key={category} value={category} />
            ))}
          </datalist>
          <div>
            <Label htmlFor="article-body">Texte de l’article</Label>
            <p id="article-body-hint" className="mt-1 text-lg text-muted">
              {MARKDOWN_HINT}
            </p>
            {hydrated ? <MarkdownToolbar textarea={body} /> : null}
            <Textarea
              key={`body-${answer?.added ?? 0}`}
              ref={body}
              id="article-body"
              name="body"
              rows={16}
              maxLength={ARTICLE_LIMITS.body}
              defaultValue={values.body}
              className="mt-2 font-mono text-base"
              aria-describedby={errors.body ? "article-body-hint body-error" : "article-body-hint"}
              aria-invalid={errors.body ? true : undefined}
            />
            <FieldError id="body-error" message={errors.body} />
          </div>
          <fieldset className="rounded-2xl border-2 border-gray-200 p-4" key={`picture-${answer?.added ?? 0}`}>
            <legend className="px-1 text-xl font-bold">Ajouter une photo au texte</legend>
            <PictureFileInput error={errors.picture} />
            <Label htmlFor="pictureAlt" className="mt-4 block">
              Description de la photo (lue aux personnes qui ne la voient pas)
            </Label>
            <Textarea
              id="pictureAlt"
              name="pictureAlt"
              rows={2}
              maxLength={300}
              className="mt-2"
              {...invalid("pictureAlt")}
            />
            <FieldError id="pictureAlt-error" message={errors.pictureAlt} />
            <Button type="submit" name="intent" value="upload" variant="outline" className="mt-4" formNoValidate>
              Ajouter la photo au texte
            </Button>
          </fieldset>
          <div className="grid gap-5 sm:grid-cols-2">
            <ChoiceField
              name="icon"
              label="Image de la carte"
              choices={ICON_CHOICES}
              value={values.icon}
              error={errors.icon}
            />
            <ChoiceField
              name="color"
              label="Couleur de la carte"
              choices={COLOR_CHOICES}
              value={values.color}
              error={errors.color}
            />
          </div>
          <TextField
            id="author"
            label="Auteur"
            autoComplete="name"
            defaultValue={values.author}
            maxLength={ARTICLE_LIMITS.author}
            error={errors.author}
          />
          <TextField
            id="video"
            label="Vidéo YouTube (facultatif)"
            type="url"
            inputMode="url"
            defaultValue={values.video}
            placeholder="https://www.youtube.com/watch?v=…"
            error={errors.video}
          />
          <Checkbox
            id="featured"
            name="featured"
            defaultChecked={values.featured}
            label="Article à la une (en tête du blog et de la page d’accueil)"
          />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" name="intent" value="preview" variant="outline">
              Aperçu
            </Button>
            <Button type="submit" name="intent" value="save" variant="outline">
              Enregistrer
            </Button>
            <Button type="submit" name="intent" value="publish">
              {published ? "Enregistrer et publier maintenant" : "Publier maintenant"}
            </Button>
          </div>
          <fieldset className="rounded-2xl border-2 border-gray-200 p-4">
            <legend className="px-1 text-xl font-bold">Programmer la publication</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <div>
                <Label htmlFor="publishDate">Jour</Label>
                <Input id="publishDate" name="publishDate" type="date" className="mt-2" {...invalid("publishDate")} />
              </div>
              <div>
                <Label htmlFor="publishTime">Heure</Label>
                <Input id="publishTime" name="publishTime" type="time" defaultValue="08:00" className="mt-2" />
              </div>
            </div>
            <FieldError id="publishDate-error" message={errors.publishDate} />
            <Button type="submit" name="intent" value="schedule" variant="outline" className="mt-4">
              Programmer
            </Button>
          </fieldset>
          <div className="flex flex-wrap gap-3 border-t-2 border-gray-200 pt-5">
            {published ? (
              <Button type="submit" name="intent" value="unpublish" variant="outline" formNoValidate>
                Retirer du site
              </Button>
            ) : loaded.fromFile ? null : (
              <Button type="submit" name="intent" value="delete" variant="ghost" formNoValidate>
                Supprimer ce brouillon
              </Button>
            )}
          </div>
        </Form>
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
