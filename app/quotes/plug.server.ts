/**
 * What the quotes give the mechanisms (app/desk/feature.ts): their rows in
 * the person registry (found by the e-mail or telephone of the
 * organisation's contact person; shown and exported with the
 * participants' list), erased as decision 053 says: a quote that was
 * accepted, or became an invoice, is kept like the invoice (CO art. 958f:
 * 10 years) with its organisation, address and amounts, and loses the
 * e-mail, the telephone and the participants' list; any other quote is
 * deleted. Retention (decision 058): a quote never accepted (a draft, a
 * refused or expired one) goes with its mails `retentionMonths` (the
 * requests' period, Réglages) after its validity date. Also the labels of
 * their mails, and the PDF the outbox attaches when a quote's mail leaves
 * (rendered then, never stored as a file).
 */
import { and, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox, quotes } from "~/db/schema";
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
  retention: ({ retentionMonths }) =>
    `Un devis accepté : 10 ans, comme la facture qu’il prépare (art. 958f du Code des obligations), sans e-mail, téléphone ni liste des participants après un effacement. Un devis refusé, expiré ou resté en brouillon, avec sa liste et ses e-mails : ${retentionMonths} mois après sa date de validité, comme la demande à laquelle il répond, puis effacé automatiquement ; plus tôt sur demande`,
  recipients: ["hosting", "mailProvider"],
  safeguards: [
    "le PDF n’est jamais enregistré : il est refait à partir du devis quand il le faut",
    "la page du groupe s’ouvre par un lien secret, propre au groupe",
  ],
};

/** Whether erasing its contact person keeps a quote (accepted, or invoiced): decision 053. */
export const keptAsRecord = (quote: Pick<Quote, "status" | "invoiceId">) =>
  quote.status === "accepted" || quote.invoiceId !== null;

/**
 * Deletes the quotes never accepted nor invoiced whose validity date is
 * more than `months` months before `now`'s Swiss day, and their mails.
 * @returns how many of each went. @throws the driver's error.
 */
export async function deleteUnacceptedQuotes(tx: Database, now: Date, months: number) {
  const gone = await tx
    .select({ id: quotes.id })
    .from(quotes)
    .where(
      and(
        ne(quotes.status, "accepted"),
        isNull(quotes.invoiceId),
        sql`${quotes.validUntil} < ${isoDateInZurich(now)}::date - make_interval(months => ${months}::int)`,
      ),
    )
    .for("update");
  const ids = gone.map((row) => row.id);
  if (ids.length === 0) return { quotes: 0, outbox: 0 };
  const mails = await tx.delete(outbox).where(inArray(outbox.quoteId, ids)).returning({ id: outbox.id });
  return { quotes: await deleteRows(tx, quotes, ids), outbox: mails.length };
}

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
              : "Effacé sur demande, et de lui-même, s’il n’est pas accepté, une fois passée la durée de conservation des demandes depuis sa date de validité.",
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
  retention: {
    run: (tx, now, { retentionMonths }) => deleteUnacceptedQuotes(tx, now, retentionMonths),
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
