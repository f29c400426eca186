/**
 * The intents of the desk's article editor (`/admin/articles/:id`), one
 * function each, dispatched by the route's action on the posted `intent`:
 * `unpublish`, `delete` (a draft written here; redirects 303 to the list),
 * `upload` (a picture added at the end of the text), `preview` (saves
 * nothing), `save`, `publish` and `schedule`. Each answers
 * `data(ArticleAnswer)`: 400 with a French message per field when the form
 * is wrong (nothing saved), 409 for a delete refused. Every change is
 * audited (no text of the article in the audit); saving or publishing
 * refreshes the article's share image (decision 029).
 */
import { data, redirect } from "react-router";
import { clockContext, dbContext, loggerContext, ownerContext, settingsContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { audit, type AuditAction } from "~/desk/audit.server";
import type { DeskIntentArgs } from "~/desk/intent.server";
import { pictureFileUrl } from "~/pictures/pictures.server";
import { uploadPicture } from "~/pictures/upload.server";
import type { ReceivedPicture } from "~/pictures/upload-form.server";
import { makeShareImage } from "~/seo/share-image.server";
import { formatDateTime } from "~/utils/format";
import { renderArticle, youtubeId } from "~/blog/articles.server";
import {
  articleFormSchema,
  deleteDraft,
  getArticle,
  publishArticle,
  publishProblems,
  readTimeOf,
  saveArticle,
  scheduledMoment,
  unpublishArticle,
  type ArticleForm,
} from "~/blog/desk.server";
import type { ArticleFieldName, ArticleFields } from "~/blog/fields";
import { picturesOf } from "~/blog/html.server";
import { recordOf, type ArticleRow } from "~/blog/store.server";

/** What the editor shows after a post. */
export type ArticleAnswer = {
  message?: string;
  errors?: Partial<Record<ArticleFieldName, string>>;
  values?: ArticleFields;
  preview?: Awaited<ReturnType<typeof previewOf>>;
  /** The id of the picture just added to the text (the text field is drawn anew with it). */
  added?: number;
};

/** An intent's arguments: the page's and the stored article's row. */
export type ArticleIntentArgs = DeskIntentArgs & { row: ArticleRow };

/** The form's values of a stored article. */
export function fieldsOf(row: ArticleRow): ArticleFields {
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
export async function previewOf(db: Database, row: ArticleRow, fields: ArticleForm) {
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

const reply = (answer: ArticleAnswer, status = 200) => data<ArticleAnswer>(answer, { status });

/** Audits `action` on the article. */
function log({ context, id }: ArticleIntentArgs, action: AuditAction) {
  return audit(
    context.get(dbContext),
    { actor: context.get(ownerContext).userId, action, details: { article: id } },
    context.get(loggerContext),
  );
}

/** `unpublish`: the article leaves the site and is a draft again. */
export async function unpublishIntent(args: ArticleIntentArgs) {
  if (await unpublishArticle(args.context.get(dbContext), args.id)) await log(args, "article-unpublished");
  return reply({ message: "L’article n’est plus sur le site : il est redevenu un brouillon." });
}

/** `delete`: deletes a draft written here (409 otherwise); redirects to the list. */
export async function deleteDraftIntent(args: ArticleIntentArgs) {
  if (!(await deleteDraft(args.context.get(dbContext), args.id))) {
    return reply(
      { message: "Seul un brouillon écrit ici peut être supprimé ; retirez d’abord l’article du site." },
      409,
    );
  }
  await log(args, "article-deleted");
  return redirect("/admin/articles", { status: 303 });
}

/** The posted fields, checked: the values as typed and the parsed fields, or the 400 answer with each field's message. */
function readFields(form: FormData) {
  const text = (name: string) => String(form.get(name) ?? "");
  const values: ArticleFields = {
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
  if (parsed.success) return { ok: true as const, values, fields: parsed.data };
  const errors: Partial<Record<ArticleFieldName, string>> = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] as ArticleFieldName] ??= issue.message;
  return { ok: false as const, answer: reply({ errors, values }, 400) };
}

/**
 * `upload`: adds the posted picture (`picture`: read to disk by
 * readPictureForm; checked, resized) at the end of the text, saving nothing
 * else; given up when `signal` aborts (the owner gone).
 */
export async function addPictureIntent(
  { form, context, row }: ArticleIntentArgs,
  { picture: received, signal }: { picture: ReceivedPicture | null; signal?: AbortSignal },
) {
  const read = readFields(form);
  if (!read.ok) return read.answer;
  const { values, fields } = read;
  const db = context.get(dbContext);
  const uploaded = await uploadPicture(
    db,
    { form, picture: received },
    {
      altField: "pictureAlt",
      actor: context.get(ownerContext).userId,
      logger: context.get(loggerContext),
      timeoutSeconds: context.get(settingsContext).PICTURE_TIMEOUT_SECONDS,
      signal,
    },
  );
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

/** `preview`: the article as it would look, saving nothing. */
export async function previewIntent({ form, context, row }: ArticleIntentArgs) {
  const read = readFields(form);
  if (!read.ok) return read.answer;
  return reply({ values: read.values, preview: await previewOf(context.get(dbContext), row, read.fields) });
}

/** `save` (and a form posted without a button): saves the article; its state does not change. */
export async function saveIntent(args: ArticleIntentArgs) {
  const read = readFields(args.form);
  if (!read.ok) return read.answer;
  const db = args.context.get(dbContext);
  const preview = await previewOf(db, args.row, read.fields);
  await saveArticle(db, args.id, read.fields);
  await log(args, "article-saved");
  // A published article's title or category may have changed: its share image follows (decision 029).
  await makeShareImage(db, await getArticle(db, args.id), args.context.get(loggerContext));
  return reply({ message: "Article enregistré.", values: read.values, preview });
}

/** `publish`: saves and publishes now. */
export function publishIntent(args: ArticleIntentArgs) {
  return publishAt(args, "publish");
}

/** `schedule`: saves and publishes at the posted Swiss day and time (8 h 00 without a time), which must be to come. */
export function scheduleIntent(args: ArticleIntentArgs) {
  return publishAt(args, "schedule");
}

async function publishAt(args: ArticleIntentArgs, intent: "publish" | "schedule") {
  const { form, context, id } = args;
  const read = readFields(form);
  if (!read.ok) return read.answer;
  const { values, fields } = read;
  const db = context.get(dbContext);
  const preview = await previewOf(db, args.row, fields);
  const errors: Partial<Record<ArticleFieldName, string>> = publishProblems(fields);
  let at: Date | null = context.get(clockContext).now();
  if (intent === "schedule") {
    at = scheduledMoment(String(form.get("publishDate") ?? ""), String(form.get("publishTime") ?? ""));
    if (!at) errors.publishDate = "Choisissez le jour de la publication (et l’heure, 8 h 00 sinon).";
    else if (at <= context.get(clockContext).now())
      errors.publishDate = "Choisissez un moment à venir, ou publiez maintenant.";
  }
  if (!at || Object.keys(errors).length > 0) return reply({ errors, values, preview }, 400);
  await saveArticle(db, id, fields);
  await publishArticle(db, id, at);
  await log(args, intent === "schedule" ? "article-scheduled" : "article-published");
  await makeShareImage(db, await getArticle(db, id), context.get(loggerContext));
  return reply({
    message:
      intent === "schedule"
        ? `Article programmé : il paraîtra le ${formatDateTime(at)}.`
        : "Article publié : il est sur le site, dans le blog, sur la page d’accueil et dans le flux RSS.",
    values,
    preview: await previewOf(db, (await getArticle(db, id))!, fields),
  });
}
