/**
 * The intents of the desk's letter page (`/admin/lettres/:id`), one
 * function each, dispatched by the route's action on the posted `intent`:
 * `preview` (the Markdown rendered, nothing saved), `send` (to every
 * confirmed subscriber; redirects 303 to the page), and, after saving the
 * draft's subject and text, `save`, `test` (to the owner's e-mail) and
 * `confirm-send` (asks once, naming the number of subscribers). Answers
 * `data(LetterAnswer)`: 400 for a missing or long subject or a long text,
 * 409 once the letter has left.
 */
import { data, redirect } from "react-router";
import { dbContext, loggerContext, ownerContext, settingsContext, wakeOutboxContext } from "~/context.server";
import { errorFields } from "~/db/errors.server";
import type { DeskIntentArgs } from "~/desk/intent.server";
import { LETTER_LIMITS } from "./fields";
import { renderLetterBody } from "./letter.server";
import { countConfirmedSubscribers, getLetter, sendTest, updateLetter } from "./letters.server";
import { queueLetter, startLetter } from "./queue.server";

/** What the letter page shows after a post. */
export type LetterAnswer = { message?: string; error?: string; preview?: string; confirm?: number };

const reply = (answer: LetterAnswer, status = 200) => data<LetterAnswer>(answer, { status });

const bodyOf = (form: FormData) => String(form.get("body") ?? "");

/** `preview`: the posted text as the letter shows it; nothing is saved. */
export function previewLetterIntent({ form }: DeskIntentArgs) {
  return reply({ preview: renderLetterBody(bodyOf(form).slice(0, LETTER_LIMITS.body)) });
}

/**
 * `send`: the letter leaves for every confirmed subscriber (409 if it
 * already has). Answers once the letter is marked sent; its mails are
 * queued in the background (queue.server.ts), the outbox woken after each
 * batch, and the page shows how far it is.
 */
export async function sendLetterIntent({ context, id }: DeskIntentArgs) {
  const db = context.get(dbContext);
  const logger = context.get(loggerContext);
  const wake = context.get(wakeOutboxContext);
  if (!(await startLetter(db, id))) return reply({ error: "Cette lettre est déjà partie." }, 409);
  // Not awaited: a process that dies half-way leaves the rest to the newsletter's job (letterQueueJob).
  void queueLetter(db, id, { siteUrl: context.get(settingsContext).SITE_URL, onBatch: wake }).then(
    (count) => logger.info({ letterId: id, recipients: count }, "newsletter: letter queued"),
    (error: unknown) =>
      logger.error(
        { letterId: id, err: errorFields(error) },
        "newsletter: queueing the letter stopped; the job will finish it",
      ),
  );
  return redirect(`/admin/lettres/${id}`, { status: 303 });
}

/**
 * Saves the draft, then does `then`: `save` (and any other intent) says so,
 * `test` mails the letter to the owner, `confirm-send` asks before sending.
 */
export async function saveLetterIntent({ form, context, id }: DeskIntentArgs, then: "save" | "test" | "confirm-send") {
  const db = context.get(dbContext);
  const subject = String(form.get("subject") ?? "").trim();
  const body = bodyOf(form);
  if (!subject || subject.length > LETTER_LIMITS.subject) {
    return reply({ error: `Donnez un objet à la lettre (au plus ${LETTER_LIMITS.subject} caractères).` }, 400);
  }
  if (body.length > LETTER_LIMITS.body) {
    return reply({ error: `La lettre doit contenir au plus ${LETTER_LIMITS.body} caractères.` }, 400);
  }
  if (!(await updateLetter(db, id, { subject, body }))) return reply({ error: "Cette lettre est déjà partie." }, 409);
  const preview = renderLetterBody(body);
  if (then === "test") {
    const owner = context.get(ownerContext);
    const letter = (await getLetter(db, id))!;
    await sendTest(db, letter, { to: owner.email, siteUrl: context.get(settingsContext).SITE_URL });
    context.get(wakeOutboxContext)();
    return reply({ message: `Lettre de test envoyée à ${owner.email}.`, preview });
  }
  if (then === "confirm-send") return reply({ confirm: await countConfirmedSubscribers(db), preview });
  return reply({ message: "Brouillon enregistré.", preview });
}
