/**
 * The mechanisms' own tables in the person registry: the mails (`outbox`,
 * app/mail/) and the day counts of mails to an address
 * (`recipient_mail_days`, decision 028), and the mechanisms' tables that
 * hold no visitor's data (`MECHANISM_TABLES`).
 *
 * - `mailPlug(plugs, labels)`: the two tables as a plug; a mail is the
 *   person's when it names them (`outbox.named`), is sent to them, or is
 *   about their rows (each feature plug's `mails`).
 * - `planMails(context, erasedWith, keptWith)`: which of the person's mails
 *   an erasure deletes, and which it empties (`changed`: sent to someone
 *   else and part of a record that is kept, decision 019).
 * - `scrubMails(tx, ids, now)`: empties those.
 */
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox, recipientMailDays } from "~/db/schema";
import { keyOfDaySql } from "~/guards/daily-key.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { mailLabel, type MailLabels } from "./mail-labels.server";
import { MAIL_PROCESSING } from "./processing";
import {
  deleteRows,
  isKey,
  personTable,
  rowsOf,
  type OutboxRow,
  type PersonKey,
  type PersonPlug,
  type PlanContext,
  type TablePlan,
} from "./person-types";

type MailDayRow = typeof recipientMailDays.$inferSelect;

/**
 * The mechanisms' tables of app/db/schema.ts that hold no visitor's personal
 * data, and why (the features' own: their plugs' `otherTables`).
 */
export const MECHANISM_TABLES: Readonly<Record<string, string>> = {
  site_settings: "the owner's own business details, hours, prices and legal settings (Réglages), no visitor's",
  audit_log: "counts and kinds only, never an e-mail, a name or a telephone",
  desk_seen: "when the owner last opened the desk's lists of registrations and subscriptions (a kind and a time)",
  rate_limits: "keys are SHA-256 hashes of an address or an e-mail, deleted once expired",
  site_secrets: "the server's own secrets",
  desk_user: "the owner's own account",
  desk_session: "the owner's own sessions",
  desk_account: "the owner's own password hash",
  desk_verification: "the owner's pending sign-in steps",
  desk_two_factor: "the owner's TOTP secret and recovery codes",
  desk_used_totp: "the owner's used TOTP codes",
  daily_salts: "one random salt a day, deleted two days later (decision 028); no address",
  link_tokens:
    "hashes of random tokens and the id of what they act on (no address); expired ones are deleted, a course registration's with it",
};

/** The entries of a mail's `named` that are `person` (by e-mail or telephone). */
const namedEntries = (row: OutboxRow, person: PersonKey) =>
  (row.named ?? []).filter((entry) => isKey(person, entry.email, entry.phone));

/** What a scrubbed mail says instead of what it said (no name: the erased person's words are gone). */
const SCRUBBED_MAIL = {
  subject: "(contenu effacé)",
  text: (now: Date) =>
    `Ce message nommait une personne dont les données ont été effacées à sa demande le ${formatDateTime(now)}.\n`,
};

