/** What the owner calls an invoice's states and ways of payment (shared by the desk's pages and the server). */

/** What the owner calls each state. */
export const INVOICE_STATUS_LABELS: Readonly<Record<string, string>> = {
  open: "Ouverte",
  paid: "Payée",
  cancelled: "Annulée",
};

/** How an invoice was paid, as the owner says it. */
export const PAYMENT_METHODS = { virement: "Virement", twint: "TWINT", especes: "Espèces" } as const;
export type PaymentMethod = keyof typeof PAYMENT_METHODS;
