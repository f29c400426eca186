/**
 * `/admin/devis/:id/modifier`: a draft quote edited (decision 058): the
 * form that made it (app/quotes/quote-form.tsx), filled from the quote.
 * The post (Conform + zod, app/quotes/form.server.ts) rewrites the draft,
 * keeping its number (`updateDraftQuote`), audits it (ids only) and goes
 * back to its page; bad input: each French message beside its field (400).
 * A quote sent or decided is frozen: the page says so, without the form,
 * and a post is refused (409) and changes nothing.
 */
import { data, redirect, useActionData, useLoaderData } from "react-router";
import { courses } from "~/content/courses";
import { dbContext, loggerContext, ownerContext } from "~/context.server";
import { audit } from "~/desk/audit.server";
import { DeskBackLink } from "~/desk/frame";
import { Notice } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { idParam } from "~/desk/route-params.server";
import { readFormData } from "~/guards/body.server";
import { INVOICE_FORM_LINES } from "~/invoices/form.server";
import { quoteFormValues, updateDraftQuote } from "~/quotes/edit.server";
import { readQuoteForm } from "~/quotes/form.server";
import { QuoteForm } from "~/quotes/quote-form";
import { getQuote } from "~/quotes/quotes.server";
import type { Route } from "./+types/quote-edit";

export const handle = deskHandle;

export const meta: Route.MetaFunction = ({ data: loaded }) =>
  deskMeta(loaded ? `Modifier le devis n° ${loaded.number}` : "Devis introuvable");

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const quote = await getQuote(context.get(dbContext), id);
  if (!quote) throw data(null, { status: 404 });
  return {
    id,
    number: quote.number,
    frozen: quote.status !== "draft",
    values: quoteFormValues(quote),
    lines: INVOICE_FORM_LINES,
    courses: courses.map((course) => ({ id: course.id, title: course.title })),
  };
}

/** What the page says of a quote no longer a draft. */
const FROZEN = "Ce devis est déjà envoyé : il ne se modifie plus. Faites-en un nouveau si besoin.";

/** The page's answer to a refused post. */
const refused = (message: string, status: number, errors = {}, values = {}) =>
  data({ message, errors, values }, { status });

export async function action({ request, context, params }: Route.ActionArgs) {
  const id = idParam(params.id);
  const form = await readFormData(request, 64 * 1024);
  const result = readQuoteForm(form);
  if (!result.ok)
    return refused(
      "Le devis n’est pas modifié : corrigez les champs signalés ci-dessous.",
      400,
      result.errors,
      result.values,
    );
  const db = context.get(dbContext);
  const outcome = await updateDraftQuote(db, id, result.value);
  if (outcome === "not-found") throw data(null, { status: 404 });
  if (outcome === "not-draft") return refused(FROZEN, 409);
  if (outcome === "other-year") {
    const year = (await getQuote(db, id))!.year;
    const message = `La date du devis reste en ${year}, l’année de son numéro. Pour une autre année, faites un nouveau devis.`;
    const typed = Object.fromEntries([...form.entries()].map(([name, value]) => [name, String(value)]));
    return refused(
      "Le devis n’est pas modifié : corrigez les champs signalés ci-dessous.",
      400,
      { issuedOn: message },
      typed,
    );
  }
  await audit(
    db,
    { actor: context.get(ownerContext).userId, action: "quote-edited", details: { quote: id } },
    context.get(loggerContext),
  );
  throw redirect(`/admin/devis/${id}`, 303);
}

export default function EditQuotePage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <DeskBackLink to={`/admin/devis/${page.id}`}>Retour au devis</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">Modifier le devis n° {page.number}</h1>
      <p className="mt-2 text-lg">Un brouillon se modifie tant qu’il n’est pas envoyé ; il garde son numéro.</p>
      {answer?.message || page.frozen ? (
        <Notice tone="alert" className="mt-4">
          {answer?.message ?? FROZEN}
        </Notice>
      ) : null}
      {page.frozen ? null : (
        <QuoteForm
          values={answer && Object.keys(answer.values).length ? answer.values : page.values}
          errors={answer?.errors}
          lines={page.lines}
          courses={page.courses}
          submit="Enregistrer le brouillon"
        />
      )}
    </div>
  );
}
