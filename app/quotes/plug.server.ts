/**
 * What the quotes give the mechanisms (app/desk/feature.ts): their rows in
 * the person registry (found by the e-mail or telephone of the
 * organisation's contact person; shown and exported with the
 * participants' list), erased as decision 053 says: a quote that was
 * accepted, or became an invoice, is kept like the invoice (CO art. 958f:
 * 10 years) with its organisation, address and amounts, and loses the
 * e-mail, the telephone and the participants' list; any other quote is
 * deleted. Also the labels of their mails, and the PDF the outbox attaches
 * when a quote's mail leaves (rendered then, never stored as a file).
 */
import { inArray } from "drizzle-orm";
import { quotes } from "~/db/schema";
import type { Feature } from "~/desk/feature";
import type { Processing } from "~/desk/processing";
import { deleteRows, keyMatch, personTable, rowsOf } from "~/desk/person-types";
import { formatCentimes, invoiceKeptUntil } from "~/invoices/invoices.server";
import { deleteTokensOfRows } from "~/tokens/tokens.server";
import { formatDate, isoDateInZurich } from "~/utils/format";
import { GROUP_LINK } from "./group.server";
import {
  getQuote,
  QUOTE_MAIL,
  QUOTE_STATE_LABELS,
  quoteAddressLines,
  quoteFileName,
  quoteState,
  type Quote,
} from "./quotes.server";

/** The quotes in the register of processings (LPD art. 12). */
export const QUOTES_PROCESSING: Processing = {
  key: "quotes",
  title: "Devis pour les groupes et listes de participants",
  purpose: "Proposer une conférence ou un atelier à une organisation, préparer la séance de son groupe et la facturer",
  data: [
    "nom de l’organisation, personne de contact, adresse postale",
    "adresse e-mail et téléphone de la personne de contact",
    "lignes du devis, montants, dates, état",
    "noms des participants inscrits par l’organisation",
  ],
  people: ["personnes de contact des organisations", "participants des groupes"],
  retention: () =>
    "Un devis accepté : 10 ans, comme la facture qu’il prépare (art. 958f du Code des obligations), sans e-mail, téléphone ni liste des participants après un effacement ; les autres devis sont effacés sur demande",
  recipients: ["hosting", "mailProvider"],
  safeguards: [
    "le PDF n’est jamais enregistré : il est refait à partir du devis quand il le faut",
    "la page du groupe s’ouvre par un lien secret, propre au groupe",
  ],
};

/** Whether erasing its contact person keeps a quote (accepted, or invoiced): decision 053. */
export const keptAsRecord = (quote: Pick<Quote, "status" | "invoiceId">) =>
  quote.status === "accepted" || quote.invoiceId !== null;

export const quotesFeature: Feature = {
  name: "quotes",
  person: {
    tables: [
      personTable({
        table: quotes,
        title: "Devis",
        processing: QUOTES_PROCESSING,
        noun: { one: "devis", other: "devis" },
        changedAs: "quotes_kept",
        where: (person) => keyMatch(person, quotes.email, quotes.phoneE164),
        orderBy: quotes.id,
        fields: (row) => [
          ["N°", row.number],
          ["Organisation", quoteAddressLines(row).join(", ")],
          ["E-mail", row.email ?? "(aucun)"],
          ["Téléphone", row.phone ?? "(aucun)"],
          ["Montant", formatCentimes(row.totalCentimes)],
          ["Date", formatDate(row.issuedOn)],
          ["État", QUOTE_STATE_LABELS[quoteState(row, isoDateInZurich(new Date()))]],
          ["Participants", row.participants.length ? row.participants.join(", ") : "(aucun)"],
          [
            "Conservation",
            keptAsRecord(row)
              ? `Gardé jusqu’au ${formatDate(invoiceKeptUntil(row))}, comme la facture qu’il prépare (Code des obligations, art. 958f) : un effacement n’en retire que l’e-mail, le téléphone et la liste des participants.`
              : "Effacé sur demande.",
          ],
        ],
      }),
    ],
    otherTables: { quote_numbers: "the last quote number given in each year" },
    plan: ({ found, chosen }) => {
      const mine = rowsOf<Quote>(found, quotes).filter((row) => chosen(row.clientAttention) || chosen(row.clientName));
      return { quotes: { erased: mine.filter((row) => !keptAsRecord(row)), changed: mine.filter(keptAsRecord) } };
    },
    async erase(tx, plan) {
      const { erased, changed } = plan.tables.quotes!;
      const kept = changed.map((row) => row.id as number);
      const gone = erased.map((row) => row.id as number);
      // The group's link goes with the contact person: it opened the list they gave.
      if (kept.length + gone.length)
        await deleteTokensOfRows(tx, GROUP_LINK, { id: quotes.id, where: inArray(quotes.id, [...kept, ...gone]) });
      if (kept.length)
        await tx
          .update(quotes)
          .set({ email: null, phone: null, phoneE164: null, participants: [] })
          .where(inArray(quotes.id, kept));
      return { deleted: { quotes: await deleteRows(tx, quotes, gone) } };
    },
  },
  mailLabels: {
    [QUOTE_MAIL.quote]: "Devis",
    [QUOTE_MAIL.groupList]: "Lien de la liste d’un groupe",
  },
  outbox: {
    async attachments(row, db) {
      if (row.quoteId === null) return [];
      const quote = await getQuote(db, row.quoteId);
      if (!quote) throw new Error(`outbox row ${row.id}: quote ${row.quoteId} not found`);
      // Loaded on the first quote mail only: pdfkit and its fonts stay out of a server that sends none.
      const { renderQuotePdf } = await import("./pdf.server");
      return [
        {
          filename: quoteFileName(quote),
          contentType: "application/pdf",
          content: await renderQuotePdf(quote, isoDateInZurich(new Date())),
        },
      ];
    },
  },
};
