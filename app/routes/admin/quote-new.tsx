/**
 * `/admin/devis/nouveau`: a new quote, started from a group's contact
 * request (`?demande={id}`: the organisation, its contact person, e-mail,
 * telephone, commune and group size) or from scratch. The post (Conform +
 * zod, app/quotes/form.server.ts) writes it as a draft with the next number
 * of its year (`createQuote`), audits it (ids only) and opens its page; bad
 * input gets each French message beside its field (400). Without
 * INVOICE_IBAN: « IBAN manquant », no form (its invoice could not be made).
 */
import { data, redirect, useActionData, useLoaderData } from "react-router";
import { courses } from "~/content/courses";
import { clockContext, dbContext, loggerContext, ownerContext } from "~/context.server";
import { audit } from "~/desk/audit.server";
import { DeskBackLink } from "~/desk/frame";
import { Notice } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { readFormData } from "~/guards/body.server";
import { invoiceCreditor } from "~/invoices/creditor.server";
import { INVOICE_FORM_LINES } from "~/invoices/form.server";
import { IbanMissing } from "~/invoices/iban-missing";
import { readQuoteForm } from "~/quotes/form.server";
import { QuoteForm } from "~/quotes/quote-form";
import { createQuote, quoteStart } from "~/quotes/quotes.server";
import { isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/quote-new";

export const handle = deskHandle;

export const meta: Route.MetaFunction = () => deskMeta("Nouveau devis");

export async function loader({ request, context }: Route.LoaderArgs) {
  const asked = Number(new URL(request.url).searchParams.get("demande"));
  const start = await quoteStart(
    context.get(dbContext),
    Number.isSafeInteger(asked) && asked > 0 ? asked : undefined,
    isoDateInZurich(context.get(clockContext).now()),
  );
  return {
    ...start,
    ibanMissing: !(await invoiceCreditor(context)).ok,
    lines: INVOICE_FORM_LINES,
    courses: courses.map((course) => ({ id: course.id, title: course.title })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const creditor = await invoiceCreditor(context);
  if (!creditor.ok) return data({ errors: {}, values: {}, message: "IBAN manquant." }, { status: 409 });
  const result = readQuoteForm(await readFormData(request, 64 * 1024));
  if (!result.ok)
    return data(
      {
        errors: result.errors,
        values: result.values,
        message: "Le devis n’est pas créé : corrigez les champs signalés ci-dessous.",
      },
      { status: 400 },
    );
  const id = await createQuote(context.get(dbContext), result.value, creditor.creditor);
  await audit(
    context.get(dbContext),
    {
      actor: context.get(ownerContext).userId,
      action: "quote-created",
      details: { quote: id, ...(result.value.contactId ? { contact: result.value.contactId } : {}) },
    },
    context.get(loggerContext),
  );
  throw redirect(`/admin/devis/${id}`, 303);
}

export default function NewQuotePage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <DeskBackLink to="/admin/devis">Tous les devis</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">Nouveau devis</h1>
      {page.from ? <p className="mt-2 text-lg">D’après : {page.from}</p> : null}
      {answer?.message ? (
        <Notice tone="alert" className="mt-4">
          {answer.message}
        </Notice>
      ) : null}
      {page.ibanMissing ? (
        <IbanMissing />
      ) : (
        <QuoteForm
          values={answer?.values ?? page.values}
          errors={answer?.errors}
          lines={page.lines}
          courses={page.courses}
        />
      )}
    </div>
  );
}
