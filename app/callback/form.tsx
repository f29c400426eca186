/**
 * The callback request form (`/rappel`, issue 23 item 1): first name, last
 * name, telephone, the half-days that suit (several), an optional short
 * message; no e-mail. Built like every public form (`usePublicForm`: Conform
 * and the zod schema the server uses too), a plain post to `/rappel` that
 * works without JavaScript; errors under their field, the first one focused.
 */
import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { brand } from "~/content/brand";
import { InputField, TextareaField } from "~/components/conform-fields";
import { ErrorSummary, summaryErrors } from "~/components/error-summary";
import { FieldError, FormErrors, Honeypot, PendingLabel } from "~/components/form-parts";
import { Button } from "~/components/ui/button";
import { HONEYPOT_FIELD } from "~/contact/schema";
import { cn } from "~/utils/cn";
import { usePublicForm } from "~/utils/use-public-form";
import { callbackSchema } from "./schema";
import { HALF_DAYS } from "~/contact/half-days";

const checkClass =
  "mt-0.5 size-7 shrink-0 accent-primary focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary";
const choiceClass =
  "flex min-h-12 cursor-pointer items-start gap-3 rounded-2xl border-2 border-line bg-white p-3 text-lg has-[:checked]:border-primary has-[:checked]:bg-primary-soft/60";

export function CallbackForm({
  lastResult,
  pending,
  className,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  pending: boolean;
  className?: string;
}) {
  const { form, fields, onSubmit, summaryKey } = usePublicForm({
    schema: callbackSchema,
    id: "callback-form",
    lastResult,
    pending,
  });
  const halfDays = fields.halfDays;
  const chosen = new Set(
    Array.isArray(halfDays.initialValue) ? halfDays.initialValue : halfDays.initialValue ? [halfDays.initialValue] : [],
  );

  return (
    <Form
      method="post"
      action="/rappel"
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
          fields.phone,
          // The group's first checkbox (its ids are `{id}-{value}`).
          { id: `${halfDays.id}-${HALF_DAYS[0]!.value}`, errors: halfDays.errors },
          fields.message,
        ])}
      />
      <p className="text-lg text-muted">
        Tous les champs sont obligatoires, sauf celui marqué «&nbsp;facultatif&nbsp;». Aucune adresse e-mail n’est
        demandée.
      </p>
      <InputField field={fields.firstName} label="Prénom" autoComplete="given-name" />
      <InputField field={fields.lastName} label="Nom" autoComplete="family-name" />
      <InputField
        field={fields.phone}
        label="Téléphone"
        hint={"Le numéro où je peux vous joindre, fixe ou mobile, par exemple\u00a0079\u00a0123\u00a045\u00a067."}
        type="tel"
        autoComplete="tel"
      />

      <fieldset
        className="flex min-w-0 flex-col gap-3"
        aria-invalid={halfDays.errors ? true : undefined}
        aria-describedby={halfDays.errors ? halfDays.errorId : undefined}
      >
        <legend className="mb-1 text-xl font-bold text-ink">Quand puis-je vous appeler&nbsp;?</legend>
        <p className="text-lg leading-snug text-muted">
          Cochez toutes les demi-journées qui vous conviennent&nbsp;: j’appelle pendant mes heures d’ouverture.
        </p>
        <div className="grid gap-2 min-[480px]:grid-cols-2">
          {HALF_DAYS.map((halfDay) => (
            <label key={halfDay.value} className={choiceClass}>
              <input
                {...getInputProps(halfDays, { type: "checkbox", value: halfDay.value })}
                key={`${halfDays.key}-${halfDay.value}`}
                id={`${halfDays.id}-${halfDay.value}`}
                defaultChecked={chosen.has(halfDay.value)}
                // Conform marks a list as `multiple` and `required`: neither belongs on a checkbox (zod checks).
                required={undefined}
                multiple={undefined}
                className={checkClass}
              />
              <span>{halfDay.label}</span>
            </label>
          ))}
        </div>
        <FieldError id={halfDays.errorId} errors={halfDays.errors} />
      </fieldset>

      <TextareaField
        field={fields.message}
        label="Message (facultatif)"
        hint="En quelques mots, le sujet de l’appel : votre appareil, votre question."
        rows={3}
      />

      <p className="rounded-2xl bg-primary-soft/60 p-4 text-lg text-ink">
        En envoyant ce formulaire, vous acceptez d’être appelé(e) par {brand.line1} {brand.line2} au sujet de votre
        demande. Vos données sont traitées selon la loi suisse sur la protection des données (voir la{" "}
        <a href="/confidentialite" className="font-semibold text-primary underline underline-offset-4">
          politique de confidentialité
        </a>
        ).
      </p>

      <Honeypot formId={form.id} name={HONEYPOT_FIELD} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="flex justify-end">
        <Button type="submit" aria-disabled={pending || undefined} className="w-full min-[400px]:w-auto">
          <PendingLabel pending={pending} label="Demander un appel" />
        </Button>
      </div>
    </Form>
  );
}
