/**
 * `/admin/lettres`: the newsletter in the desk: the letters (drafts and
 * sent), a new letter, and how many confirmed subscribers will get the next.
 */
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { deskLinkClass } from "~/desk/frame";
import { deskHandle, deskMeta } from "~/desk/meta";
import { readFormData } from "~/guards/body.server";
import { LETTER_LIMITS } from "~/newsletter/fields";
import { countConfirmedSubscribers, createLetter, listLetters } from "~/newsletter/letters.server";
import { subscriberCount } from "~/newsletter/words";
import { formatDateTime } from "~/utils/format";
import type { Route } from "./+types/letters";
import { dbContext } from "~/context.server";

export const handle = deskHandle;

export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const letters = await listLetters(db);
  return {
    subscribers: await countConfirmedSubscribers(db),
    letters: letters.map((letter) => ({
      id: letter.id,
      subject: letter.subject,
      state: letter.sentAt
        ? `Envoyée le ${formatDateTime(letter.sentAt)} à ${subscriberCount(letter.recipients ?? 0)}`
        : `Brouillon, modifié le ${formatDateTime(letter.updatedAt)}`,
    })),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Lettre d’information", matches);

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request, 8 * 1024);
  const subject = String(form.get("subject") ?? "").trim();
  if (!subject || subject.length > LETTER_LIMITS.subject) {
    return data(
      { error: `Donnez un objet à la lettre (au plus ${LETTER_LIMITS.subject} caractères).` },
      { status: 400 },
    );
  }
  const id = await createLetter(context.get(dbContext), { subject, body: "" });
  return redirect(`/admin/lettres/${id}`, { status: 303 });
}

export default function Letters() {
  const { subscribers, letters } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <h1 className="text-3xl font-bold">Lettre d’information</h1>
      <p className="mt-4 text-lg">
        {subscribers === 0
          ? "Aucun abonné confirmé pour l’instant."
          : `${subscriberCount(subscribers)} confirmé${subscribers > 1 ? "s recevront" : " recevra"} la prochaine lettre.`}{" "}
        <Link to="/admin/abonnes" className={deskLinkClass}>
          Voir les abonnés
        </Link>
      </p>
      <section aria-labelledby="new-letter" className="mt-8 rounded-2xl border-2 border-gray-200 bg-white p-4">
        <h2 id="new-letter" className="text-2xl font-bold">
          Nouvelle lettre
        </h2>
        <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
          <div className="min-w-[min(16rem,100%)] flex-1">
            <Label htmlFor="subject">Objet de la lettre</Label>
            <Input
              id="subject"
              name="subject"
              required
              maxLength={LETTER_LIMITS.subject}
              className="mt-2"
              aria-invalid={answer?.error ? true : undefined}
              aria-describedby={answer?.error ? "subject-error" : undefined}
            />
          </div>
          <Button type="submit">Écrire cette lettre</Button>
        </Form>
        {answer?.error ? (
          <p id="subject-error" className="mt-2 text-lg font-semibold text-red-800">
            {answer.error}
          </p>
        ) : null}
      </section>
      <h2 className="mt-10 text-2xl font-bold">Les lettres</h2>
      {letters.length === 0 ? (
        <p className="mt-2 text-lg text-muted">Aucune lettre pour l’instant.</p>
      ) : (
        <ul className="mt-4 space-y-3">
          {letters.map((letter) => (
            <li key={letter.id} className="rounded-2xl border-2 border-gray-200 bg-white p-4">
              <Link to={`/admin/lettres/${letter.id}`} className={`text-xl ${deskLinkClass}`}>
                {letter.subject}
              </Link>
              <p className="mt-1 text-lg text-muted">{letter.state}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
