/**
 * Who invoices are paid to: `invoiceCreditor(context)`, the one place that
 * reads the owner's details for an invoice (its heading and the QR-bill's
 * "Compte / Payable à"): the business name, postal address, IDE, e-mail and
 * telephone of Réglages (decision 024), and the account of Réglages'
 * « Paiement des factures », else of the setting `INVOICE_IBAN` (validated
 * at start, app/config/settings.server.ts: a deployment may give it).
 *
 * The VAT status: the owner is not subject to VAT (a turnover under
 * CHF 100’000.– a year, LTVA art. 10 al. 2 let. a), so an invoice shows no
 * VAT and says so (`VAT_NOT_SUBJECT`): an invoice that showed VAT without
 * the business being registered would owe it (LTVA art. 27 al. 2).
 *
 * A creditor is copied into each invoice when it is made (`invoices.creditor`):
 * an invoice printed again later reads as it was sent.
 */
import type { InvoiceCreditor } from "~/db/schema";
import { getSiteSettings } from "~/settings/site.server";
import { isQRIBAN } from "swissqrbill/utils";
import { settingsContext, type RequestContext } from "~/context.server";

/** The mention an invoice of a business not subject to VAT carries. */
export const VAT_NOT_SUBJECT = "Non assujetti à la TVA (art. 10 LTVA) : montants sans TVA.";

/** The owner as an invoice shows them (the type of `invoices.creditor`, app/db/schema.ts). */
export type Creditor = InvoiceCreditor;

/** The creditor, or why there is none: `missing: "iban"` when INVOICE_IBAN is unset. */
export type CreditorResult = { ok: true; creditor: Creditor } | { ok: false; missing: "iban" };

/**
 * "Chemin de l’Exemple 1" → street "Chemin de l’Exemple", number "1" (also "12a", "12 bis", "12-14",
 * "3/5"); no number at the end: all of it is the street.
 */
export function splitStreet(line: string): { street: string; buildingNumber: string | null } {
  const match = /^(.*\S)\s+(\d+(?:\s?[a-zA-Z]{1,3})?(?:[-/]\d+[a-zA-Z]?)?)$/.exec(line.trim());
  return match ? { street: match[1]!, buildingNumber: match[2]! } : { street: line.trim(), buildingNumber: null };
}

/** A country name of the site's content as an ISO code ("Suisse" → "CH"). */
function countryCode(name: string): string {
  const codes: Record<string, string> = { suisse: "CH", liechtenstein: "LI", france: "FR" };
  return codes[name.trim().toLowerCase()] ?? "CH";
}

/**
 * The creditor of invoices made now. Never throws (the IBANs were validated when saved or at start).
 * @param context the loader's context (its database and settings; absent: the defaults and the environment's).
 */
export async function invoiceCreditor(context: RequestContext): Promise<CreditorResult> {
  const { identity, payment } = await getSiteSettings(context);
  const iban = payment.iban ?? context.get(settingsContext).INVOICE_IBAN;
  if (!iban) return { ok: false, missing: "iban" };
  const { street, buildingNumber } = splitStreet(identity.address.street);
  return {
    ok: true,
    creditor: {
      name: identity.businessName.slice(0, 70),
      street,
      buildingNumber,
      postalCode: identity.address.postalCode,
      locality: identity.address.locality,
      country: countryCode(identity.address.country),
      iban,
      qrIban: isQRIBAN(iban),
      uid: identity.uid,
      email: identity.email,
      phone: identity.phoneDisplay,
      vatSubject: false,
      vatMention: VAT_NOT_SUBJECT,
    },
  };
}
