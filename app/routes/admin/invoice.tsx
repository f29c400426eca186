/**
 * `/admin/factures/:id`: one invoice: its client, lines, total, dates,
 * reference and state, and what the owner does with it, each a plain post
 * (`intent`): `send` (by mail, the PDF attached, to the client's e-mail),
 * `remind` (a reminder mail, only for an overdue open invoice: the owner's
 * click, never automatic), `paid` (date and how: virement, TWINT, espèces),
 * `cancel` (a box to tick first; the invoice keeps its number). The PDF
 * opens at `/admin/factures/:id/facture.pdf` (to print for the post). Every
 * change is audited (ids only).
 */
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { Field } from "~/components/form-parts";
import { Button, buttonVariants } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { audit, type AuditAction } from "~/desk/audit.server";
import { DeskBackLink, deskLinkClass } from "~/desk/frame";
import { Notice } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { idParam } from "~/desk/route-params.server";
import { readFormData } from "~/guards/body.server";
import {
  cancelInvoice,
  clientAddressLines,
  formatCentimes,
  getInvoice,
  INVOICE_STATUS_LABELS,
  isOverdue,
  lineCentimes,
  markInvoicePaid,
  sendInvoice,
  todayInZurich,
} from "~/invoices/invoices.server";
import { PAYMENT_METHODS, type PaymentMethod } from "~/invoices/words";
import { formatDate, formatDateTime } from "~/utils/format";
import type { Route } from "./+types/invoice";
import { dbContext, loggerContext, wakeOutboxContext, ownerContext } from "~/context.server";

export const handle = deskHandle;

export async function loader({ context, params }: Route.LoaderArgs) {
  const invoice = await getInvoice(context.get(dbContext), idParam(params.id));
  if (!invoice) throw data(null, { status: 404 });
  const today = todayInZurich();
  return {
    id: invoice.id,
    number: invoice.number,
    status: invoice.status,
    state:
      invoice.status === "paid"
        ? `Payée le ${formatDate(invoice.paidOn!)} (${PAYMENT_METHODS[invoice.paidBy as PaymentMethod] ?? invoice.paidBy})`
        : invoice.status === "cancelled"
          ? `Annulée le ${formatDateTime(invoice.cancelledAt!)}`
          : isOverdue(invoice, today)
            ? "Ouverte, en retard"
            : (INVOICE_STATUS_LABELS[invoice.status] ?? invoice.status),
    overdue: isOverdue(invoice, today),
    address: clientAddressLines(invoice),
    email: invoice.email,
    phone: invoice.phone,
    lines: invoice.lines.map((line) => ({
      label: line.label,
      quantity: String(line.quantity),
      unit: formatCentimes(line.unitCentimes),
      amount: formatCentimes(lineCentimes(line)),
    })),
    total: formatCentimes(invoice.totalCentimes),
    issued: formatDate(invoice.issuedOn),
    due: formatDate(invoice.dueOn),
    reference: invoice.reference,
    sent: invoice.sentAt ? formatDateTime(invoice.sentAt) : null,
    reminded: invoice.remindedAt ? formatDateTime(invoice.remindedAt) : null,
    registrationId: invoice.registrationId,
    contactId: invoice.contactId,
    today,
  };
}

export const meta: Route.MetaFunction = ({ data: loaded }) =>
  deskMeta(loaded ? `Facture n° ${loaded.number}` : "Facture introuvable");

type Answer = { message: string; tone: "status" | "alert"; errors?: Record<string, string> };