/** The outbox and the day counts as a plug of the registry; `plugs` say which mails are about their rows. */
export function mailPlug(plugs: readonly PersonPlug[], labels: MailLabels): PersonPlug {
  return {
    tables: [
      personTable({
        table: outbox,
        title: "E-mails",
        processing: MAIL_PROCESSING,
        noun: { one: "e-mail", other: "e-mails" },
        changedAs: "mails_scrubbed",
        // Mails naming the person or sent to them, mails about their rows, older rows whose data carries the e-mail.
        where: (person) =>
          or(
            ...(person.email ? [sql`${outbox.named} @> ${JSON.stringify([{ email: person.email }])}::jsonb`] : []),
            ...(person.phoneE164
              ? [sql`${outbox.named} @> ${JSON.stringify([{ phone: person.phoneE164 }])}::jsonb`]
              : []),
            ...plugs.flatMap((plug) => (plug.mails ? [plug.mails(person)] : [])),
            ...(person.email
              ? [
                  sql`lower(${outbox.recipient}) = ${person.email}`,
                  sql`lower(${outbox.payload}->>'email') = ${person.email}`,
                ]
              : []),
          )!,
        orderBy: outbox.id,
        fields: (row) => [
          ["N°", String(row.id)],
          ["Type", mailLabel(labels, row.kind)],
          ["Demande n°", row.contactId === null ? "(aucune)" : String(row.contactId)],
          ["Créé le", formatDateTime(row.createdAt)],
          ["Objet", row.subject ?? "(ancien e-mail, sans objet enregistré)"],
          [
            "État",
            row.sentAt
              ? `Envoyé le ${formatDateTime(row.sentAt)}`
              : row.failedAt
                ? `Abandonné le ${formatDateTime(row.failedAt)}`
                : "En attente d’envoi",
          ],
        ],
      }),
      personTable({
        table: recipientMailDays,
        // Counted by the address's key of the day (decision 028): found while that day's salt is kept (two days).
        title: "E-mails comptés par jour (limite d’envois)",
        processing: MAIL_PROCESSING,
        noun: { one: "compte d’envois du jour", other: "comptes d’envois du jour" },
        where: (person) =>
          person.email
            ? sql`${recipientMailDays.recipientKey} = ${keyOfDaySql(sql`"recipient_mail_days"."day"`, person.email)}`
            : sql`false`,
        orderBy: recipientMailDays.day,
        fields: (row) => [
          ["Jour", formatDate(row.day)],
          ["E-mails écrits à la suite de demandes sur le site", String(row.queued)],
          ["E-mails retenus (limite du jour atteinte)", String(row.held)],
        ],
      }),
    ],
    people(found, person, add) {
      for (const row of rowsOf<OutboxRow>(found, outbox))
        for (const entry of namedEntries(row, person)) if (entry.name) add(entry.name, entry.email, entry.phone);
    },
    async erase(tx, plan) {
      const mails = plan.tables.outbox!.erased.map((row) => row.id as number);
      const days = plan.tables.recipient_mail_days!.erased as MailDayRow[];
      return {
        deleted: {
          outbox: await deleteRows(tx, outbox, mails),
          recipient_mail_days: days.length
            ? (
                await tx
                  .delete(recipientMailDays)
                  .where(
                    or(
                      ...days.map((row) =>
                        and(eq(recipientMailDays.day, row.day), eq(recipientMailDays.recipientKey, row.recipientKey)),
                      ),
                    ),
                  )
                  .returning({ one: sql`1` })
              ).length
            : 0,
        },
      };
    },
  };
}

/**
 * The mails' part of an erasure's plan: a mail that goes with an erased row
 * (`erasedWith`) is deleted; one that names a chosen person (or, everyone
 * chosen, an older one sent to the address) is deleted too, unless it was
 * sent to someone else and is part of a record that is kept (`keptWith`):
 * then it is emptied (`changed`). The day counts go when everyone is chosen.
 */
export function planMails(
  { found, person, chosen, everyone }: PlanContext,
  erasedWith: ReadonlySet<number>,
  keptWith: ReadonlySet<number>,
): Record<string, TablePlan> {
  const erased: OutboxRow[] = [];
  const changed: OutboxRow[] = [];
  for (const row of rowsOf<OutboxRow>(found, outbox)) {
    if (erasedWith.has(row.id)) {
      erased.push(row);
      continue;
    }
    const entries = namedEntries(row, person).filter((entry) => chosen(entry.name));
    const legacy =
      (row.named ?? []).length === 0 &&
      everyone &&
      !!person.email &&
      [row.recipient, (row.payload as { email?: string } | null)?.email].some(
        (value) => value?.toLowerCase() === person.email,
      );
    if (entries.length === 0 && !legacy) continue;
    const recipient = row.recipient?.toLowerCase();
    const toThem = !!recipient && (recipient === person.email || entries.some((entry) => entry.email === recipient));
    (row.sentAt && !toThem && keptWith.has(row.id) ? changed : erased).push(row);
  }
  return {
    outbox: { erased, changed },
    recipient_mail_days: { erased: everyone ? rowsOf<MailDayRow>(found, recipientMailDays) : [], changed: [] },
  };
}

/** Empties the mails `ids` (subject, bodies, headers, files, names), kept for the record. @throws the driver's error. */
export async function scrubMails(tx: Database, ids: readonly number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(outbox)
    .set({
      subject: SCRUBBED_MAIL.subject,
      textBody: SCRUBBED_MAIL.text(now),
      htmlBody: null,
      headers: null,
      attachments: null,
      payload: null,
      replyTo: null,
      named: [],
    })
    .where(inArray(outbox.id, [...ids]));
}
