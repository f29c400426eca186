/**
 * The intents of the desk's invoice page (`/admin/factures/:id`), one
 * function each, dispatched by the route's action on the posted `intent`:
 * `send` (by mail, the PDF attached), `remind` (only for an overdue open
 * invoice), `paid` (date and how, read with `paymentSchema`) and `cancel`
 * (a box to tick first; the invoice keeps its number). Each answers
 * `data(InvoiceAnswer)`: 400 for a refused form, 409 when the invoice is
 * no longer open or has no e-mail; an unknown invoice throws a 404. Every
 * change is audited (ids only).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { z } from "zod";
import { clockContext, dbContext, loggerContext, ownerContext, wakeOutboxContext } from "~/context.server";
import { audit, type AuditAction } from "~/desk/audit.server";
import type { DeskIntentArgs } from "~/desk/intent.server";
import { cancelInvoice, getInvoice, isOverdue, markInvoicePaid, sendInvoice, todayInZurich } from "./invoices.server";
import { PAYMENT_METHODS, type PaymentMethod } from "./words";

/** What the invoice page shows after a post: a message, and the payment form's errors by field. */
export type InvoiceAnswer = { message: string; tone: "status" | "alert"; errors?: Record<string, string> };

const reply = (answer: InvoiceAnswer, status = 200) => data(answer, { status });

const notOpen = { message: "Cette facture n’est plus ouverte (payée ou annulée).", tone: "alert" } as const;

/** Audits `action` on the invoice and says `message`. */
async function done({ context, id }: DeskIntentArgs, action: AuditAction, message: string) {
  await audit(
    context.get(dbContext),
    { actor: context.get(ownerContext).userId, action, details: { invoice: id } },
    context.get(loggerContext),
  );
  return reply({ message, tone: "status" });
}

async function mail(args: DeskIntentArgs, kind: "invoice" | "reminder") {
  const result = await sendInvoice(args.context.get(dbContext), args.id, kind, {
    resend: args.form.get("resend") === "oui",
    now: args.context.get(clockContext).now(),
  });
  if (result === "not-found") throw data(null, { status: 404 });
  if (result === "not-open") return reply(notOpen, 409);
  if (result === "already-sent")
    return reply(
      {
        message:
          "Cette facture est déjà partie par e-mail. Pour l’envoyer encore une fois, cochez « Oui, l’envoyer encore » puis cliquez sur « Envoyer à nouveau par e-mail ».",
        tone: "alert",
      },
      409,
    );
  if (result === "reminded-today")
    return reply({ message: "Un rappel est déjà parti aujourd’hui : un seul rappel par jour.", tone: "alert" }, 409);
  if (result === "no-email")
    return reply({ message: "Ce client n’a pas d’e-mail : imprimez la facture pour la poste.", tone: "alert" }, 409);
  args.context.get(wakeOutboxContext)();
  return kind === "invoice"
    ? done(args, "invoice-sent", "La facture part par e-mail, en pièce jointe.")
    : done(args, "invoice-reminded", "Le rappel part par e-mail, avec la facture en pièce jointe.");
}

/** `send`: the invoice leaves by mail to the client's e-mail, the PDF attached. */
export function sendInvoiceIntent(args: DeskIntentArgs) {
  return mail(args, "invoice");
}

/** `remind`: a reminder mail, only once the invoice is overdue (the owner's click, never automatic). */
export async function remindIntent(args: DeskIntentArgs) {
  const invoice = await getInvoice(args.context.get(dbContext), args.id);
  if (!invoice) throw data(null, { status: 404 });
  if (invoice.status === "open" && !isOverdue(invoice, todayInZurich()))
    return reply({ message: "Cette facture n’est pas encore en retard : pas de rappel.", tone: "alert" }, 409);
  return mail(args, "reminder");
}

const PAID_ON_MISSING = "Indiquez la date du paiement.";

/** The payment form (`paidOn`, an ISO date not after `today`; `paidBy`, a key of PAYMENT_METHODS), with French messages. */
export function paymentSchema(today: string) {
  return z.object({
    paidOn: z
      .string({ message: PAID_ON_MISSING })
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { message: PAID_ON_MISSING, abort: true })
      .refine((value) => !Number.isNaN(Date.parse(value)), { message: PAID_ON_MISSING, abort: true })
      .refine((value) => value <= today, "La date du paiement ne peut pas être dans le futur."),
    paidBy: z.enum(Object.keys(PAYMENT_METHODS) as [PaymentMethod, ...PaymentMethod[]], {
      message: "Choisissez comment la facture a été payée.",
    }),
  });
}

/** `paid`: records the payment's date and how; 400 with each field's message when the form is wrong. */
export async function markPaidIntent(args: DeskIntentArgs) {
  const submission = parseWithZod(args.form, { schema: paymentSchema(todayInZurich()) });
  if (submission.status !== "success") {
    const errors = Object.fromEntries(
      Object.entries(submission.error ?? {}).flatMap(([name, messages]) =>
        messages?.[0] ? [[name, messages[0]]] : [],
      ),
    );
    return reply({ message: "Le paiement n’est pas enregistré.", tone: "alert", errors }, 400);
  }
  const result = await markInvoicePaid(args.context.get(dbContext), args.id, submission.value);
  if (result === "not-found") throw data(null, { status: 404 });
  if (result === "not-open") return reply(notOpen, 409);
  return done(args, "invoice-paid", "Paiement enregistré : la facture est payée.");
}

/** `cancel`: cancels the open invoice once the box is ticked; it keeps its number. */
export async function cancelInvoiceIntent(args: DeskIntentArgs) {
  if (args.form.get("confirm") !== "oui")
    return reply({ message: "Cochez la case pour confirmer l’annulation de la facture.", tone: "alert" }, 400);
  const result = await cancelInvoice(args.context.get(dbContext), args.id);
  if (result === "not-found") throw data(null, { status: 404 });
  if (result === "not-open") return reply(notOpen, 409);
  return done(args, "invoice-cancelled", "La facture est annulée ; elle garde son numéro.");
}

/** The answer to an intent the page does not know. */
export const unknownInvoiceIntent = () => reply({ message: "Action inconnue.", tone: "alert" }, 400);
