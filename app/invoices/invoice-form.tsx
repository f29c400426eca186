/**
 * The desk's form of a new invoice: the client (a person, or an
 * organisation with "à l’attention de"), the postal address (the QR-bill's
 * "Payable par"), e-mail and telephone (to send it), up to six lines
 * (label, quantity, unit price in francs), the date and the due date (30
 * days later by default). A plain post (works without JavaScript); each
 * French message sits under its field (`aria-invalid`,
 * `aria-describedby`). One line per row on a phone, three columns wider.
 */
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Field } from "~/components/form-parts";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";

/** A field of the form: a text input named `name` with its label and error, or `control` in its place. */
export type TextField = (name: string, label: string, props?: Record<string, string>, control?: ReactNode) => ReactNode;

/** The words of the form that are an invoice's: its two dates' labels and the button. */
const INVOICE_WORDS = { issuedOn: "Date de la facture", dueOn: "À payer d’ici au", submit: "Créer la facture" };

/**
 * `lines`: how many lines the form shows (`INVOICE_FORM_LINES` of form.server.ts). A quote (app/quotes/)
 * gives its own `words` and its fieldsets (`extra`, between the dates and the button, drawn with the
 * form's own field: `text(name, label, props?, control?)`).
 */
export function InvoiceForm({
  values,
  errors = {},
  lines,
  words = INVOICE_WORDS,
  extra,
}: {
  values: Record<string, string>;
  errors?: Record<string, string>;
  lines: number;
  words?: typeof INVOICE_WORDS;
  extra?: (text: TextField) => ReactNode;
}) {
  const field = (name: string) => ({
    id: `invoice-${name}`,
    errorId: `invoice-${name}-error`,
    errors: errors[name] ? [errors[name]] : undefined,
  });
  const aria = (name: string) =>
    errors[name] ? { "aria-invalid": true, "aria-describedby": `invoice-${name}-error` } : {};
  const text: TextField = (name, label, props = {}, control) => (
    <Field field={field(name)} label={label}>
      {control ?? (
        <Input id={`invoice-${name}`} name={name} defaultValue={values[name] ?? ""} {...props} {...aria(name)} />
      )}
    </Field>
  );
  return (
    <Form method="post" noValidate className="mt-4 grid gap-6 rounded-2xl border-2 border-gray-200 bg-white p-4 sm:p-5">
      <input type="hidden" name="registrationId" value={values.registrationId ?? ""} />
      <input type="hidden" name="contactId" value={values.contactId ?? ""} />
      <fieldset className="grid gap-5">
        <legend className="text-2xl font-bold">Client</legend>
        {text(
          "clientKind",
          "Une personne ou une organisation ?",
          {},
          <Select id="invoice-clientKind" name="clientKind" defaultValue={values.clientKind ?? "person"}>
            <option value="person">Une personne</option>
            <option value="organisation">Une organisation (association, club, commune…)</option>
          </Select>,
        )}
        {text("clientName", "Nom (prénom et nom, ou nom de l’organisation)", { autoComplete: "off" })}
        {text("clientAttention", "À l’attention de (pour une organisation, facultatif)", { autoComplete: "off" })}
        <div className="grid gap-5 sm:grid-cols-[3fr_1fr]">
          {text("street", "Rue", { autoComplete: "off" })}
          {text("buildingNumber", "N° (facultatif)", { autoComplete: "off" })}
        </div>
        <div className="grid gap-5 sm:grid-cols-[1fr_3fr_1fr]">
          {text("postalCode", "NPA", { inputMode: "numeric", autoComplete: "off" })}
          {text("locality", "Localité", { autoComplete: "off" })}
          {text("country", "Pays (2 lettres)", { autoComplete: "off", maxLength: "2" })}
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          {text("email", "E-mail (pour l’envoyer, facultatif)", { type: "email", autoComplete: "off" })}
          {text("phone", "Téléphone (facultatif)", { type: "tel", autoComplete: "off" })}
        </div>
      </fieldset>
      <fieldset className="grid gap-5">
        <legend className="text-2xl font-bold">Lignes</legend>
        <p className="text-lg text-muted">
          Par exemple « Assistance informatique à domicile », 1.5 (heures), 95 (francs de l’heure). Les lignes vides ne
          comptent pas.
        </p>
        {Array.from({ length: lines }, (_, index) => (
          <div
            key={index}
            role="group"
            aria-label={`Ligne ${index + 1}`}
            className="grid gap-3 border-t-2 border-gray-100 pt-4 sm:grid-cols-[3fr_1fr_1fr]"
          >
            {text(`label-${index}`, `Ligne ${index + 1} : désignation`, { autoComplete: "off" })}
            {text(`quantity-${index}`, "Quantité", { inputMode: "decimal", autoComplete: "off" })}
            {text(`price-${index}`, "Prix unitaire (CHF)", { inputMode: "decimal", autoComplete: "off" })}
          </div>
        ))}
      </fieldset>
      <fieldset className="grid gap-5 sm:grid-cols-2">
        <legend className="text-2xl font-bold">Dates</legend>
        {text("issuedOn", words.issuedOn, { type: "date" })}
        {text("dueOn", words.dueOn, { type: "date" })}
      </fieldset>
      {extra?.(text)}
      <Button type="submit" className="sm:justify-self-start">
        {words.submit}
      </Button>
    </Form>
  );
}
