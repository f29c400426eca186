/**
 * What the contact requests (and the callback requests stored with them,
 * kind "rappel") give the mechanisms (app/desk/feature.ts):
 * - the person registry: the requests (`contacts`, found by e-mail and
 *   telephone; a callback has no e-mail) and their status history; the
 *   mails about a request (`outbox.contact_id`) go with it, or stay emptied
 *   while a request they belong to is kept;
 * - retention: a request whose last exchange is older than
 *   `retentionMonths` goes with its history and mails; before the run,
 *   requests stored before `phone_e164` existed get it (`backfillPhoneE164`);
 * - the mail labels of its notification; the outbox renders an older
 *   notification stored with its data only (a payload, no subject).
 */
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import { contactEvents, contacts, outbox } from "~/db/schema";
import type { Feature } from "~/desk/feature";
import type { Processing } from "~/desk/processing";
import {
  countOf,
  deleteRows,
  isKey,
  keyMatch,
  personTable,
  rowsOf,
  type PersonKey,
  type TablePlan,
} from "~/desk/person-types";
import { formatDateTime } from "~/utils/format";
import { toE164 } from "~/utils/phone";
import { buildContactMail, CONTACT_NOTIFICATION, type ContactNotificationPayload } from "./notification.server";
import { statusLabel } from "./requests";
import { REQUEST_COLUMNS } from "./requests.server";

type ContactRow = typeof contacts.$inferSelect;

const queries = new QueryBuilder();

/** The person's contact requests: same e-mail (any case) or same E.164 telephone. */
const contactMatch = (person: PersonKey) => keyMatch(person, contacts.email, contacts.phoneE164);

/** The ids of the person's contact requests, as a subquery. */
const contactIds = (person: PersonKey) =>
  queries.select({ id: contacts.id }).from(contacts).where(contactMatch(person));

const REQUEST_NOUN = { one: "demande de contact", other: "demandes de contact" };

/** The contact and callback requests in the register of processings (LPD art. 12). */
export const CONTACT_PROCESSING: Processing = {
  key: "contact-requests",
  title: "Demandes de contact et de rappel",
  purpose:
    "Répondre aux demandes envoyées par le site, recontacter la personne et, si elle le souhaite, organiser un cours ou une aide",
  data: [
    "prénom et nom, organisation et commune pour un groupe",
    "adresse e-mail (sauf pour une demande de rappel) et numéro de téléphone",
    "service qui intéresse la personne, son message, les demi-journées où l’appeler",
    "accord d’être recontacté(e) et choix de la lettre d’information, avec la date et l’heure",
    "suivi de la demande : statut, note, historique des changements, mots code",
  ],
  people: ["personnes qui écrivent ou demandent à être rappelées"],
  retention: ({ retentionMonths }) =>
    `${retentionMonths} mois après le dernier échange, puis effacées automatiquement avec leur historique et leurs e-mails`,
  recipients: ["hosting", "mailProvider"],
  safeguards: ["formulaires protégés contre les robots (piège et limite d’envois par connexion)"],
};

/** The requests erased by `plan`, by id. */
const erasedRequests = (tables: Record<string, TablePlan>) =>
  new Set(tables.contacts!.erased.map((row) => row.id as number));

/**
 * Fills `phone_e164` of the contact requests that have none, by batches of
 * `batch` rows; a telephone that cannot be read stays null.
 * @returns how many rows were filled. @throws the driver's error.
 */
export async function backfillPhoneE164(db: Database, batch = 500): Promise<number> {
  let filled = 0;
  let afterId = 0;
  for (;;) {
    const rows = await db
      .select({ id: contacts.id, phone: contacts.phone })
      .from(contacts)
      .where(and(isNull(contacts.phoneE164), gt(contacts.id, afterId)))
      .orderBy(asc(contacts.id))
      .limit(batch);
    if (rows.length === 0) return filled;
    for (const row of rows) {
      const phoneE164 = toE164(row.phone);
      if (!phoneE164) continue;
      await db
        .update(contacts)
        .set({ phoneE164 })
        .where(and(eq(contacts.id, row.id), isNull(contacts.phoneE164)));
      filled++;
    }
    afterId = rows.at(-1)!.id;
  }
}

