/**
 * The registration form of `/cours/{slug}`: the date (one radio per
 * session, or per series with all its dates, with its places left or
 * "Complet : liste d'attente"), the
 * attendee's first name, last name, telephone and optional e-mail, 1 or 2
 * places, "J'inscris un proche" (a `<details>` disclosure: it opens without
 * JavaScript) with the registrant's own fields, and an optional message.
 * The attendee's and the registrant's fields are two autofill sections
 * (`section-participant`, `section-inscription`): a browser fills one person
 * at a time, so an adult child can fill their own details under
 * "J'inscris un proche" and type their parent's above.
 * Conform wires the shared zod schema (app/courses/schema.ts) as the
 * contact form does (`usePublicForm`, and the same text fields,
 * `InputField` and `TextareaField`): the same French messages beside the
 * fields, with or without JavaScript (a normal post to the page's action
 * without it), and the error summary (`ErrorSummary`) at the top of the
 * form when a submission has errors.
 */
import { getFormProps, getInputProps, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { InputField, TextareaField } from "~/components/conform-fields";
import { ErrorSummary, summaryErrors } from "~/components/error-summary";
import { FieldError, FormErrors, Honeypot, PendingLabel } from "~/components/form-parts";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { cn } from "~/utils/cn";
import { usePublicForm } from "~/utils/use-public-form";
import type { z } from "zod";
import { PAYMENT_MODE_SHORT, PAYS_BY_CHOICES, type PaymentMode, type PaysBy } from "~/content/payment";
import { BOOKING_HONEYPOT_FIELD, bookingSchema } from "./schema";

/** A session as the form lists it (from `PublicSession`). */
export interface FormSession {
  id: number;
  when: string;
  placeName: string;
  placesText: string;
  placesLeft: number;
  /** A series' dates in words (one choice for all of them); null for a single date. */
  lessons: string[] | null;
  /** How it is paid (the owner's choice; a series: the same on each date). */
  payment: PaymentMode;
}

const radioClass =
  "mt-1 size-6 shrink-0 accent-primary focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary";
const choiceClass =
  "flex min-h-12 cursor-pointer items-start gap-3 rounded-2xl border-2 border-line bg-white p-4 text-lg has-[:checked]:border-primary has-[:checked]:bg-primary-soft/60";

export function BookingForm({
  action,
  sessions,
  selected,
  lastResult,
  pending = false,
  paymentWords,
}: {
  /** The page's path (`/cours/{slug}`). */
  action: string;
  sessions: FormSession[];
  /** The session chosen beforehand (`?seance=`), if any. */
  selected?: number;
  lastResult?: SubmissionResult<string[]> | null;
  pending?: boolean;
  /** How each mode is paid, in the words of every page and mail (`courseBookingInfo.payment`, typeset). */
  paymentWords: Record<PaymentMode, string>;
}) {
  const { form, fields, onSubmit, summaryKey } = usePublicForm({
    schema: bookingSchema,
    id: "inscription-form",
    lastResult,
    defaultValue: {
      sessionId: String(selected ?? (sessions.length === 1 ? sessions[0]!.id : "")),
      seats: "1",
    },
    pending,
  });

  const modes = [...new Set(sessions.map((session) => session.payment))];
  const mixed = modes.length > 1;
  const bookerOpen = Boolean(
    fields.bookerFirstName.initialValue ||
    fields.bookerLastName.initialValue ||
    fields.bookerPhone.initialValue ||
    fields.bookerEmail.initialValue ||
    fields.bookerFirstName.errors ||
    fields.bookerLastName.errors ||
    fields.bookerPhone.errors,
  );

  return (
    <Form
      method="post"
      action={action}
      {...getFormProps(form)}
      onSubmit={onSubmit}
      noValidate
      className="flex flex-col gap-6 rounded-3xl border border-line bg-white p-5 shadow-md sm:p-8"
    >
      <ErrorSummary
        id={`${form.id}-summary`}
        headingLevel={3}
        focusKey={summaryKey}
        errors={summaryErrors([
          // A group of radios: the link goes to its first radio (GOV.UK's pattern).
          { id: `${fields.sessionId.id}-${sessions[0]?.id}`, errors: fields.sessionId.errors },
          fields.firstName,
          fields.lastName,
          fields.phone,
          fields.email,
          { id: `${fields.seats.id}-1`, errors: fields.seats.errors },
          { id: `${fields.paysBy.id}-sur-place`, errors: fields.paysBy.errors },
          fields.postalStreet,
          fields.postalCode,
          fields.postalLocality,
          fields.bookerFirstName,
          fields.bookerLastName,
          fields.bookerPhone,
          fields.bookerEmail,
          fields.message,
        ])}
      />

      <p className="text-lg text-muted">
        Tous les champs sont obligatoires, sauf ceux marqués «&nbsp;facultatif&nbsp;».
      </p>

      <fieldset
        className="flex min-w-0 flex-col gap-3"
        aria-invalid={fields.sessionId.errors ? true : undefined}
        aria-describedby={fields.sessionId.errors ? fields.sessionId.errorId : undefined}
      >
        <legend className="mb-2 text-xl font-bold text-ink">Choisissez la date</legend>
        {sessions.length === 0 && fields.sessionId.initialValue ? (
          // The dates could not be read (the database does not answer): the date chosen is kept as it was.
          <>
            <input type="hidden" name={fields.sessionId.name} value={String(fields.sessionId.initialValue)} />
            <p className="text-lg">La date que vous aviez choisie est gardée.</p>
          </>
        ) : null}
        {sessions.map((session) => (
          <label key={session.id} className={choiceClass}>
            <input
              {...getInputProps(fields.sessionId, { type: "radio", value: String(session.id) })}
              key={`${fields.sessionId.key}-${session.id}`}
              id={`${fields.sessionId.id}-${session.id}`}
              className={radioClass}
            />
            <span className="min-w-0">
              {session.lessons ? (
                <>
                  <span className="block font-semibold">
                    Les {session.lessons.length} séances, dès le {session.lessons[0]!.replace(/,.*$/, "")}
                  </span>
                  <span className="block">Une inscription pour toutes les dates&nbsp;:</span>
                  <span className="mb-1 block">
                    {session.lessons.map((lesson) => (
                      <span key={lesson} className="block first-letter:uppercase">
                        {lesson}
                      </span>
                    ))}
                  </span>
                </>
              ) : (
                <span className="block font-semibold first-letter:uppercase">{session.when}</span>
              )}
              <span className="block">{session.placeName}</span>
              {mixed ? <span className="block">{PAYMENT_MODE_SHORT[session.payment]}</span> : null}
              <span className={cn("block font-semibold", session.placesLeft > 0 ? "text-primary" : "text-red-800")}>
                {session.placesLeft > 0 ? session.placesText : "Complet : inscription sur la liste d’attente"}
              </span>
            </span>
          </label>
        ))}
        <FieldError id={fields.sessionId.errorId} errors={fields.sessionId.errors} />
      </fieldset>

      <fieldset className="flex min-w-0 flex-col gap-5">
        <legend className="mb-2 text-xl font-bold text-ink">La personne qui participe au cours</legend>
        <InputField field={fields.firstName} label="Prénom" autoComplete="section-participant given-name" />
        <InputField field={fields.lastName} label="Nom" autoComplete="section-participant family-name" />
        <InputField
          field={fields.phone}
          label="Téléphone"
          hint={"Fixe ou mobile, par exemple\u00a0079\u00a0123\u00a045\u00a067."}
          type="tel"
          autoComplete="section-participant tel"
        />
        <Checkbox
          id={fields.smsConsent.id}
          name={fields.smsConsent.name}
          value="on"
          defaultChecked={fields.smsConsent.initialValue === "on"}
          className="-mt-3"
          label={
            <>
              J’accepte de recevoir un rappel par SMS
              <span className="block text-base text-muted">
                La veille du cours, sur un numéro de mobile suisse, avec un lien pour confirmer ou annuler.
              </span>
            </>
          }
        />
        <InputField
          field={fields.email}
          label="Adresse e-mail (facultatif)"
          hint="Pour recevoir la confirmation et un rappel la veille. Sans e-mail, je vous confirme par téléphone."
          type="email"
          autoComplete="section-participant email"
        />
      </fieldset>

      <fieldset className="flex min-w-0 flex-col gap-3">
        <legend className="mb-2 text-xl font-bold text-ink">Nombre de places</legend>
        {[
          { value: "1", label: "1 place" },
          { value: "2", label: "2 places (avec une personne qui vous accompagne)" },
        ].map((choice) => (
          <label key={choice.value} className={choiceClass}>
            <input
              {...getInputProps(fields.seats, { type: "radio", value: choice.value })}
              key={`${fields.seats.key}-${choice.value}`}
              id={`${fields.seats.id}-${choice.value}`}
              // Conform derives a pattern from the enum: not allowed on radios (HTML), and zod checks it anyway.
              pattern={undefined}
              className={radioClass}
            />
            <span>{choice.label}</span>
          </label>
        ))}
        <FieldError id={fields.seats.errorId} errors={fields.seats.errors} />
      </fieldset>

      <PaymentFields modes={modes} words={paymentWords} fields={fields} />

      <details open={bookerOpen} className="group rounded-2xl border-2 border-line p-4">
        <summary className="flex min-h-12 cursor-pointer items-center text-xl font-bold text-primary">
          J’inscris un proche
        </summary>
        <div className="mt-4 flex flex-col gap-5">
          <p className="text-lg text-muted">
            Vous inscrivez votre mère, votre père ou un ami&nbsp;? Indiquez ici vos propres coordonnées&nbsp;: vous
            recevrez aussi la confirmation et le rappel.
          </p>
          {/* Their own section: the browser fills the registrant's details here, apart from the attendee's. */}
          <InputField
            field={fields.bookerFirstName}
            label="Votre prénom"
            autoComplete="section-inscription given-name"
          />
          <InputField field={fields.bookerLastName} label="Votre nom" autoComplete="section-inscription family-name" />
          <InputField
            field={fields.bookerPhone}
            label="Votre téléphone"
            type="tel"
            autoComplete="section-inscription tel"
          />
          <InputField
            field={fields.bookerEmail}
            label="Votre adresse e-mail (facultatif)"
            type="email"
            autoComplete="section-inscription email"
          />
        </div>
      </details>

      <TextareaField
        field={fields.message}
        label="Message (facultatif)"
        hint="Une question, un besoin particulier (mobilité, audition…)."
        rows={3}
      />

      <Honeypot formId={form.id} name={BOOKING_HONEYPOT_FIELD} />
      <FormErrors id={form.errorId} errors={form.errors} />

      <Button
        type="submit"
        size="large"
        aria-disabled={pending || undefined}
        className="w-full sm:w-auto sm:self-start"
      >
        <PendingLabel pending={pending} label="Envoyer l’inscription" />
      </Button>
    </Form>
  );
}

/** What the booking form sends, as Conform types its fields. */
type BookingShape = z.input<typeof bookingSchema>;

/** The payment's fields of the booking form. */
type BookingFields = {
  [Name in "paysBy" | "postalStreet" | "postalCode" | "postalLocality"]: FieldMetadata<
    BookingShape[Name],
    BookingShape,
    string[]
  >;
};

/**
 * « Paiement »: how the dates offered are paid (`words`). Paid on site
 * only: the sentence, nothing to fill. By invoice only: the sentence, a
 * hidden « facture » and the postal address. « Au choix » (or dates paid
 * differently, each saying its own): the radios « Sur place » / « Sur
 * facture », and the address shown once « Sur facture » is checked (by
 * CSS, `.pays-by-choice` in app/app.css: without JavaScript too; a browser
 * without `:has()` shows it always).
 */
function PaymentFields({
  modes,
  words,
  fields,
}: {
  modes: PaymentMode[];
  words: Record<PaymentMode, string>;
  fields: BookingFields;
}) {
  const only = modes.length === 1 ? modes[0]! : null;
  if (only === "sur-place" || modes.length === 0) {
    return (
      <section aria-labelledby="paiement-titre" className="flex flex-col gap-2">
        <h3 id="paiement-titre" className="text-xl font-bold text-ink">
          Paiement
        </h3>
        <p className="text-lg">{words["sur-place"]}</p>
      </section>
    );
  }
  const choice = only !== "facture";
  return (
    <fieldset
      className={cn("flex min-w-0 flex-col gap-3", choice && "pays-by-choice")}
      aria-invalid={fields.paysBy.errors ? true : undefined}
      aria-describedby={fields.paysBy.errors ? fields.paysBy.errorId : undefined}
    >
      <legend className="mb-2 text-xl font-bold text-ink">Paiement</legend>
      <p className="text-lg">
        {only ? words[only] : "Chaque date dit comment elle se paie. Pour une date payée sur facture ou au choix :"}
      </p>
      {choice ? (
        (["sur-place", "facture"] as const satisfies readonly PaysBy[]).map((value) => (
          <label key={value} className={choiceClass}>
            <input
              {...getInputProps(fields.paysBy, { type: "radio", value })}
              key={`${fields.paysBy.key}-${value}`}
              id={`${fields.paysBy.id}-${value}`}
              pattern={undefined}
              className={radioClass}
            />
            <span>{PAYS_BY_CHOICES[value]}</span>
          </label>
        ))
      ) : (
        <input type="hidden" name={fields.paysBy.name} value="facture" />
      )}
      <FieldError id={fields.paysBy.errorId} errors={fields.paysBy.errors} />
      <div className="invoice-address flex flex-col gap-5">
        <p className="text-lg text-muted">
          L’adresse où j’envoie la facture, au nom de la personne qui participe au cours.
        </p>
        <InputField
          field={fields.postalStreet}
          label="Rue et numéro"
          autoComplete="section-participant address-line1"
        />
        <InputField
          field={fields.postalCode}
          label="NPA"
          hint="4 chiffres, par exemple 1800."
          inputMode="numeric"
          autoComplete="section-participant postal-code"
        />
        <InputField field={fields.postalLocality} label="Localité" autoComplete="section-participant address-level2" />
      </div>
    </fieldset>
  );
}
