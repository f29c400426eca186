/**
 * How courses are paid, in the words every page and mail uses the same way
 * (the course page and its booking form, the confirmation page, the
 * confirmation and reminder mails, `/questions` and the promise of
 * `/confiance`; issue 33, item 3, docs/decisions/035-how-courses-are-paid.md).
 * The owner chooses per session or series (`PaymentMode`: sur place, sur
 * facture, au choix); a registration pays one way (`PaysBy`). Every sentence
 * is made of the same two ways of paying (`WAYS`), so no page says it
 * otherwise. Plain strings: the objects that hold them typeset them.
 */
import type { PaymentMode, PaysBy } from "~/db/schema";

export type { PaymentMode, PaysBy };

/** The owner's three choices, in the desk's order. */
export const PAYMENT_MODES: readonly PaymentMode[] = ["sur-place", "facture", "au-choix"];

/** The two ways of paying, as every sentence below says them. */
const WAYS: Record<PaysBy, string> = {
  "sur-place": "sur place, le jour du cours, en espèces ou par TWINT",
  facture: "sur facture, à votre nom et à votre adresse postale, avec un bulletin de versement QR",
};

const NO_ADVANCE = "Aucun paiement à l’avance.";

/**
 * How a course of `mode` is paid, or how one registration pays (`PaysBy`):
 * « Le prix se paie sur place, le jour du cours, en espèces ou par TWINT.
 * Aucun paiement à l’avance. », « … sur facture, … », « … au choix : … ».
 */
export function paymentSentence(mode: PaymentMode): string {
  if (mode === "au-choix") return `Le prix se paie au choix : ${WAYS["sur-place"]}, ou ${WAYS.facture}. ${NO_ADVANCE}`;
  return `Le prix se paie ${WAYS[mode]}. ${NO_ADVANCE}`;
}

/** The price of a course paid on the day (every course before the owner chose otherwise). */
export const PAID_ON_SITE = paymentSentence("sur-place");

/** How courses are paid in general (`/questions`, `/confiance`): each course's page says which way. */
export const PAYMENT_OVERVIEW = `Selon le cours, le prix se paie ${WAYS["sur-place"]}, ou ${WAYS.facture} ; certains cours vous laissent choisir, et la page de chaque cours le dit. ${NO_ADVANCE}`;

/** When an invoice may come, and how to recognise it. */
export const INVOICE_RULE =
  "Une facture ne vous vient de moi que pour un cours réservé « sur facture » (ou si nous en avons convenu ensemble, par exemple pour une association) : toujours depuis la même adresse e-mail, avec le mot de code que je vous ai donné, et jamais à payer dans l’urgence.";

/** The owner's choice in the desk's session and series forms. */
export const PAYMENT_MODE_LABELS: Record<PaymentMode, string> = {
  "sur-place": "Sur place (espèces ou TWINT)",
  facture: "Sur facture (l’inscription demande l’adresse postale)",
  "au-choix": "Au choix de la personne : sur place ou sur facture",
};

/** A date's payment in a few words, beside it in the booking form's list and the desk's: « Paiement sur place ». */
export const PAYMENT_MODE_SHORT: Record<PaymentMode, string> = {
  "sur-place": "Paiement sur place",
  facture: "Paiement sur facture",
  "au-choix": "Paiement sur place ou sur facture, au choix",
};

/** The booking form's two radios (a course « au choix »). */
export const PAYS_BY_CHOICES: Record<PaysBy, string> = {
  "sur-place": "Sur place, le jour du cours (espèces ou TWINT)",
  facture: "Sur facture, envoyée à mon adresse postale",
};

/** How a registration pays, in the desk, the export and the person's page. */
export const PAYS_BY_LABELS: Record<PaysBy, string> = {
  "sur-place": "Sur place",
  facture: "Sur facture",
};

/** A postal address on one line: « Rue du Lac 3, 1800 Vevey ». */
export function postalAddressLine(address: {
  postalStreet: string | null;
  postalCode: string | null;
  postalLocality: string | null;
}): string {
  return [address.postalStreet, [address.postalCode, address.postalLocality].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
}

/** How a registration pays, for the owner: « Sur place », or « Sur facture : Rue du Lac 3, 1800 Vevey ». */
export function paysByInWords(row: { paysBy: PaysBy } & Parameters<typeof postalAddressLine>[0]): string {
  return row.paysBy === "facture"
    ? `${PAYS_BY_LABELS.facture} : ${postalAddressLine(row)}`
    : PAYS_BY_LABELS[row.paysBy];
}
