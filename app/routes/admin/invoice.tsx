/**
 * `/admin/factures/:id`: one invoice: its client, lines, total, dates,
 * reference and state, and what the owner does with it, each a plain post
 * (`intent`): `send` (by mail, the PDF attached, to the client's e-mail),
 * `remind` (a reminder mail, only for an overdue open invoice: the owner's
 * click, never automatic), `paid` (date and how: virement, TWINT, espèces),
 * `cancel` (a box to tick first; the invoice keeps its number). The PDF
 * opens at `/admin/factures/:id/facture.pdf` (to print for the post). Every
 * change is audited (ids only). One function per intent:
 * app/invoices/desk-actions.server.ts.
 */
import { data, useActionData, useLoaderData } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { DeskBackLink } from "~/desk/frame";
import { ClientCard } from "~/invoices/client-card";
import { Notice } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { LineList } from "~/invoices/line-list";
import { idParam } from "~/desk/route-params.server";
import { readFormData } from "~/guards/body.server";
import {
  clientAddressLines,
  formatCentimes,
  getInvoice,
  INVOICE_STATUS_LABELS,
  isOverdue,
  lineCentimes,
  todayInZurich,
} from "~/invoices/invoices.server";
import { InvoiceActions } from "~/invoices/invoice-actions";
import { PAYMENT_METHODS, type PaymentMethod } from "~/invoices/words";
import { formatDate, formatDateTime } from "~/utils/format";
import type { Route } from "./+types/invoice";
import { dbContext } from "~/context.server";
import {
  cancelInvoiceIntent,
  markPaidIntent,
  remindIntent,
  sendInvoiceIntent,
  unknownInvoiceIntent,
} from "~/invoices/desk-actions.server";

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

export async function action({ request, context, params }: Route.ActionArgs) {
  const args = { form: await readFormData(request, 16 * 1024), context, id: idParam(params.id) };
  switch (args.form.get("intent")) {
    case "send":
      return sendInvoiceIntent(args);
    case "remind":
      return remindIntent(args);
    case "paid":
      return markPaidIntent(args);
    case "cancel":
      return cancelInvoiceIntent(args);
    default:
      return unknownInvoiceIntent();
  }
}

export default function InvoicePage() {
  const invoice = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const errors = answer && "errors" in answer ? (answer.errors ?? {}) : {};
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

      <ClientCard
        id="client"
        heading="Client"
        address={invoice.address}
        email={invoice.email}
        phone={invoice.phone}
        contactId={invoice.contactId}
      >
        {invoice.registrationId ? (
          <p className="mt-1 text-lg">D’après l’inscription n° {invoice.registrationId}.</p>
        ) : null}
      </ClientCard>

      <section aria-labelledby="lignes" className="mt-8">
        <h2 id="lignes" className="text-2xl font-bold">
          Lignes
        </h2>
        <LineList lines={invoice.lines} total={invoice.total} />
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

      {open ? <InvoiceActions invoice={invoice} errors={errors} /> : null}
    </div>
  );
}
