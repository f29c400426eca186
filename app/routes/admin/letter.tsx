/**
 * `/admin/lettres/:id`: one letter. A draft: its subject and its Markdown,
 * with the preview in the letter's layout beside it (live while typing
 * with JavaScript; "Enregistrer et prévisualiser" without), "M'envoyer un
 * test", then "Envoyer" (a confirmation names the number of subscribers).
 * A sent letter: read-only, with the sending's progress (mails prepared
 * while they are being queued; sent, waiting, given up), refreshed every 5
 * seconds while mails wait (a plain reload works as well). One function per
 * intent: app/newsletter/desk-actions.server.ts.
 */
import { useEffect } from "react";
import { data, Form, useActionData, useLoaderData, useRevalidator } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { DeskBackLink, deskLinkClass } from "~/desk/frame";
import { useLivePreview } from "~/desk/live-preview";
import { idParam } from "~/desk/route-params.server";
import { deskHandle, deskMeta } from "~/desk/meta";
import { readFormData } from "~/guards/body.server";
import { LETTER_LIMITS } from "~/newsletter/fields";
import { countConfirmedSubscribers, getLetter, letterProgress } from "~/newsletter/letters.server";
import { renderLetterBody } from "~/newsletter/letter.server";
import { subscriberCount } from "~/newsletter/words";
import { formatDateTime } from "~/utils/format";
import type { Route } from "./+types/letter";
import { dbContext } from "~/context.server";
import {
  previewLetterIntent,
  saveLetterIntent,
  sendLetterIntent,
  type LetterAnswer,
} from "~/newsletter/desk-actions.server";

export const handle = deskHandle;

export async function loader({ context, params }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const letter = await getLetter(db, idParam(params.id));
  if (!letter) throw data(null, { status: 404 });
  return {
    id: letter.id,
    subject: letter.subject,
    body: letter.body,
    preview: renderLetterBody(letter.body),
    sent: letter.sentAt
      ? {
          at: formatDateTime(letter.sentAt),
          // null while its mails are being queued (app/newsletter/queue.server.ts).
          recipients: letter.recipients,
          slug: letter.slug!,
          progress: await letterProgress(db, letter.id),
        }
      : null,
    subscribers: await countConfirmedSubscribers(db),
  };
}

export const meta: Route.MetaFunction = ({ data: loaded, matches }) =>
  deskMeta(loaded ? loaded.subject : "Lettre introuvable", matches);

export async function action({ request, context, params }: Route.ActionArgs) {
  const args = { form: await readFormData(request, 256 * 1024), context, id: idParam(params.id) };
  const intent = args.form.get("intent");
  switch (intent) {
    case "preview":
      return previewLetterIntent(args);
    case "send":
      return sendLetterIntent(args);
    case "test":
    case "confirm-send":
      return saveLetterIntent(args, intent);
    default:
      // "save", and a form posted without a button (Enter in the subject).
      return saveLetterIntent(args, "save");
  }
}

/** How to write the letter (no-break spaces inside « » and before ":", so that no mark starts a line). */
const MARKDOWN_HINT =
  "En Markdown\u00a0: une ligne vide entre deux paragraphes, «\u00a0##\u00a0» devant un intertitre, «\u00a0-\u00a0» devant chaque point d’une liste, [texte du lien](https://adresse).";

/** Refreshes the page's data every 5 seconds while `active`. */
function useRefreshWhile(active: boolean) {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void revalidate(), 5000);
    return () => clearInterval(timer);
  }, [active, revalidate]);
}

