/**
 * The session page's "Inscription prise par téléphone": first name, last
 * name, telephone, e-mail (optional) and seats, posted as
 * `intent=register` (the public booking schema); `errors` are the
 * action's messages by field name.
 */
import { Form } from "react-router";
import { Field } from "~/components/form-parts";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";

export function RegisterByPhoneForm({
  sessionId,
  errors,
}: {
  sessionId: number;
  errors?: Partial<Record<string, string[]>>;
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
      <Button type="submit" className="sm:justify-self-start">
        Inscrire
      </Button>
    </Form>
  );
}
