/** The desk's message when INVOICE_IBAN is unset (app/invoices/creditor.server.ts): no invoice can be made. */
import { Notice } from "~/desk/form-parts";

export function IbanMissing() {
  return (
    <Notice tone="alert" className="mt-4">
      IBAN manquant : pour faire des factures, indiquez le compte (IBAN ou QR-IBAN) dans le réglage INVOICE_IBAN du
      serveur, puis redémarrez-le.
    </Notice>
  );
}
