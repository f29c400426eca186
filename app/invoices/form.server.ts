/**
 * The desk's invoice form, read (`readInvoiceForm(form)`, by the zod schema
 * `invoiceFormSchema` through Conform's `parseWithZod`): what was typed,
 * checked field by field with the French message shown beside the field,
 * into an `InvoiceDraft`. Never throws: bad input gives errors.
 *
 * Fields: `clientKind` (person, organisation), `clientName`,
 * `clientAttention`, `street`, `buildingNumber`, `postalCode`, `locality`,
 * `country` (two letters), `email`, `phone` (both optional), up to
 * `INVOICE_FORM_LINES` lines (`label-N`, `quantity-N`, `price-N`: a line is
 * read when any of them is filled), `issuedOn`, `dueOn` (ISO dates),
 * `registrationId`, `contactId` (hidden: where the invoice comes from).
 * Limits follow the QR-bill's (names and streets 70 characters, postal code
 * 16, locality 35) so that every invoice made here prints its QR-bill.
 * Prices: francs with up to two decimals ("95", "95.50", "95,50", "95.–").
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { isIsoDate, isoDateOfTyped } from "~/utils/format";
import { toE164 } from "~/utils/phone";
import type { InvoiceDraft } from "./invoices.server";
import { totalCentimes } from "./invoices.server";

/** How many lines the form offers. */
export const INVOICE_FORM_LINES = 6;

/** The largest total an invoice may have, in centimes (CHF 1’000’000.–). */
const MAX_TOTAL = 100_000_000;

/** The form's answer: a draft, or what is wrong (field name to French message) and what was typed. */
export type InvoiceFormResult =
  { ok: true; draft: InvoiceDraft } | { ok: false; errors: Record<string, string>; values: Record<string, string> };

