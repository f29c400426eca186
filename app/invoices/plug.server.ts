/**
 * What the invoices give the mechanisms (app/desk/feature.ts): their rows
 * in the person registry (found by the e-mail or telephone they were made
 * with; an erasure keeps them, as the Code des obligations asks (art. 958f:
 * 10 years), and only removes that e-mail and telephone), the labels of
 * their mails, and the PDF the outbox attaches when an invoice's mail
 * leaves (rendered then from the invoice, never stored as a file).
 */
import { inArray } from "drizzle-orm";
import { invoices } from "~/db/schema";
import type { Feature } from "~/desk/feature";
import type { Processing } from "~/desk/processing";
import { keyMatch, personTable, rowsOf } from "~/desk/person-types";
import { formatDate } from "~/utils/format";
import {
  clientAddressLines,
  formatCentimes,
  getInvoice,
  INVOICE_MAIL,
  INVOICE_STATUS_LABELS,
  invoiceFileName,
  invoiceKeptUntil,
  type Invoice,
} from "./invoices.server";

/** The invoices in the register of processings (LPD art. 12). */
export const INVOICES_PROCESSING: Processing = {
  key: "invoices",
  title: "Factures",
  purpose: "Facturer les cours et l’aide informatique, suivre les paiements et tenir la comptabilité",
  data: [
    "nom de la personne ou de l’organisation, à l’attention de, adresse postale",
    "adresse e-mail et téléphone, s’ils sont donnés, pour envoyer la facture",
    "lignes facturées, montants, dates, état du paiement",
  ],
  people: ["clients"],
  retention: () =>
    "10 ans, comme la loi l’exige (art. 958f du Code des obligations) ; un effacement sur demande n’en retire que l’e-mail et le téléphone",
  recipients: ["hosting", "mailProvider"],
  safeguards: ["le PDF n’est jamais enregistré : il est refait à partir de la facture quand il le faut"],
};

export const invoicesFeature: Feature = {
  name: "invoices",
  person: {
    tables: [
      personTable({
        table: invoices,
        // Kept when the person is erased (CO art. 958f): only the e-mail and telephone go (issue 22, item 4).
        title: "Factures",
        processing: INVOICES_PROCESSING,
        noun: { one: "facture", other: "factures" },
        neverDeleted: true,
        changedAs: "invoices_kept",
        where: (person) => keyMatch(person, invoices.email, invoices.phoneE164),
        orderBy: invoices.id,
        fields: (row) => [
          ["N°", row.number],
          ["Client", clientAddressLines(row).join(", ")],
          ["E-mail", row.email ?? "(aucun)"],
          ["Téléphone", row.phone ?? "(aucun)"],
          ["Montant", formatCentimes(row.totalCentimes)],
          ["Date", formatDate(row.issuedOn)],
          ["État", INVOICE_STATUS_LABELS[row.status] ?? row.status],
          [
            "Conservation",
            `Gardée jusqu’au ${formatDate(invoiceKeptUntil(row))}, comme la loi le demande (Code des obligations, art. 958f) : un effacement n’en retire que l’e-mail et le téléphone.`,
          ],
        ],
      }),
    ],
    otherTables: { invoice_numbers: "the last invoice number given in each year" },
    plan: ({ found, chosen }) => ({
      invoices: {
        erased: [],
        changed: rowsOf<Invoice>(found, invoices).filter(
          (row) => chosen(row.clientName) || chosen(row.clientAttention),
        ),
      },
    }),
    async erase(tx, plan) {
      const ids = plan.tables.invoices!.changed.map((row) => row.id as number);
      // Invoices stay (CO art. 958f: 10 years); the e-mail and telephone they were sent with go.
      if (ids.length)
        await tx.update(invoices).set({ email: null, phone: null, phoneE164: null }).where(inArray(invoices.id, ids));
      return { deleted: {} };
    },
  },
  mailLabels: {
    [INVOICE_MAIL.invoice]: "Facture",
    [INVOICE_MAIL.reminder]: "Rappel d’une facture",
  },
  outbox: {
    async attachments(row, db) {
      if (row.invoiceId === null) return [];
      const invoice = await getInvoice(db, row.invoiceId);
      if (!invoice) throw new Error(`outbox row ${row.id}: invoice ${row.invoiceId} not found`);
      // Loaded on the first invoice mail only: pdfkit and its fonts stay out of a server that sends none.
      const { renderInvoicePdf } = await import("./pdf.server");
      return [
        {
          filename: invoiceFileName(invoice),
          contentType: "application/pdf",
          content: await renderInvoicePdf(invoice),
        },
      ];
    },
  },
};
