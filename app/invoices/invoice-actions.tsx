/**
 * What the owner does with an open invoice, on its desk page
 * (`/admin/factures/:id`), each a plain post of `intent`: `send` (or
 * "print it" without an e-mail), `remind` (overdue only), `paid` (date,
 * at most `today`, and how) and `cancel` (a box to tick first). `errors`
 * are the payment form's French messages by field.
 */
import { Form } from "react-router";
import { Field } from "~/components/form-parts";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { PAYMENT_METHODS } from "./words";

export function InvoiceActions({
  invoice,
  errors,
}: {
  invoice: { email: string | null; sent: string | null; overdue: boolean; today: string };
  errors: Record<string, string>;
}) {
  const field = (name: string) => ({
    id: `paid-${name}`,
    errorId: `paid-${name}-error`,
    errors: errors[name] ? [errors[name]] : undefined,
  });
  const aria = (name: string) =>
    errors[name] ? { "aria-invalid": true, "aria-describedby": `paid-${name}-error` } : {};
  return (
    <section aria-labelledby="actions" className="mt-10 grid gap-6">
      <h2 id="actions" className="text-2xl font-bold">
        Que faire de cette facture ?
      </h2>
      <div className="flex flex-wrap gap-3">
        {invoice.email ? (
          <Form method="post" className="grid gap-2">
            <input type="hidden" name="intent" value="send" />
            {invoice.sent ? (
              <Checkbox
                id="resend"
                name="resend"
                value="oui"
                label={`Oui, l’envoyer encore (déjà envoyée le ${invoice.sent})`}
              />
            ) : null}
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
  );
}