/** A price in francs as typed, in centimes; null when it cannot be read. */
export function parseFrancs(text: string): number | null {
  const cleaned = text
    .trim()
    .replace(/^CHF\s*/i, "")
    .replace(/[’'\s]/g, "")
    .replace(/[.,]–$|[.,]-$/, "")
    .replace(",", ".");
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

/** A quantity as typed ("1", "1.5", "1,5"); null when it cannot be read or is not above 0. */
function parseQuantity(text: string): number | null {
  const cleaned = text.trim().replace(",", ".");
  if (!/^\d{1,4}(\.\d{1,2})?$/.test(cleaned)) return null;
  const value = Number(cleaned);
  return value > 0 ? value : null;
}

/** What was typed, as read: at most 500 characters, trimmed, runs of spaces made one. */
const cleaned = (value: unknown) => (typeof value === "string" ? value.slice(0, 500) : "").trim().replace(/\s+/g, " ");

/** A text field: `missing` when required and empty, at most `max` characters; empty gives null. */
const text = (max: number, missing?: string) =>
  z
    .string()
    .refine((value) => !missing || value.length > 0, missing)
    .refine((value) => value.length <= max, `Au plus ${max} caractères.`)
    .transform((value) => value || null);

/** A date field, ISO or Swiss, as an ISO date; `message` unless it is a real calendar date. */
const date = (message: string) => z.string().transform(isoDateOfTyped).refine(isIsoDate, message);

/** A hidden id: a positive integer, else null. */
const id = z.string().transform((value) => {
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : null;
});

const lineFields = Object.fromEntries(
  Array.from({ length: INVOICE_FORM_LINES }, (_, index) =>
    [`label-${index}`, `quantity-${index}`, `price-${index}`].map((name) => [name, z.string()]),
  ).flat(),
) as Record<string, z.ZodType<string>>;

/** The invoice's lines as typed, read; `errors` by field name (French). */
function linesOf(values: Record<string, string>) {
  const errors: Record<string, string> = {};
  const lines: InvoiceDraft["lines"] = [];
  for (let index = 0; index < INVOICE_FORM_LINES; index++) {
    const label = values[`label-${index}`] ?? "";
    const quantityText = values[`quantity-${index}`] ?? "";
    const priceText = values[`price-${index}`] ?? "";
    if (!label && !quantityText && !priceText) continue;
    if (!label) errors[`label-${index}`] = "Indiquez ce qui est facturé.";
    else if (label.length > 200) errors[`label-${index}`] = "Au plus 200 caractères.";
    const quantity = parseQuantity(quantityText || "1");
    if (quantity === null)
      errors[`quantity-${index}`] = "Une quantité plus grande que 0, par exemple 1 ou 1.5 (heures).";
    const unitCentimes = parseFrancs(priceText);
    if (unitCentimes === null) errors[`price-${index}`] = "Un prix en francs, par exemple 95 ou 142.50.";
    if (label && quantity !== null && unitCentimes !== null) lines.push({ label, quantity, unitCentimes });
  }
  if (lines.length === 0 && !Object.keys(errors).some((key) => /^(label|quantity|price)-/.test(key)))
    errors["label-0"] = "Indiquez au moins une ligne : ce qui est facturé, la quantité et le prix.";
  const total = totalCentimes(lines);
  if (lines.length && !errors["label-0"] && (total <= 0 || total > MAX_TOTAL))
    errors["price-0"] =
      total <= 0 ? "Le total doit être plus grand que CHF 0.–." : "Le total ne peut pas dépasser CHF 1’000’000.–.";
  return { lines, errors };
}

/** The words of a form's two dates: an invoice's date and due date, or a quote's date and validity (app/quotes/). */
export interface DateWords {
  issuedOn: string;
  dueOn: string;
  /** When `dueOn` precedes `issuedOn`. */
  dueBefore: string;
}

const INVOICE_DATE_WORDS: DateWords = {
  issuedOn: "Indiquez la date de la facture, par exemple 25.11.2026.",
  dueOn: "Indiquez l’échéance, par exemple 25.12.2026.",
  dueBefore: "L’échéance ne peut pas précéder la date de la facture.",
};

/** The form's fields, each read from its cleaned text. */
const draftFields = (words: DateWords) =>
  z.object({
    clientKind: z
      .string()
      .transform((kind) => (kind === "organisation" ? "organisation" : "person") as InvoiceDraft["clientKind"]),
    clientName: text(70),
    clientAttention: text(70),
    street: text(70, "Indiquez la rue."),
    buildingNumber: text(16),
    postalCode: text(16, "Indiquez le numéro postal."),
    locality: text(35, "Indiquez la localité."),
    country: z
      .string()
      .transform((country) => (country || "CH").toUpperCase())
      .refine((country) => /^[A-Z]{2}$/.test(country), "Le pays s’écrit en deux lettres, par exemple CH."),
    email: z
      .string()
      .transform((email) => email.toLowerCase())
      .refine(
        (email) => !email || (email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)),
        "Cette adresse e-mail n’est pas complète : elle s’écrit par exemple marie.dupont@example.ch.",
      )
      .transform((email) => email || null),
    phone: z
      .string()
      .refine(
        (phone) => !phone || (phone.length <= 30 && Boolean(toE164(phone))),
        "Ce numéro de téléphone n’est pas lisible : tapez-le par exemple ainsi : 079 123 45 67.",
      )
      .transform((phone) => phone || null),
    ...lineFields,
    issuedOn: date(words.issuedOn),
    dueOn: date(words.dueOn),
    registrationId: id,
    contactId: id,
  });

/**
 * The schema of a form of a client, lines and two dates (see the module's comment), read with Conform's
 * `parseWithZod`; gives an `InvoiceDraft` (`dueOn`: a quote's validity date). `words`: the dates' messages.
 */
export function draftFormSchema(words: DateWords) {
  const fields = draftFields(words);
  return z
    .preprocess(
      // Every field, cleaned; an absent or empty one is "" (Conform gives undefined for an empty field).
      (input) =>
        Object.fromEntries(
          Object.keys(fields.shape).map((name) => [name, cleaned((input as Record<string, unknown>)?.[name])]),
        ),
      fields,
    )
    .superRefine((value, context) => {
      const issue = (name: string, message: string) => context.addIssue({ code: "custom", path: [name], message });
      // The name's message depends on the kind of client; the lines and the dates are read together.
      if (!value.clientName)
        issue(
          "clientName",
          `Indiquez ${value.clientKind === "organisation" ? "le nom de l’organisation" : "le prénom et le nom"}.`,
        );
      for (const [name, message] of Object.entries(linesOf(value as unknown as Record<string, string>).errors))
        issue(name, message);
      if (isIsoDate(value.issuedOn) && isIsoDate(value.dueOn) && value.dueOn < value.issuedOn)
        issue("dueOn", words.dueBefore);
    })
    .transform((value): InvoiceDraft => ({
      clientKind: value.clientKind,
      clientName: value.clientName!,
      clientAttention: value.clientKind === "organisation" ? value.clientAttention : null,
      street: value.street!,
      buildingNumber: value.buildingNumber,
      postalCode: value.postalCode!,
      locality: value.locality!,
      country: value.country,
      email: value.email,
      phone: value.phone,
      lines: linesOf(value as unknown as Record<string, string>).lines,
      issuedOn: value.issuedOn,
      dueOn: value.dueOn,
      registrationId: value.registrationId,
      contactId: value.contactId,
    }));
}

/** The invoice form (see the module's comment), read with Conform's `parseWithZod`; gives an `InvoiceDraft`. */
export const invoiceFormSchema = draftFormSchema(INVOICE_DATE_WORDS);

/** A form read: a value, or each field's first French message and what was typed. */
export type FormRead<T> =
  { ok: true; value: T } | { ok: false; errors: Record<string, string>; values: Record<string, string> };

/**
 * Reads `form` with `schema` (Conform's `parseWithZod`, its coercion off: the schemas clean every field
 * themselves): the value, or each field's first French message with what was typed (500 characters each).
 */
export function readForm<T>(form: FormData, schema: z.ZodType<T>): FormRead<T> {
  const submission = parseWithZod(form, { schema, disableAutoCoercion: true });
  if (submission.status === "success") return { ok: true, value: submission.value as T };
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string") values[key] = value.slice(0, 500);
  const errors = Object.fromEntries(
    Object.entries(submission.error ?? {}).flatMap(([name, messages]) => (messages?.[0] ? [[name, messages[0]]] : [])),
  );
  return { ok: false, errors, values };
}

/** Reads and checks the form (see the module's comment); each field's first French message. */
export function readInvoiceForm(form: FormData): InvoiceFormResult {
  const read = readForm(form, invoiceFormSchema);
  return read.ok ? { ok: true, draft: read.value } : read;
}
