/**
 * The desk's invoice form, read (`readInvoiceForm(form, today)`): what was
 * typed, checked field by field with the French message shown beside the
 * field, into an `InvoiceDraft`. Never throws: bad input gives errors.
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

/** A date as typed: ISO ("2026-11-25", the date field's) or Swiss ("25.11.2026"), as an ISO date. */
function isoDateOf(text: string): string {
  const swiss = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  return swiss ? `${swiss[3]}-${swiss[2]!.padStart(2, "0")}-${swiss[1]!.padStart(2, "0")}` : text;
}

/** Whether `text` is a real ISO calendar date. */
function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** Reads and checks the form (see the module's comment). */
export function readInvoiceForm(form: FormData): InvoiceFormResult {
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string") values[key] = value.slice(0, 500);
  const read = (name: string) => (values[name] ?? "").trim().replace(/\s+/g, " ");
  const errors: Record<string, string> = {};
  const text = (name: string, max: number, label: string, required: boolean) => {
    const value = read(name);
    if (!value && required) errors[name] = `Indiquez ${label}.`;
    else if (value.length > max) errors[name] = `Au plus ${max} caractères.`;
    return value || null;
  };

  const clientKind = read("clientKind") === "organisation" ? "organisation" : "person";
  const clientName = text(
    "clientName",
    70,
    clientKind === "organisation" ? "le nom de l’organisation" : "le prénom et le nom",
    true,
  );
  const clientAttention = text("clientAttention", 70, "", false);
  const street = text("street", 70, "la rue", true);
  const buildingNumber = text("buildingNumber", 16, "", false);
  const postalCode = text("postalCode", 16, "le numéro postal", true);
  const locality = text("locality", 35, "la localité", true);
  const country = (read("country") || "CH").toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) errors.country = "Le pays s’écrit en deux lettres, par exemple CH.";
  const email = read("email").toLowerCase() || null;
  if (email && (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)))
    errors.email = "Cette adresse e-mail n’est pas complète : elle s’écrit par exemple marie.dupont@example.ch.";
  const phone = read("phone") || null;
  if (phone && (phone.length > 30 || !toE164(phone)))
    errors.phone = "Ce numéro de téléphone n’est pas lisible : tapez-le par exemple ainsi : 079 123 45 67.";

  const lines: InvoiceDraft["lines"] = [];
  for (let index = 0; index < INVOICE_FORM_LINES; index++) {
    const label = read(`label-${index}`);
    const quantityText = read(`quantity-${index}`);
    const priceText = read(`price-${index}`);
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

  const issuedOn = isoDateOf(read("issuedOn"));
  if (!isIsoDate(issuedOn)) errors.issuedOn = "Indiquez la date de la facture, par exemple 25.11.2026.";
  const dueOn = isoDateOf(read("dueOn"));
  if (!isIsoDate(dueOn)) errors.dueOn = "Indiquez l’échéance, par exemple 25.12.2026.";
  else if (!errors.issuedOn && dueOn < issuedOn)
    errors.dueOn = "L’échéance ne peut pas précéder la date de la facture.";

  const id = (name: string) => {
    const value = Number(read(name));
    return Number.isSafeInteger(value) && value > 0 ? value : null;
  };
  if (Object.keys(errors).length) return { ok: false, errors, values };
  return {
    ok: true,
    draft: {
      clientKind,
      clientName: clientName!,
      clientAttention: clientKind === "organisation" ? clientAttention : null,
      street: street!,
      buildingNumber,
      postalCode: postalCode!,
      locality: locality!,
      country,
      email,
      phone,
      lines,
      issuedOn,
      dueOn,
      registrationId: id("registrationId"),
      contactId: id("contactId"),
    },
  };
}