export async function action({ request, context, params }: Route.ActionArgs) {
  const owner = context.get(ownerContext);
  const id = idParam(params.id);
  const db = context.get(dbContext);
  const form = await readFormData(request, 16 * 1024);
  const intent = form.get("intent");
  const reply = (answer: Answer, status = 200) => data(answer, { status });
  const done = async (action: AuditAction, message: string) => {
    await audit(db, { actor: owner.userId, action, details: { invoice: id } }, context.get(loggerContext));
    return reply({ message, tone: "status" });
  };
  const notOpen = { message: "Cette facture n’est plus ouverte (payée ou annulée).", tone: "alert" } as const;

  if (intent === "send" || intent === "remind") {
    if (intent === "remind") {
      const invoice = await getInvoice(db, id);
      if (!invoice) throw data(null, { status: 404 });
      if (invoice.status === "open" && !isOverdue(invoice, todayInZurich()))
        return reply({ message: "Cette facture n’est pas encore en retard : pas de rappel.", tone: "alert" }, 409);
    }
    const result = await sendInvoice(db, id, intent === "send" ? "invoice" : "reminder");
    if (result === "not-found") throw data(null, { status: 404 });
    if (result === "not-open") return reply(notOpen, 409);
    if (result === "no-email")
      return reply({ message: "Ce client n’a pas d’e-mail : imprimez la facture pour la poste.", tone: "alert" }, 409);
    context.get(wakeOutboxContext)();
    return intent === "send"
      ? done("invoice-sent", "La facture part par e-mail, en pièce jointe.")
      : done("invoice-reminded", "Le rappel part par e-mail, avec la facture en pièce jointe.");
  }
  if (intent === "paid") {
    const paidOn = String(form.get("paidOn") ?? "").trim();
    const paidBy = String(form.get("paidBy") ?? "");
    const errors: Record<string, string> = {};
    if (!/^\d{4}-\d{2}-\d{2}$/.test(paidOn) || Number.isNaN(Date.parse(paidOn)))
      errors.paidOn = "Indiquez la date du paiement.";
    else if (paidOn > todayInZurich()) errors.paidOn = "La date du paiement ne peut pas être dans le futur.";
    if (!Object.hasOwn(PAYMENT_METHODS, paidBy)) errors.paidBy = "Choisissez comment la facture a été payée.";
    if (Object.keys(errors).length)
      return reply({ message: "Le paiement n’est pas enregistré.", tone: "alert", errors }, 400);
    const result = await markInvoicePaid(db, id, { paidOn, paidBy: paidBy as PaymentMethod });
    if (result === "not-found") throw data(null, { status: 404 });
    if (result === "not-open") return reply(notOpen, 409);
    return done("invoice-paid", "Paiement enregistré : la facture est payée.");
  }
  if (intent === "cancel") {
    if (form.get("confirm") !== "oui")
      return reply({ message: "Cochez la case pour confirmer l’annulation de la facture.", tone: "alert" }, 400);
    const result = await cancelInvoice(db, id);
    if (result === "not-found") throw data(null, { status: 404 });
    if (result === "not-open") return reply(notOpen, 409);
    return done("invoice-cancelled", "La facture est annulée ; elle garde son numéro.");
  }
  return reply({ message: "Action inconnue.", tone: "alert" }, 400);
}

