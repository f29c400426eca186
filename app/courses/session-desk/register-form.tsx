/**
 * The session page's "Inscription prise par téléphone": first name, last
 * name, telephone, e-mail (optional), whether the person agreed to an SMS
 * reminder, and seats, posted as
 * `intent=register` (the public booking schema); `errors` are the
 * action's messages by field name. A session paid by invoice asks the
 * postal address (« au choix »: first « Sur place » or « Sur facture »).
 */
import { Form } from "react-router";
import { Field } from "~/components/form-parts";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { PAYS_BY_LABELS, type PaymentMode } from "~/content/payment";

export function RegisterByPhoneForm({
  sessionId,
  errors,
  payment,
}: {
  sessionId: number;
  errors?: Partial<Record<string, string[]>>;
  /** How the session is paid. */
  payment: PaymentMode;
}) {
  const registerField = (name: string) => ({
    id: `register-${name}`,
    errorId: `register-${name}-error`,
    errors: errors?.[name],
  });
  const registerAria = (name: string) =>
    errors?.[name] ? { "aria-invalid": true, "aria-describedby": `register-${name}-error` } : {};
  return (
    <Form method="post" noValidate className="mt-4 grid gap-4 rounded-2xl border-2 border-gray-200 bg-white p-5">
      <input type="hidden" name="intent" value="register" />
      <input type="hidden" name="sessionId" value={sessionId} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field field={registerField("firstName")} label="Prénom">
          <Input id="register-firstName" name="firstName" {...registerAria("firstName")} />
        </Field>
        <Field field={registerField("lastName")} label="Nom">
          <Input id="register-lastName" name="lastName" {...registerAria("lastName")} />
        </Field>
        <Field field={registerField("phone")} label="Téléphone">
          <Input id="register-phone" name="phone" type="tel" {...registerAria("phone")} />
        </Field>
        <Field field={registerField("email")} label="E-mail (facultatif)">
          <Input id="register-email" name="email" type="email" {...registerAria("email")} />
        </Field>
      </div>
      <Checkbox
        id="register-smsConsent"
        name="smsConsent"
        value="on"
        label="La personne accepte de recevoir un rappel par SMS (sur un mobile)"
      />
      <Field field={registerField("seats")} label="Places">
        <select
          id="register-seats"
          name="seats"
          defaultValue="1"
          className="block min-h-12 w-32 rounded-xl border-2 border-gray-500 bg-white px-3 text-lg"
          {...registerAria("seats")}
        >
          <option value="1">1</option>
          <option value="2">2</option>
        </select>
      </Field>
      {payment === "au-choix" ? (
        <Field field={registerField("paysBy")} label="Paiement">
          <select
            id="register-paysBy"
            name="paysBy"
            defaultValue=""
            className="block min-h-12 w-full max-w-xs rounded-xl border-2 border-gray-500 bg-white px-3 text-lg"
            {...registerAria("paysBy")}
          >
            <option value="">Choisissez</option>
            <option value="sur-place">{PAYS_BY_LABELS["sur-place"]}</option>
            <option value="facture">{PAYS_BY_LABELS.facture}</option>
          </select>
        </Field>
      ) : payment === "facture" ? (
        <input type="hidden" name="paysBy" value="facture" />
      ) : null}
      {payment !== "sur-place" ? (
        <div className="grid gap-4 sm:grid-cols-3">
          <Field field={registerField("postalStreet")} label="Rue et numéro (facture)">
            <Input id="register-postalStreet" name="postalStreet" {...registerAria("postalStreet")} />
          </Field>
          <Field field={registerField("postalCode")} label="NPA">
            <Input id="register-postalCode" name="postalCode" inputMode="numeric" {...registerAria("postalCode")} />
          </Field>
          <Field field={registerField("postalLocality")} label="Localité">
            <Input id="register-postalLocality" name="postalLocality" {...registerAria("postalLocality")} />
          </Field>
        </div>
      ) : null}
      <Button type="submit" className="sm:justify-self-start">
        Inscrire
      </Button>
    </Form>
  );
}
