/**
 * The intents of the mails not delivered (`/admin/non-remis`, posted from
 * that page, a person's page and a session's page), one function each:
 * `resend` (the address corrected, or as it was, then sent again:
 * `correctAndResend`) and `dismiss` (left aside: `dismissMail`). Each
 * redirects (303) to the page the form came from (`retour`, a desk path;
 * this page otherwise) with `?envoi=renvoye|ecarte`, or answers 400 with
 * the form's error on this page.
 */
import { data, redirect } from "react-router";
import { z } from "zod";
import { dbContext, loggerContext, ownerContext, wakeOutboxContext } from "~/context.server";
import { errorFields } from "~/db/errors.server";
import { audit } from "~/desk/audit.server";
import type { DeskIntentArgs } from "~/desk/intent.server";
import { OUTBOX_PLUGS } from "~/features.server";
import { correctAndResend, dismissMail } from "~/mail/manage.server";
import { UNDELIVERED_PATH } from "./path";

/** What this page shows after a refused post. */
export type UndeliveredAnswer = { mailId: number; emailError?: string; message?: string };

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "Cette adresse est trop longue.")
  .email("Cette adresse e-mail n’est pas valable : vérifiez-la (par exemple marie.dupont@exemple.ch).");

/** The mail the form names (`id`), or 0. */
const mailIdOf = (form: FormData) => {
  const id = Number(form.get("id"));
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
};

/** The desk page to go back to: `retour` when it is one (`/admin…`, never another site), else this page. */
function backTo(form: FormData, outcome: "renvoye" | "ecarte"): string {
  const asked = String(form.get("retour") ?? "");
  const url = new URL(/^\/admin(\/|$|\?)/i.test(asked) ? asked : UNDELIVERED_PATH, "http://desk.invalid");
  url.searchParams.set("envoi", outcome);
  return `${url.pathname}${url.search}`;
}

const notFound = (mailId: number) =>
  data<UndeliveredAnswer>(
    { mailId, message: "Cet e-mail n’est plus en attente : il a déjà été envoyé, ou effacé." },
    { status: 404 },
  );

/** `resend`: the posted address (`email-{id}`; the mail's own when none is posted) corrected, the mail sent again. */
export async function resendIntent({ form, context }: DeskIntentArgs) {
  const mailId = mailIdOf(form);
  const posted = form.get(`email-${mailId}`);
  let address = "";
  if (posted !== null) {
    const parsed = email.safeParse(String(posted));
    if (!parsed.success)
      return data<UndeliveredAnswer>({ mailId, emailError: parsed.error.issues[0]!.message }, { status: 400 });
    address = parsed.data;
  }
  const db = context.get(dbContext);
  let resent: number[] | null;
  try {
    resent = await correctAndResend(db, mailId, address, OUTBOX_PLUGS);
  } catch (error) {
    // A letter goes once to an address (outbox's unique index): the new address already has this one.
    if (errorFields(error).sqlState !== "23505") throw error;
    return data<UndeliveredAnswer>(
      { mailId, emailError: "Cette adresse a déjà reçu cette lettre : rien n’est renvoyé." },
      { status: 409 },
    );
  }
  if (!resent) return notFound(mailId);
  await audit(
    db,
    { actor: context.get(ownerContext).userId, action: "mail-resent", details: { mails: resent.length } },
    context.get(loggerContext),
  );
  context.get(wakeOutboxContext)();
  throw redirect(backTo(form, "renvoye"), { status: 303 });
}

/** `dismiss`: the failed mail left aside (kept, out of the count). */
export async function dismissIntent({ form, context }: DeskIntentArgs) {
  const mailId = mailIdOf(form);
  if (!(await dismissMail(context.get(dbContext), mailId))) return notFound(mailId);
  throw redirect(backTo(form, "ecarte"), { status: 303 });
}

/** An `intent` the page does not know. */
export const unknownIntent = () =>
  data<UndeliveredAnswer>({ mailId: 0, message: "Cette action n’est pas connue. Rechargez la page." }, { status: 400 });