export default function InvoicePage() {
  const invoice = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const errors = answer && "errors" in answer ? (answer.errors ?? {}) : {};
  const field = (name: string) => ({
    id: `paid-${name}`,
    errorId: `paid-${name}-error`,
    errors: errors[name] ? [errors[name]] : undefined,
  });
  const aria = (name: string) =>
    errors[name] ? { "aria-invalid": true, "aria-describedby": `paid-${name}-error` } : {};
  const open = invoice.status === "open";
  return (
    <div className="mt-8">
      <DeskBackLink to="/admin/factures">Toutes les factures</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">Facture n° {invoice.number}</h1>
      <p className={`mt-2 text-xl font-semibold ${invoice.overdue ? "text-red-800" : ""}`}>{invoice.state}</p>
      {answer ? (
        <Notice tone={answer.tone} className="mt-4">
          {answer.message}
        </Notice>
      ) : null}
      <p className="mt-4 flex flex-wrap gap-3">
        <a href={`/admin/factures/${invoice.id}/facture.pdf`} className={buttonVariants()}>
          Voir et imprimer le PDF
        </a>
      </p>

      <section aria-labelledby="client" className="mt-8">
        <h2 id="client" className="text-2xl font-bold">
          Client
        </h2>
        <address className="mt-2 text-lg break-words not-italic">
          {invoice.address.map((line) => (
            <span key={line} className="block">
              {line}
            </span>
          ))}
        </address>
        <p className="mt-2 text-lg break-words">
          {invoice.email ?? "Sans e-mail"}
          {invoice.phone ? ` · ${invoice.phone}` : ""}
        </p>
        {invoice.registrationId ? (
          <p className="mt-1 text-lg">D’après l’inscription n° {invoice.registrationId}.</p>
        ) : null}
        {invoice.contactId ? (
          <p className="mt-1 text-lg">
            D’après la{" "}
            <Link to={`/admin/demandes/${invoice.contactId}`} className={deskLinkClass}>
              demande n° {invoice.contactId}
            </Link>
            .
          </p>
        ) : null}
      </section>

      <section aria-labelledby="lignes" className="mt-8">
        <h2 id="lignes" className="text-2xl font-bold">
          Lignes
        </h2>
        <ul className="mt-3 grid gap-2">
          {invoice.lines.map((line, index) => (
            <li key={index} className="rounded-xl border-2 border-gray-200 bg-white p-3 text-lg">
              <p className="break-words">{line.label}</p>
              <p>
                {line.quantity} × {line.unit} = <strong>{line.amount}</strong>
              </p>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-xl">
          Total : <strong>{invoice.total}</strong>
        </p>
        <dl className="mt-3 grid gap-1 text-lg sm:grid-cols-[12rem_1fr]">
          <dt className="font-semibold">Date</dt>
          <dd>{invoice.issued}</dd>
          <dt className="font-semibold">À payer d’ici au</dt>
          <dd>{invoice.due}</dd>
          <dt className="font-semibold">Référence</dt>
          <dd className="break-all">{invoice.reference}</dd>
          <dt className="font-semibold">Envoyée par e-mail</dt>
          <dd>{invoice.sent ?? "pas encore"}</dd>
          {invoice.reminded ? (
            <>
              <dt className="font-semibold">Rappel envoyé</dt>
              <dd>{invoice.reminded}</dd>
            </>
          ) : null}
        </dl>
      </section>

      {open ? (
        <section aria-labelledby="actions" className="mt-10 grid gap-6">
          <h2 id="actions" className="text-2xl font-bold">
            Que faire de cette facture ?
          </h2>
          <div className="flex flex-wrap gap-3">
            {invoice.email ? (
              <Form method="post">
                <input type="hidden" name="intent" value="send" />
                <Button type="submit">{invoice.sent ? "Envoyer à nouveau par e-mail" : "Envoyer par e-mail"}</Button>
              </Form>
            ) : (
              <p className="text-lg">Sans e-mail : imprimez le PDF et envoyez-le par la poste.</p>
            )}
            {invoice.email && invoice.overdue ? (
              <Form method="post">
                <input type="hidden" name="intent" value="remind" />
                <Button type="submit" variant="outline">
                  Envoyer un rappel
                </Button>
              </Form>
            ) : null}
          </div>
          <Form method="post" noValidate className="grid gap-4 rounded-2xl border-2 border-gray-200 bg-white p-4">
            <h3 className="text-xl font-bold">Paiement reçu</h3>
            <input type="hidden" name="intent" value="paid" />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field field={field("paidOn")} label="Payée le">
                <Input
                  id="paid-paidOn"
                  name="paidOn"
                  type="date"
                  defaultValue={invoice.today}
                  max={invoice.today}
                  {...aria("paidOn")}
                />
              </Field>
              <Field field={field("paidBy")} label="Comment">
                <Select id="paid-paidBy" name="paidBy" defaultValue="virement" {...aria("paidBy")}>
                  {Object.entries(PAYMENT_METHODS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </Select>
              </Field>
            </div>
            <Button type="submit" className="sm:justify-self-start">
              Marquer comme payée
            </Button>
          </Form>
          <Form method="post" className="flex flex-col gap-3 rounded-2xl border-2 border-red-800 p-4">
            <input type="hidden" name="intent" value="cancel" />
            <Checkbox
              id="confirm-cancel"
              name="confirm"
              value="oui"
              label="Je confirme : la facture est annulée et garde son numéro ; elle ne peut plus être payée ni envoyée."
            />
            <Button type="submit" variant="outline" className="border-red-800 text-red-800 sm:self-start">
              Annuler la facture
            </Button>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
