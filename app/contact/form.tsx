/**
 * The contact request form (spec section 2 "Contact dialog", section 5),
 * shared by the dialog and the `/contact` page. Conform wires the shared
 * zod schema (`app/contact/schema.ts`) as every public form does
 * (`usePublicForm`): the browser checks on submit, then again at each
 * keystroke in a field already checked; the server's answer (`lastResult`)
 * shows its errors the same way, also without JavaScript.
 * Each error sits under its field (`aria-invalid`, `aria-describedby`),
 * and the error summary at the top takes the focus. The form keeps `noValidate`
 * so the French messages show rather than the browser's.
 *
 * The error summary (`ErrorSummary`) opens the form when a submission has
 * errors. "Conférence ou atelier pour un groupe" asks for the organisation,
 * the commune and the group's size: without JavaScript these fields are
 * always shown, under a heading that says they are for groups; with
 * JavaScript, only once that service is chosen (or when they have errors).
 *
 * The caller passes the form element: `fetcher.Form` in the dialog (no page
 * change), React Router's `Form` on the page (a normal post without
 * JavaScript).
 */
import { getFormProps, getInputProps, getSelectProps, type SubmissionResult } from "@conform-to/react";
import type { ComponentType, RefAttributes } from "react";
import type { FetcherFormProps } from "react-router";
import { contactSchema, GROUP_SERVICE, HONEYPOT_FIELD, serviceChoices } from "./schema";
import { brand } from "~/content/brand";
import { cn } from "~/utils/cn";
import { useHydrated } from "~/utils/use-hydrated";
import { usePublicForm } from "~/utils/use-public-form";
import { InputField, TextareaField } from "~/components/conform-fields";
import { ErrorSummary, summaryErrors } from "~/components/error-summary";
import { Field, FormErrors, Honeypot, PendingLabel } from "~/components/form-parts";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Select } from "~/components/ui/select";

/** `fetcher.Form` or React Router's `Form`. */
export type FormElement = ComponentType<FetcherFormProps & RefAttributes<HTMLFormElement>>;

/** A field's submitted value as one string: a repeated field (a list) gives the empty choice. */
const scalar = (value: unknown): string => (typeof value === "string" ? value : "");

export function ContactForm({
  id,
  as: FormComponent,
  lastResult,
  pending = false,
  onCancel,
  className,
}: {
  /** Form id, also the prefix of every field id: unique on the page. */
  id: string;
  as: FormElement;
  /** The `/contact` action's `result`, when there is one. */
  lastResult?: SubmissionResult<string[]> | null;
  /** A submission is on its way: "Envoyer" shows "Envoi…". */
  pending?: boolean;
  /** Shows "Annuler" (the dialog's), which calls this. */
  onCancel?: () => void;
  className?: string;
}) {
  const { form, fields, onSubmit, summaryKey } = usePublicForm({ schema: contactSchema, id, lastResult, pending });
  const hydrated = useHydrated();
  const groupErrors = Boolean(fields.organisation.errors || fields.commune.errors || fields.groupSize.errors);
  const showGroup = !hydrated || fields.service.value === GROUP_SERVICE || groupErrors;

  return (
    <FormComponent
      method="post"
      action="/contact"
      {...getFormProps(form)}
      onSubmit={onSubmit}
      noValidate
      className={cn("flex flex-col gap-5", className)}
    >
      <ErrorSummary
        id={`${form.id}-summary`}
        focusKey={summaryKey}
        errors={summaryErrors([
          fields.firstName,
          fields.lastName,
          fields.email,
          fields.phone,
          fields.service,
          fields.organisation,
          fields.commune,
          fields.groupSize,
          fields.message,
        ])}
      />

      <p className="text-lg text-muted">
        Tous les champs sont obligatoires, sauf ceux marqués «&nbsp;facultatif&nbsp;».
      </p>

      {/* One column everywhere: one thing at a time, in reading order. */}
      <InputField field={fields.firstName} label="Prénom" autoComplete="given-name" />
      <InputField field={fields.lastName} label="Nom" autoComplete="family-name" />
      <InputField field={fields.email} label="Adresse e-mail" type="email" autoComplete="email" />
      <InputField
        field={fields.phone}
        label="Téléphone"
        hint={"Fixe ou mobile, par exemple\u00a0+41\u00a079\u00a0123\u00a045\u00a067."}
        type="tel"
        autoComplete="tel"
        placeholder="+41 XX XXX XX XX"
      />

      <Field field={fields.service} label="Service souhaité">
        <Select
          {...getSelectProps(fields.service)}
          // A tampered post may send the field twice: a single choice takes one value only.
          defaultValue={scalar(fields.service.initialValue)}
          key={fields.service.key}
        >
          <option value="">Choisissez un service</option>
          {serviceChoices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </Select>
      </Field>

      {showGroup ? (
        <fieldset className="flex min-w-0 flex-col gap-5 rounded-2xl border-2 border-line p-4">
          <legend className="px-1 text-xl font-bold text-ink">Pour une conférence ou un atelier de groupe</legend>
          {hydrated ? null : (
            <p className="text-lg text-muted">
              À remplir seulement si vous avez choisi «&nbsp;Conférence ou atelier pour un groupe&nbsp;».
            </p>
          )}
          <InputField
            field={fields.organisation}
            label="Association, club ou organisation"
            autoComplete="organization"
          />
          <InputField field={fields.commune} label="Commune" hint="Où aurait lieu la rencontre." />
          <InputField
            field={fields.groupSize}
            label="Nombre de personnes"
            hint={"Environ, en chiffres, par exemple\u00a025."}
            inputMode="numeric"
          />
        </fieldset>
      ) : null}

      <TextareaField
        field={fields.message}
        label="Message (facultatif)"
        hint={"Votre question, l’appareil concerné, vos disponibilités\u00a0: tout ce qui m’aide à bien vous répondre."}
        rows={5}
      />

      <Checkbox
        {...getInputProps(fields.newsletterConsent, { type: "checkbox" })}
        key={fields.newsletterConsent.key}
        id={fields.newsletterConsent.id}
        label="Je souhaite recevoir la lettre d’information mensuelle (conseils pratiques et mises en garde contre les arnaques)."
      />

      <p className="rounded-2xl bg-primary-soft/60 p-4 text-lg text-ink">
        En envoyant ce formulaire, vous acceptez d’être recontacté(e) par {brand.line1} {brand.line2} au sujet de votre
        demande. Vos données sont traitées selon la loi suisse sur la protection des données et ne sont transmises à
        personne, sauf aux prestataires techniques nommés dans la{" "}
        <a href="/confidentialite" className="font-semibold text-primary underline underline-offset-4">
          politique de confidentialité
        </a>
        .
      </p>

      <Honeypot formId={form.id} name={HONEYPOT_FIELD} />
      <FormErrors id={form.errorId} errors={form.errors} />

      <div className="flex flex-col-reverse gap-3 min-[400px]:flex-row min-[400px]:justify-end">
        {onCancel ? (
          <Button type="button" variant="outline" onClick={onCancel}>
            Annuler
          </Button>
        ) : null}
        <Button type="submit" aria-disabled={pending || undefined} className="min-w-[min(9rem,100%)]">
          <PendingLabel pending={pending} label="Envoyer" />
        </Button>
      </div>
    </FormComponent>
  );
}
