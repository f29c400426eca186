/**
 * `/admin/devis/:id`: one quote: the organisation, the planned session,
 * lines, total, dates and state (brouillon, envoyé, accepté, refusé,
 * expiré: the injected clock), the PDF (`/admin/devis/:id/devis.pdf`),
 * and what the owner does with it, each a plain post (`intent`): `send`,
 * `posted` (a draft printed for the post), `accept`, `refuse`, `session` (the closed group's session, its link page
 * mailed), `participants` (the list, once the session is made) and
 * `invoice` (« Faire la facture »). One function per intent:
 * app/quotes/desk-actions.server.ts.
 */
import { data, Link, useActionData, useLoaderData } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { clockContext, dbContext } from "~/context.server";
import { DeskBackLink, deskLinkClass } from "~/desk/frame";
import { ClientCard } from "~/invoices/client-card";
import { Notice } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { LineList } from "~/invoices/line-list";
import { idParam } from "~/desk/route-params.server";
import { readFormData } from "~/guards/body.server";
import { formatCentimes, lineCentimes } from "~/invoices/invoices.server";
import {
  acceptQuoteIntent,
  groupSessionIntent,
  participantsIntent,
  postedQuoteIntent,
  quoteInvoiceIntent,
  refuseQuoteIntent,
  sendQuoteIntent,
  unknownQuoteIntent,
} from "~/quotes/desk-actions.server";
import { nameFieldCount } from "~/quotes/group.server";
import { ParticipantsForm } from "~/quotes/participants-form";
import { QuoteActions } from "~/quotes/quote-actions";
import { getQuote, QUOTE_STATE_LABELS, quoteAddressLines, quoteCourseTitle, quoteState } from "~/quotes/quotes.server";
import { formatDate, formatDateTime, isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/quote";

export const handle = deskHandle;

export async function loader({ context, params }: Route.LoaderArgs) {
  const quote = await getQuote(context.get(dbContext), idParam(params.id));
  if (!quote) throw data(null, { status: 404 });
  const state = quoteState(quote, isoDateInZurich(context.get(clockContext).now()));
  return {
    id: quote.id,
    number: quote.number,
    state,
    stateLabel: QUOTE_STATE_LABELS[state],
    address: quoteAddressLines(quote),
    email: quote.email,
    phone: quote.phone,
    contactId: quote.contactId,
    course: quoteCourseTitle(quote),
    when: formatDateTime(quote.startsAt),
    place: `${quote.placeName}, ${quote.placeAddress}`,
    groupSize: quote.groupSize,
    lines: quote.lines.map((line) => ({
      label: line.label,
      quantity: String(line.quantity),
      unit: formatCentimes(line.unitCentimes),
      amount: formatCentimes(lineCentimes(line)),
    })),
    total: formatCentimes(quote.totalCentimes),
    issued: formatDate(quote.issuedOn),
    validUntil: formatDate(quote.validUntil),
    sent: quote.sentAt ? formatDateTime(quote.sentAt) : null,
    sessionId: quote.sessionId,
    invoiceId: quote.invoiceId,
    participants: quote.participants,
    nameFields: nameFieldCount(quote),
  };
}

export const meta: Route.MetaFunction = ({ data: loaded }) =>
  deskMeta(loaded ? `Devis n° ${loaded.number}` : "Devis introuvable");

export async function action({ request, context, params }: Route.ActionArgs) {
  const args = { form: await readFormData(request, 16 * 1024), context, id: idParam(params.id) };
  switch (args.form.get("intent")) {
    case "send":
      return sendQuoteIntent(args);
    case "posted":
      return postedQuoteIntent(args);
    case "accept":
      return acceptQuoteIntent(args);
    case "refuse":
      return refuseQuoteIntent(args);
    case "session":
      return groupSessionIntent(args);
    case "participants":
      return participantsIntent(args);
    case "invoice":
      return quoteInvoiceIntent(args);
    default:
      return unknownQuoteIntent();
  }
}

export default function QuotePage() {
  const quote = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <DeskBackLink to="/admin/devis">Tous les devis</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">Devis n° {quote.number}</h1>
      <p className="mt-2 text-xl font-semibold">{quote.stateLabel}</p>
      {answer ? (
        <Notice tone={answer.tone} className="mt-4">
          {answer.message}
        </Notice>
      ) : null}
      <p className="mt-4 flex flex-wrap gap-3">
        <a href={`/admin/devis/${quote.id}/devis.pdf`} className={buttonVariants()}>
          Voir et imprimer le PDF
        </a>
      </p>

      <ClientCard
        id="organisation"
        heading="Organisation"
        address={quote.address}
        email={quote.email}
        phone={quote.phone}
        contactId={quote.contactId}
      />

      <section aria-labelledby="seance" className="mt-8">
        <h2 id="seance" className="text-2xl font-bold">
          La séance
        </h2>
        <dl className="mt-3 grid gap-1 text-lg sm:grid-cols-[12rem_1fr]">
          <dt className="font-semibold">Cours ou atelier</dt>
          <dd>{quote.course}</dd>
          <dt className="font-semibold">Quand</dt>
          <dd>{quote.when}</dd>
          <dt className="font-semibold">Lieu</dt>
          <dd className="break-words">{quote.place}</dd>
          <dt className="font-semibold">Groupe</dt>
          <dd>{quote.groupSize ? `${quote.groupSize} personnes` : "non précisé"}</dd>
        </dl>
        {quote.sessionId ? (
          <p className="mt-2 text-lg">
            <Link to={`/admin/cours/${quote.sessionId}`} className={deskLinkClass}>
              La séance du groupe (fermée)
            </Link>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="lignes" className="mt-8">
        <h2 id="lignes" className="text-2xl font-bold">
          Lignes
        </h2>
        <LineList lines={quote.lines} total={quote.total} />
        <dl className="mt-3 grid gap-1 text-lg sm:grid-cols-[12rem_1fr]">
          <dt className="font-semibold">Date</dt>
          <dd>{quote.issued}</dd>
          <dt className="font-semibold">Valable jusqu’au</dt>
          <dd>{quote.validUntil}</dd>
          <dt className="font-semibold">Envoyé par e-mail</dt>
          <dd>{quote.sent ?? "pas encore"}</dd>
        </dl>
      </section>

      <QuoteActions quote={quote} />

      {quote.sessionId ? (
        <section aria-labelledby="participants" className="mt-10">
          <h2 id="participants" className="text-2xl font-bold">
            Participants ({quote.participants.length})
          </h2>
          <ParticipantsForm names={quote.participants} fields={quote.nameFields} />
        </section>
      ) : null}
    </div>
  );
}
