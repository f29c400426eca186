/**
 * `/admin/factures/nouvelle`: a new invoice, from scratch or started from a
 * registration booked « sur facture » (`?inscription={id}`: the attendee at
 * the postal address given, and a line for the course at its price; a
 * registration paid « sur place » is refused, on the page and on the post,
 * with why in French) or a contact request (`?demande={id}`: the person or
 * organisation). The post writes it with the next number of its year
 * (`createInvoice`), audits it (ids only) and opens its page. Without
 * INVOICE_IBAN: « IBAN manquant », no form.
 */
import { data, redirect, useActionData, useLoaderData } from "react-router";
import { audit } from "~/desk/audit.server";
import { DeskBackLink } from "~/desk/frame";
import { Notice } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { readFormData } from "~/guards/body.server";
import { invoiceCreditor } from "~/invoices/creditor.server";
import { IbanMissing } from "~/invoices/iban-missing";
import { INVOICE_FORM_LINES, readInvoiceForm } from "~/invoices/form.server";
import { InvoiceForm } from "~/invoices/invoice-form";
import { draftStart, invoiceRefusal } from "~/invoices/draft-start.server";
import { createInvoice, todayInZurich } from "~/invoices/invoices.server";
import type { Route } from "./+types/invoice-new";
import { dbContext, loggerContext, ownerContext } from "~/context.server";

export const handle = deskHandle;

export const meta: Route.MetaFunction = () => deskMeta("Nouvelle facture");

/** A positive whole number of the query string, or undefined. */
const idOf = (value: string | null) => {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const start = await draftStart(
    context.get(dbContext),
    { registration: idOf(query.get("inscription")), contact: idOf(query.get("demande")) },
    todayInZurich(),
  );
  return { ...start, ibanMissing: !(await invoiceCreditor(context)).ok, lines: INVOICE_FORM_LINES };
}

export async function action({ request, context }: Route.ActionArgs) {
  const owner = context.get(ownerContext);
  const creditor = await invoiceCreditor(context);
  if (!creditor.ok) return data({ errors: {}, values: {}, message: "IBAN manquant.", refused: false }, { status: 409 });
  const result = readInvoiceForm(await readFormData(request, 64 * 1024));
  // The same refusal as the page's, for a post that names a registration paid « sur place ».
  const refused =
    result.ok && result.draft.registrationId
      ? await invoiceRefusal(context.get(dbContext), result.draft.registrationId)
      : null;
  if (refused) return data({ errors: {}, values: {}, message: refused, refused: true }, { status: 409 });
  if (!result.ok) {
    return data(
      {
        errors: result.errors,
        values: result.values,
        message: "La facture n’est pas créée : corrigez les champs signalés ci-dessous.",
        refused: false,
      },
      { status: 400 },
    );
  }
  const id = await createInvoice(context.get(dbContext), result.draft, creditor.creditor);
  await audit(
    context.get(dbContext),
    {
      actor: owner.userId,
      action: "invoice-created",
      details: {
        invoice: id,
        ...(result.draft.registrationId ? { registration: result.draft.registrationId } : {}),
        ...(result.draft.contactId ? { contact: result.draft.contactId } : {}),
      },
    },
    context.get(loggerContext),
  );
  throw redirect(`/admin/factures/${id}`, 303);
}

export default function NewInvoicePage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <DeskBackLink to="/admin/factures">Toutes les factures</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">Nouvelle facture</h1>
      {page.from ? <p className="mt-2 text-lg">D’après : {page.from}</p> : null}
      {answer?.message && !answer.refused ? (
        <Notice tone="alert" className="mt-4">
          {answer.message}
        </Notice>
      ) : null}
      {page.refused || answer?.refused ? (
        <Notice tone="alert" className="mt-4">
          {page.refused ?? answer?.message}
        </Notice>
      ) : page.ibanMissing ? (
        <IbanMissing />
      ) : (
        <InvoiceForm values={answer?.values ?? page.values} errors={answer?.errors} lines={page.lines} />
      )}
    </div>
  );
}
