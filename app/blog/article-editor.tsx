/**
 * The desk's article editor form (`/admin/articles/:id`): title, summary,
 * category, the Markdown text with a small toolbar once JavaScript runs,
 * a picture to add to the text, the card's picture and colour, author,
 * video, "à la une", then the buttons posting `intent` (`preview`, `save`,
 * `publish`, `schedule` with a day and time, `unpublish` or `delete`,
 * `upload`). Each error is shown beside its field. With JavaScript, a photo
 * is sent in the background with its progress shown, and a button pressed
 * meanwhile waits for it (./photo-upload.ts).
 */
import { useRef, type FormEventHandler } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { FieldError, TextField } from "~/desk/form-parts";
import { PictureFileInput } from "~/pictures/file-input";
import { useHydrated } from "~/utils/use-hydrated";
import { applyMarkdownTool, MARKDOWN_TOOLS } from "./markdown-tools";
import { usePhotoUpload, type PhotoUploadState } from "./photo-upload";
import { ARTICLE_LIMITS, COLOR_CHOICES, ICON_CHOICES, type ArticleFieldName, type ArticleFields } from "./fields";

/** How to write the text (no-break spaces inside « », so that no mark starts a line). */
const MARKDOWN_HINT =
  "Une ligne vide entre deux paragraphes, «\u00a0##\u00a0» devant un intertitre, «\u00a0-\u00a0» devant chaque point d’une liste, **gras**, [texte du lien](https://adresse).";

/** Buttons that put Markdown around the selection of `textarea` (shown only once JavaScript runs). */
function MarkdownToolbar({ textarea }: { textarea: React.RefObject<HTMLTextAreaElement | null> }) {
  return (
    <div role="toolbar" aria-label="Mise en forme" aria-controls="article-body" className="mt-2 flex flex-wrap gap-2">
      {MARKDOWN_TOOLS.map((tool) => (
        <Button
          key={tool.label}
          type="button"
          variant="outline"
          onClick={() => {
            const field = textarea.current;
            if (!field) return;
            const after = applyMarkdownTool(tool, field);
            // setRangeText keeps the text's scroll position (a long article does not jump to its top).
            field.setRangeText(after.written, field.selectionStart, field.selectionEnd);
            // Placeholder words are selected: what the owner types next replaces them.
            field.setSelectionRange(after.selectionStart, after.selectionEnd);
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

/** The photo on its way (a labelled `<progress>`), or what became of it, under « Ajouter la photo au texte ». */
function PhotoProgress({ state }: { state: PhotoUploadState }) {
  if (state.phase === "sending")
    return (
      <div className="mt-4">
        <label htmlFor="photo-progress" className="text-lg font-semibold">
          Envoi de la photo
        </label>
        <div className="mt-2 flex items-center gap-3">
          <progress id="photo-progress" max={100} value={state.percent} className="h-4 w-full">
            {state.percent}
            {"\u00a0"}%
          </progress>
          <span aria-hidden="true" className="text-lg tabular-nums">
            {state.percent}
            {"\u00a0"}%
          </span>
        </div>
      </div>
    );
  if (state.phase === "added")
    return (
      <p role="status" className="mt-4 text-lg">
        {state.message}
      </p>
    );
  if (state.phase === "refused")
    return (
      <p role="alert" className="mt-4 text-lg font-semibold text-red-800">
        {state.message}
      </p>
    );
  return null;
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

/** The editor's form, filled with `values`, with `errors` beside their fields. */
export function ArticleEditorForm({
  values,
  errors,
  added,
  categories,
  published,
  fromFile,
  onChange,
}: {
  values: ArticleFields;
  errors: Partial<Record<ArticleFieldName, string>>;
  /** The id of the picture just added: the text and picture fields are drawn anew. */
  added?: number;
  /** The categories already used, offered while typing. */
  categories: string[];
  published: boolean;
  /** The article comes from a file: it cannot be deleted. */
  fromFile: boolean;
  onChange?: FormEventHandler<HTMLFormElement>;
}) {
  const hydrated = useHydrated();
  const body = useRef<HTMLTextAreaElement>(null);
  const photo = usePhotoUpload();
  const invalid = (name: ArticleFieldName) =>
    errors[name] ? { "aria-invalid": true as const, "aria-describedby": `${name}-error` } : {};
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="min-w-0 space-y-5"
      onChange={onChange}
      onSubmit={photo.onSubmit}
    >
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
        {categories.map((category) => (
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
          key={`body-${added ?? 0}`}
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
      <fieldset className="rounded-2xl border-2 border-gray-200 p-4" key={`picture-${added ?? 0}`}>
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
        <PhotoProgress state={photo.state} />
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
      {photo.state.phase === "sending" && photo.state.waiting ? (
        <p role="status" className="text-lg font-semibold">
          Une photo est encore en cours d’envoi… Dès qu’elle sera arrivée, l’article sera enregistré avec elle.
        </p>
      ) : null}
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
        ) : fromFile ? null : (
          <Button type="submit" name="intent" value="delete" variant="ghost" formNoValidate>
            Supprimer ce brouillon
          </Button>
        )}
      </div>
    </Form>
  );
}
