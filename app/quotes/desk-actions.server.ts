/**
 * The intents of the desk's quote page (`/admin/devis/:id`), one function
 * each, dispatched by the route's action on the posted `intent`: `send` (by
 * mail, the PDF attached), `posted` (printed and posted), `accept` and `refuse` (the organisation's
 * answer), `session` (the closed group's session and its link page),
 * `participants` (the list, by the owner) and `invoice` (« Faire la
 * facture »: redirects to the invoice). Each answers `data(QuoteAnswer)`:
 * 409 when the quote's state refuses it; an unknown quote throws a 404.
 * Every change is audited (ids only). Dates come from the injected clock.
 */
import { data, redirect } from "react-router";
import {
  clockContext,
  dbContext,
  loggerContext,
  ownerContext,
  settingsContext,
  wakeOutboxContext,
} from "~/context.server";
import { audit, type AuditAction } from "~/desk/audit.server";
import type { DeskIntentArgs } from "~/desk/intent.server";
import { invoiceCreditor } from "~/invoices/creditor.server";
import { isoDateInZurich } from "~/utils/format";
import { makeGroupSession, namesOf, saveParticipants } from "./group.server";
import { invoiceFromQuote } from "./invoice.server";
import { decideQuote, markQuotePosted, sendQuote } from "./quotes.server";

/** What the quote page shows after a post. */
export type QuoteAnswer = { message: string; tone: "status" | "alert" };

const reply = (answer: QuoteAnswer, status = 200) => data(answer, { status });
const refuse = (message: string) => reply({ message, tone: "alert" }, 409);
const notFound = () => {
  throw data(null, { status: 404 });
};

/** Audits `action` on the quote (and `more` ids) and says `message`. */
async function done(
  { context, id }: DeskIntentArgs,
  action: AuditAction,
  message: string,
  more: Record<string, number> = {},
) {
  await audit(
    context.get(dbContext),
    { actor: context.get(ownerContext).userId, action, details: { quote: id, ...more } },
    context.get(loggerContext),
  );
  return reply({ message, tone: "status" });
}

/** `send`: the quote leaves by mail to its e-mail, the PDF attached; again only with `resend=oui`. */
export async function sendQuoteIntent(args: DeskIntentArgs) {
  const result = await sendQuote(args.context.get(dbContext), args.id, {
    resend: args.form.get("resend") === "oui",
    now: args.context.get(clockContext).now(),
  });
  if (result === "not-found") notFound();
  if (result === "decided") return refuse("Ce devis a déjà reçu sa réponse : il ne part plus.");
  if (result === "expired") return refuse("Ce devis a expiré : faites-en un nouveau avec une autre validité.");
  if (result === "no-email") return refuse("Ce devis n’a pas d’e-mail : imprimez-le pour la poste.");
  if (result === "already-sent")
    return refuse(
      "Ce devis est déjà parti par e-mail. Pour l’envoyer encore une fois, cochez « Oui, l’envoyer encore » puis cliquez sur « Envoyer à nouveau ».",
    );
  args.context.get(wakeOutboxContext)();
  return done(args, "quote-sent", "Le devis part par e-mail, en pièce jointe.");
}

/** `posted`: a draft printed and posted (no e-mail, or the owner's choice) is « envoyé » from today. */
export async function postedQuoteIntent(args: DeskIntentArgs) {
  const result = await markQuotePosted(args.context.get(dbContext), args.id, args.context.get(clockContext).now());
  if (result === "not-found") notFound();
  if (result === "not-draft") return refuse("Ce devis est déjà envoyé.");
  if (result === "expired") return refuse("Ce devis a expiré : faites-en un nouveau avec une autre validité.");
  return done(args, "quote-posted", "Devis noté envoyé par la poste aujourd’hui.");
}

/** `accept` and `refuse`: the organisation's answer to a sent quote, not expired. */
async function decide(args: DeskIntentArgs, answer: "accepted" | "refused") {
  const result = await decideQuote(args.context.get(dbContext), args.id, answer, args.context.get(clockContext).now());
  if (result === "not-found") notFound();
  if (result === "not-sent") return refuse("Envoyez d’abord le devis : il est encore en brouillon.");
  if (result === "expired") return refuse("Ce devis a expiré : il ne peut plus être accepté.");
  if (result === "decided") return refuse("Ce devis a déjà reçu sa réponse.");
  return answer === "accepted"
    ? done(args, "quote-accepted", "Devis accepté. Vous pouvez maintenant créer la séance du groupe.")
    : done(args, "quote-refused", "Devis refusé.");
}

export const acceptQuoteIntent = (args: DeskIntentArgs) => decide(args, "accepted");
export const refuseQuoteIntent = (args: DeskIntentArgs) => decide(args, "refused");

/** `session`: the closed group's session, and its link page mailed to the contact person. */
export async function groupSessionIntent(args: DeskIntentArgs) {
  const result = await makeGroupSession(args.context.get(dbContext), args.id, {
    siteUrl: args.context.get(settingsContext).SITE_URL,
    now: args.context.get(clockContext).now(),
  });
  if (result.outcome === "not-found") notFound();
  if (result.outcome === "not-accepted") return refuse("Seul un devis accepté fait une séance.");
  if (result.outcome === "exists") return refuse("La séance de ce groupe existe déjà.");
  if (result.outcome !== "made") return refuse("Rien n’a été changé.");
  if (result.mailed) args.context.get(wakeOutboxContext)();
  return done(
    args,
    "quote-session-made",
    result.mailed
      ? "La séance du groupe est créée (fermée : elle n’apparaît pas sur le site). Le lien de la liste des participants part par e-mail."
      : "La séance du groupe est créée (fermée : elle n’apparaît pas sur le site). Ce devis n’a pas d’e-mail : remplissez la liste ci-dessous.",
    { session: result.sessionId },
  );
}

/** `participants`: the owner fills or corrects the list. */
export async function participantsIntent(args: DeskIntentArgs) {
  if (!(await saveParticipants(args.context.get(dbContext), args.id, namesOf(args.form)))) notFound();
  return done(args, "quote-participants-saved", "La liste des participants est enregistrée.");
}

/** `invoice`: « Faire la facture », the quote's lines and total; opens the invoice. */
export async function quoteInvoiceIntent(args: DeskIntentArgs) {
  const creditor = await invoiceCreditor(args.context);
  if (!creditor.ok) return refuse("IBAN manquant : indiquez-le dans les réglages pour faire la facture.");
  const today = isoDateInZurich(args.context.get(clockContext).now());
  const result = await invoiceFromQuote(args.context.get(dbContext), args.id, creditor.creditor, today);
  if (result.outcome === "not-found") notFound();
  if (result.outcome === "not-accepted") return refuse("Seul un devis accepté se facture.");
  if (result.outcome === "made")
    await audit(
      args.context.get(dbContext),
      {
        actor: args.context.get(ownerContext).userId,
        action: "quote-invoiced",
        details: { quote: args.id, invoice: result.invoiceId },
      },
      args.context.get(loggerContext),
    );
  if (result.outcome === "made" || result.outcome === "exists")
    throw redirect(`/admin/factures/${result.invoiceId}`, 303);
  return refuse("Rien n’a été changé.");
}

/** Any other `intent`. */
export const unknownQuoteIntent = () => reply({ message: "Action inconnue.", tone: "alert" }, 400);