export default function LetterPage() {
  const letter = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const preview = useLivePreview<LetterAnswer>(answer);
  useRefreshWhile(Boolean(letter.sent && (letter.sent.progress.waiting > 0 || letter.sent.recipients === null)));

  if (letter.sent) {
    const { progress, recipients } = letter.sent;
    const prepared = progress.sent + progress.waiting + progress.failed;
    return (
      <div className="mt-8">
        <DeskBackLink to="/admin/lettres">Toutes les lettres</DeskBackLink>
        <h1 className="mt-4 text-3xl font-bold">{letter.subject}</h1>
        <p className="mt-2 text-lg">
          {recipients === null
            ? `Envoyée le ${letter.sent.at}\u00a0: préparation des lettres en cours (${prepared} prêtes pour l’instant).`
            : `Envoyée le ${letter.sent.at} à ${subscriberCount(recipients)}.`}{" "}
          <a href={`/newsletter/archives/${letter.sent.slug}`} className={deskLinkClass}>
            Voir dans les archives du site
          </a>
        </p>
        {/* One row a figure on a phone ("Abandonnées" does not fit a third of 375 px), three columns from 640 px. */}
        <dl className="mt-6 grid max-w-xl gap-3 sm:grid-cols-3 sm:text-center" aria-label="Progression de l’envoi">
          {[
            ["Envoyées", progress.sent],
            ["En attente", progress.waiting],
            ["Abandonnées", progress.failed],
          ].map(([label, value]) => (
            <div
              key={label}
              className="flex items-center justify-between gap-4 rounded-xl border-2 border-gray-200 bg-white p-3 sm:block"
            >
              <dt className="text-lg">{label}</dt>
              <dd className="text-3xl font-bold">{value}</dd>
            </div>
          ))}
        </dl>
        {progress.waiting > 0 || recipients === null ? (
          <p className="mt-4 text-lg">
            L’envoi continue au rythme choisi.{" "}
            <a href={`/admin/lettres/${letter.id}`} className={deskLinkClass}>
              Mettre à jour
            </a>
          </p>
        ) : null}
        <section aria-labelledby="letter-title">
          <h2 id="letter-title" className="mt-8 text-2xl font-bold">
            La lettre
          </h2>
          <div
            className="mt-4 max-w-[600px] rounded-xl border-2 border-gray-200 bg-white p-6"
            dangerouslySetInnerHTML={{ __html: letter.preview }}
          />
        </section>
      </div>
    );
  }

  const shown = preview.data?.preview ?? letter.preview;
  return (
    <div className="mt-8">
      <DeskBackLink to="/admin/lettres">Toutes les lettres</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">Écrire la lettre</h1>
      {answer?.message ? (
        <p role="status" className="mt-4 rounded-xl border-2 border-primary bg-primary-soft p-4 text-lg">
          {answer.message}
        </p>
      ) : null}
      {answer?.error ? (
        <p role="alert" className="mt-4 rounded-xl border-2 border-red-700 bg-red-50 p-4 text-lg text-red-900">
          {answer.error}
        </p>
      ) : null}
      {answer?.confirm !== undefined ? (
        <div role="alert" className="mt-4 rounded-xl border-2 border-accent bg-white p-4 text-lg">
          <p className="font-semibold">
            {/* French spacing: no-break spaces inside « », a narrow one before "?". */}
            Envoyer «{"\u00a0"}
            {letter.subject}
            {"\u00a0"}» à {subscriberCount(answer.confirm)}
            {"\u202f"}? Une fois partie, la lettre ne peut plus être modifiée.
          </p>
          <Form method="post" className="mt-3 flex flex-wrap gap-3">
            <button type="submit" name="intent" value="send" className={buttonVariants({ variant: "accent" })}>
              Oui, envoyer maintenant
            </button>
            <a href={`/admin/lettres/${letter.id}`} className={buttonVariants({ variant: "outline" })}>
              Non, revenir à la lettre
            </a>
          </Form>
        </div>
      ) : null}
      <div className="mt-6 grid gap-8 lg:grid-cols-2">
        <Form method="post" className="space-y-4" onChange={preview.onChange}>
          <div>
            <Label htmlFor="letter-subject">Objet</Label>
            <Input
              id="letter-subject"
              name="subject"
              required
              maxLength={LETTER_LIMITS.subject}
              defaultValue={letter.subject}
              className="mt-2"
            />
          </div>
          <div>
            <Label htmlFor="letter-body">Texte de la lettre</Label>
            <p id="letter-body-hint" className="mt-1 text-lg text-muted">
              {MARKDOWN_HINT}
            </p>
            <Textarea
              id="letter-body"
              name="body"
              rows={18}
              maxLength={LETTER_LIMITS.body}
              defaultValue={letter.body}
              aria-describedby="letter-body-hint"
              className="mt-2 font-mono text-base"
            />
          </div>
          <div className="flex flex-wrap gap-3">
            <Button type="submit" name="intent" value="save" variant="outline">
              Enregistrer et prévisualiser
            </Button>
            <Button type="submit" name="intent" value="test" variant="outline">
              M’envoyer un test
            </Button>
            <Button type="submit" name="intent" value="confirm-send">
              Envoyer à {subscriberCount(letter.subscribers)}…
            </Button>
          </div>
        </Form>
        <section aria-labelledby="preview-title">
          <h2 id="preview-title" className="text-2xl font-bold">
            Aperçu
          </h2>
          <div
            className="mt-4 max-w-[600px] rounded-xl border-2 border-gray-200 bg-white p-6"
            dangerouslySetInnerHTML={{ __html: shown }}
          />
        </section>
      </div>
    </div>
  );
}