export const contactFeature: Feature = {
  name: "contact",
  person: {
    tables: [
      personTable({
        table: contacts,
        // Callback requests too (kind "rappel", REQUEST_COLUMNS' "Type"): no e-mail, found by telephone.
        title: "Demandes de contact",
        processing: CONTACT_PROCESSING,
        noun: REQUEST_NOUN,
        where: contactMatch,
        orderBy: contacts.id,
        fields: (row) => [
          ...REQUEST_COLUMNS.map((column): [string, string] => [column.label, column.value(row, formatDateTime)]),
          ["Dernier échange", formatDateTime(row.lastActivityAt)],
        ],
      }),
      personTable({
        table: contactEvents,
        title: "Changements de statut",
        processing: CONTACT_PROCESSING,
        noun: { one: "changement de statut", other: "changements de statut" },
        where: (person) => inArray(contactEvents.contactId, contactIds(person)),
        orderBy: contactEvents.id,
        fields: (row) => [
          ["Demande n°", String(row.contactId)],
          ["Le", formatDateTime(row.at)],
          ["Changement", `${row.fromStatus ? `${statusLabel(row.fromStatus)} → ` : ""}${statusLabel(row.toStatus)}`],
        ],
      }),
    ],
    roles: [{ key: "contact", describe: (count) => countOf(count, REQUEST_NOUN) }],
    mails: (person) => inArray(outbox.contactId, contactIds(person)),
    people(found, person, add) {
      for (const row of rowsOf<ContactRow>(found, contacts))
        if (isKey(person, row.email, row.phoneE164))
          add(`${row.firstName} ${row.lastName}`, row.email, row.phone, "contact");
    },
    plan({ found, chosen }) {
      const requests = rowsOf<ContactRow>(found, contacts).filter((row) => chosen(`${row.firstName} ${row.lastName}`));
      const ids = new Set(requests.map((row) => row.id));
      return {
        contacts: { erased: requests, changed: [] },
        contact_events: {
          erased: rowsOf<typeof contactEvents.$inferSelect>(found, contactEvents).filter((row) =>
            ids.has(row.contactId),
          ),
          changed: [],
        },
      };
    },
    mailsErasedWith(plan, mails) {
      const erased = erasedRequests(plan.tables);
      return mails.filter((row) => row.contactId !== null && erased.has(row.contactId)).map((row) => row.id);
    },
    async mailsKeptWith(_db, plan, mails) {
      const erased = erasedRequests(plan.tables);
      return mails.filter((row) => row.contactId !== null && !erased.has(row.contactId)).map((row) => row.id);
    },
    async erase(tx, plan) {
      return {
        deleted: {
          contact_events: await deleteRows(
            tx,
            contactEvents,
            plan.tables.contact_events!.erased.map((row) => row.id as number),
          ),
          contacts: await deleteRows(tx, contacts, [...erasedRequests(plan.tables)]),
        },
      };
    },
  },
  retention: {
    before: async (db) => ({ phonesFilled: await backfillPhoneE164(db) }),
    async run(tx, now, { retentionMonths }) {
      const at = sql`${now.toISOString()}::timestamptz`;
      // Locked, so that a note written meanwhile waits, and the request is deleted whole or kept whole.
      const expired = await tx
        .select({ id: contacts.id })
        .from(contacts)
        .where(sql`${contacts.lastActivityAt} < ${at} - make_interval(months => ${retentionMonths}::int)`)
        .for("update");
      const ids = expired.map((row) => row.id);
      if (ids.length === 0) return { contacts: 0, contactEvents: 0, outbox: 0 };
      const count = async (rows: Promise<unknown[]>) => (await rows).length;
      const mails = await count(
        tx
          .delete(outbox)
          .where(inArray(outbox.contactId, ids))
          .returning({ one: sql`1` }),
      );
      const events = await count(
        tx
          .delete(contactEvents)
          .where(inArray(contactEvents.contactId, ids))
          .returning({ one: sql`1` }),
      );
      await tx.delete(contacts).where(inArray(contacts.id, ids));
      return { contacts: ids.length, contactEvents: events, outbox: mails };
    },
  },
  mailLabels: { [CONTACT_NOTIFICATION]: "Avis de nouvelle demande de contact" },
  outbox: {
    render: (row) =>
      row.kind === CONTACT_NOTIFICATION && row.payload !== null
        ? buildContactMail(row.payload as ContactNotificationPayload)
        : null,
  },
};
