/**
 * What the owner does with a quote on its desk page (`/admin/devis/:id`),
 * each a plain post of `intent`, by state: a draft is edited (its own
 * page, « Modifier le brouillon »); a draft or a sent quote leaves
 * by mail (`send`; again with a box ticked), a draft without e-mail by the
 * post (`posted`, once printed); a sent quote is accepted or
 * refused (`accept`, `refuse`); an accepted one makes its closed session
 * (`session`) and its invoice (`invoice`, « Faire la facture »).
 */
import { Form, Link } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import type { QuoteState } from "./quotes.server";

/** One button posting `intent`. */
function IntentButton({ intent, label, outline }: { intent: string; label: string; outline?: boolean }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" variant={outline ? "outline" : "primary"}>
        {label}
      </Button>
    </Form>
  );
}

export function QuoteActions({
  quote,
}: {
  quote: {
    id: number;
    state: QuoteState;
    email: string | null;
    sent: string | null;
    sessionId: number | null;
    invoiceId: number | null;
  };
}) {
  const { state } = quote;
  return (
    <section aria-labelledby="actions" className="mt-10 grid gap-4">
      <h2 id="actions" className="text-2xl font-bold">
        Que faire de ce devis ?
      </h2>
      <div className="flex flex-wrap items-end gap-3">
        {(state === "draft" || state === "sent") && quote.email ? (
          <Form method="post" className="grid gap-2">
            <input type="hidden" name="intent" value="send" />
            {quote.sent ? (
              <Checkbox
                id="resend"
                name="resend"
                value="oui"
                label={`Oui, l’envoyer encore (envoyé le ${quote.sent})`}
              />
            ) : null}
            <Button type="submit">{quote.sent ? "Envoyer à nouveau" : "Envoyer par e-mail"}</Button>
          </Form>
        ) : null}
        {state === "draft" ? (
          <Link to={`/admin/devis/${quote.id}/modifier`} className={buttonVariants({ variant: "outline" })}>
            Modifier le brouillon
          </Link>
        ) : null}
        {state === "draft" && !quote.email ? (
          <>
            <p className="w-full text-lg">
              Sans e-mail : imprimez le PDF et envoyez-le par la poste, puis notez-le ici.
            </p>
            <IntentButton intent="posted" label="Noter envoyé par la poste aujourd’hui" />
          </>
        ) : null}
        {state === "sent" ? <IntentButton intent="accept" label="Accepté par l’organisation" /> : null}
        {state === "sent" ? <IntentButton intent="refuse" label="Refusé" outline /> : null}
        {state === "accepted" && quote.sessionId === null ? (
          <IntentButton intent="session" label="Créer la séance du groupe" />
        ) : null}
        {state === "accepted" || quote.invoiceId !== null ? (
          <IntentButton intent="invoice" label={quote.invoiceId ? "Voir la facture" : "Faire la facture"} outline />
        ) : null}
      </div>
      {state === "expired" ? (
        <p className="text-lg">
          Ce devis a expiré. Faites-en un nouveau depuis la demande si l’organisation le souhaite.
        </p>
      ) : null}
    </section>
  );
}
