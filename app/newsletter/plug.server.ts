/**
 * What the newsletter gives the mechanisms (app/desk/feature.ts): its
 * subscriptions in the person registry (found by e-mail; erased only when
 * everyone found under the key is, as they carry no name; their link
 * tokens first), its retention rule (a subscription never confirmed goes
 * 30 days after the request), the labels of its mails, and its job (letters
 * whose process died while queueing them are finished: queue.server.ts).
 */
import { eq, sql } from "drizzle-orm";
import { newsletterSubscribers } from "~/db/schema";
import type { Feature } from "~/desk/feature";
import type { Processing } from "~/desk/processing";
import { deleteRows, personTable, rowsOf } from "~/desk/person-types";
import { formatDateTime } from "~/utils/format";
import { letterQueueJob } from "./queue.server";
import { beforeErasingSubscriber, deleteUnconfirmed, NEWSLETTER_MAIL_KINDS } from "./subscriptions.server";
import { subscriberStates, subscriptionSources } from "./words";

type SubscriberRow = typeof newsletterSubscribers.$inferSelect;

/** The newsletter's subscriptions in the register of processings (LPD art. 12). */
export const NEWSLETTER_PROCESSING: Processing = {
  key: "newsletter",
  title: "Lettre d’information",
  purpose: "Envoyer la lettre d’information mensuelle aux personnes qui l’ont demandée et confirmée",
  data: [
    "adresse e-mail",
    "date et heure de la demande, page d’où elle vient, version du texte d’accord",
    "date et heure de la confirmation et du désabonnement",
  ],
  people: ["abonnés et personnes qui ont demandé à l’être"],
  retention: () =>
    "Jusqu’au désabonnement (la trace du désabonnement et de l’accord reste, pour ne plus écrire, et s’efface sur demande) ; une demande jamais confirmée est effacée après 30 jours",
  recipients: ["hosting", "mailProvider"],
  safeguards: [
    "double confirmation : abonnement seulement après un clic sur « Confirmer » (lien valable 7 jours)",
    "lien de désabonnement en un clic dans chaque lettre",
  ],
};

export const newsletterFeature: Feature = {
  name: "newsletter",
  person: {
    tables: [
      personTable({
        table: newsletterSubscribers,
        title: "Abonnement à la lettre d’information",
        processing: NEWSLETTER_PROCESSING,
        noun: { one: "abonnement", other: "abonnements" },
        where: (person) => (person.email ? eq(newsletterSubscribers.email, person.email) : sql`false`),
        orderBy: newsletterSubscribers.id,
        fields: (row) => [
          ["E-mail", row.email],
          ["État", subscriberStates[row.status] ?? row.status],
          ["Demandé le", formatDateTime(row.requestedAt)],
          ["Demandé depuis", subscriptionSources[row.source] ?? row.source],
          ["Texte du consentement", `version du ${row.consentVersion}`],
          ["Confirmé le", row.confirmedAt ? formatDateTime(row.confirmedAt) : "(pas confirmé)"],
          ["Désabonné le", row.unsubscribedAt ? formatDateTime(row.unsubscribedAt) : "(abonné ou en attente)"],
        ],
      }),
    ],
    otherTables: { newsletter_letters: "the owner's letters" },
    plan: ({ found, everyone }) => ({
      newsletter_subscribers: {
        erased: everyone ? rowsOf<SubscriberRow>(found, newsletterSubscribers) : [],
        changed: [],
      },
    }),
    async erase(tx, plan) {
      const rows = plan.tables.newsletter_subscribers!.erased as SubscriberRow[];
      for (const row of rows) await beforeErasingSubscriber(tx, row.email);
      return {
        deleted: {
          newsletter_subscribers: await deleteRows(
            tx,
            newsletterSubscribers,
            rows.map((row) => row.id),
          ),
        },
      };
    },
  },
  retention: { run: async (tx, now) => ({ unconfirmedSubscribers: await deleteUnconfirmed(tx, now) }) },
  jobs: [letterQueueJob],
  mailLabels: {
    [NEWSLETTER_MAIL_KINDS.confirmation]: "Demande de confirmation d’abonnement",
    [NEWSLETTER_MAIL_KINDS.letter]: "Lettre d’information",
    [NEWSLETTER_MAIL_KINDS.test]: "Lettre d’information (test)",
  },
};
