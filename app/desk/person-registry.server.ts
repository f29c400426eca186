/**
 * One person, many rows (DESIGN.md section 8): the registry of every table
 * that holds a visitor's data, made of the features' plugs
 * (`personRegistry(plugs, mailLabels)`, called once by
 * app/features.server.ts) and of the mechanisms' own tables (the outbox and
 * the day counts of mails, app/desk/person-mail.server.ts). This module
 * imports no feature.
 *
 * What the registry gives (each @throws the driver's error):
 * - `tables`: every entry, in the person page's order; `otherTables`: every
 *   other table of app/db/schema.ts, with why it holds no visitor's data.
 * - `processings`: the register of processing activities (LPD art. 12), each
 *   with the tables that hold its data (`ProcessingEntry`), in the tables'
 *   order, then those of no registry table (the plugs' `processings`, the
 *   server's log).
 * - `findPerson(db, person)`: every row of that key, table by table;
 *   `peopleIn(found, person)`: the people among them, one per name (two
 *   people may share a telephone or an e-mail).
 * - `planErasure(db, person, names)`: what erasing the chosen people does,
 *   table by table (decision 019: rows kept changed are `changed`).
 * - `erasePerson(db, person, names, actor, options)`: does it in one
 *   transaction, the mails first, then each plug's tables from the last to
 *   the first, then the plugs' after-hooks (a freed seat's notice), with one
 *   audit line holding counts only.
 * - `exportOf(db, person, asked)`: what to hand over to the people asked.
 * - `fieldNamesOf(db, found)`, `countsOf(found)`, `describeCounts(counts)`,
 *   `planCounts(plan)`.
 */
import { asc, getTableName } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { toE164 } from "~/utils/phone";
import { audit } from "./audit.server";
import type { MailLabels } from "./mail-labels.server";
import { mailPlug, MECHANISM_TABLES, planMails, scrubMails } from "./person-mail.server";
import { SERVER_LOG_PROCESSING, type Processing } from "./processing";
import {
  countOf,
  nameKey,
  rowsOf,
  type ErasureOptions,
  type ErasurePlan,
  type FieldNames,
  type OutboxRow,
  type PersonKey,
  type PersonPlug,
  type PersonRows,
  type PersonTable,
  type TablePlan,
} from "./person-types";

/** The SQL name of an entry's table: the key of the export and of the audit counts. */
export const tableKey = (entry: PersonTable) => getTableName(entry.table);

/** One person among the rows found under an e-mail or a telephone: one per name. */
export interface FoundPerson {
  /** `nameKey` of the name: what the erasure form posts (`personne`). */
  id: string;
  /** The name as first typed. */
  name: string;
  /** The e-mails (lower case) and telephones (as typed) seen with the name. */
  emails: string[];
  phones: string[];
  /** What the rows are, in French: "1 demande de contact, participe à 1 cours, a inscrit 1 proche". */
  what: string;
}

/** What an export holds: the rows, table by table, the people they are of, and the counts. */
export interface PersonExport {
  found: PersonRows[];
  people: FoundPerson[];
  counts: Record<string, number>;
}

/** What `erasePerson` did. */
export interface ErasureResult {
  /** Rows deleted per table (SQL names, registry order; tables never deleted from are absent). */
  counts: Record<string, number>;
  /** Ids of the rows kept changed, per table (course_registrations: kept for their attendee; invoices). */
  changed: Record<string, number[]>;
  /** Mails kept for the record, their subject and bodies replaced. */
  scrubbed: number;
  /** What the plugs' after-hooks report (`sessions_freed`: the sessions whose freed seats the owner was told of). */
  notes: Record<string, number[]>;
}

/** One processing of the register and the tables (SQL names) that hold its data. */
export interface ProcessingEntry {
  processing: Processing;
  tables: string[];
}

/**
 * The register of `tables` (each naming its processing) and of `more`
 * (processings whose data is in no registry table), in that order, one entry
 * per processing (by its `key`).
 * @throws Error when an entry has no processing (a table would be missing
 *   from the register), or two different processings share a key.
 */
export function processingsOf(tables: readonly PersonTable[], more: readonly Processing[]): ProcessingEntry[] {
  const entries = new Map<string, ProcessingEntry>();
  const add = (processing: Processing, table?: string) => {
    const entry = entries.get(processing.key) ?? { processing, tables: [] };
    if (entry.processing !== processing) throw new Error(`two processings share the key ${processing.key}`);
    if (table) entry.tables.push(table);
    entries.set(processing.key, entry);
  };
  for (const entry of tables) {
    // A plug written without types (or cast) may lack it: the register must not silently miss a table.
    if (!(entry as Partial<PersonTable>).processing)
      throw new Error(`table ${tableKey(entry)} has no processing entry for the register`);
    add(entry.processing, tableKey(entry));
  }
  for (const processing of more) add(processing);
  return [...entries.values()].map(({ processing, tables: own }) => ({
    processing,
    tables: [...own, ...(processing.alsoStoredIn ?? [])],
  }));
}

/** The registry made of `plugs` (the features', in the list's order). */
export type PersonRegistry = ReturnType<typeof personRegistry>;

/**
 * The registry of the features' `plugs` and the mechanisms' own tables;
 * `mailLabels` name the kinds of the mails shown.
 * @throws Error when two plugs claim one table.
 */
export function personRegistry(plugs: readonly PersonPlug[], mailLabels: MailLabels) {
  const mail = mailPlug(plugs, mailLabels);
  const all: readonly PersonPlug[] = [...plugs, mail];
  const tables: readonly PersonTable[] = all.flatMap((plug) => plug.tables);
  const otherTables: Readonly<Record<string, string>> = Object.assign(
    {},
    MECHANISM_TABLES,
    ...plugs.map((plug) => plug.otherTables ?? {}),
  );
  const keys = tables.map(tableKey);
  for (const key of keys) {
    if (keys.indexOf(key) !== keys.lastIndexOf(key) || key in otherTables)
      throw new Error(`table ${key} is claimed twice in the person registry`);
  }
  const roles = all.flatMap((plug) => plug.roles ?? []);
  const processings = processingsOf(tables, [
    ...plugs.flatMap((plug) => plug.processings ?? []),
    SERVER_LOG_PROCESSING,
  ]);

  /** Every row of `person` in every table, in the registry's order (rows by the entry's order). */
  async function findPerson(db: Database, person: PersonKey): Promise<PersonRows[]> {
    const found: PersonRows[] = [];
    for (const entry of tables) {
      const rows = await db.select().from(entry.table).where(entry.where(person)).orderBy(asc(entry.orderBy));
      found.push({ entry, rows: rows as Record<string, unknown>[] });
    }
    return found;
  }

  /** The number of rows per table (keyed by the table's SQL name), every table of the registry present. */
  function countsOf(found: readonly PersonRows[]): Record<string, number> {
    return Object.fromEntries(found.map(({ entry, rows }) => [tableKey(entry), rows.length]));
  }

  /**
   * Counts per table in French words, joined as French lists are:
   * "2 demandes de contact, 1 changement de statut et 3 e-mails".
   * Tables absent from `counts` are left out.
   */
  function describeCounts(counts: Readonly<Record<string, number>>): string {
    const parts = tables
      .filter((entry) => tableKey(entry) in counts)
      .map((entry) => countOf(counts[tableKey(entry)]!, entry.noun));
    return new Intl.ListFormat("fr", { type: "conjunction" }).format(parts);
  }

  /** What the fields of `found` name beyond their rows (each plug's names). */
  async function fieldNamesOf(db: Database, found: readonly PersonRows[]): Promise<FieldNames> {
    const names: Record<string, ReadonlyMap<number, string>> = {};
    for (const plug of all) if (plug.names) Object.assign(names, await plug.names(db, found));
    return names;
  }

  /**
   * The people among `found` (rows of `person`'s key): each name under which
   * a plug's rows were made with that key. Two names under one telephone
   * are two people (a couple): the owner chooses whom to erase. In the
   * order first seen.
   */
  function peopleIn(found: readonly PersonRows[], person: PersonKey): FoundPerson[] {
    const people = new Map<string, FoundPerson & { counts: Map<string, number> }>();
    const add = (name: string, email: string | null | undefined, phone: string | null | undefined, role?: string) => {
      if (!name.trim()) return;
      const id = nameKey(name);
      const entry = people.get(id) ?? {
        id,
        name: name.trim().replace(/\s+/g, " "),
        emails: [],
        phones: [],
        what: "",
        counts: new Map<string, number>(),
      };
      if (email && !entry.emails.includes(email.toLowerCase())) entry.emails.push(email.toLowerCase());
      if (phone && !entry.phones.some((known) => (toE164(known) ?? known) === (toE164(phone) ?? phone)))
        entry.phones.push(phone);
      if (role !== undefined) entry.counts.set(role, (entry.counts.get(role) ?? 0) + 1);
      people.set(id, entry);
    };
    for (const plug of all) plug.people?.(found, person, add);
    return [...people.values()].map(({ counts, ...entry }) => ({
      ...entry,
      what:
        new Intl.ListFormat("fr", { type: "conjunction" }).format(
          roles.filter((role) => counts.get(role.key)).map((role) => role.describe(counts.get(role.key)!)),
        ) || "nommée dans des e-mails",
    }));
  }

  /**
   * The plan of erasing the people `names` (`FoundPerson.id`; null: all)
   * found under `person` (decision 019): each plug plans its tables; the
   * mails then go with what is erased, or are emptied when sent to someone
   * else and part of a record that is kept (`outbox.changed`). Rows of a
   * person not chosen are never touched.
   */
  async function planErasure(db: Database, person: PersonKey, names: readonly string[] | null): Promise<ErasurePlan> {
    const found = await findPerson(db, person);
    const everyone = peopleIn(found, person).map((entry) => entry.id);
    const chosenIds = names === null || everyone.every((id) => names.includes(id)) ? null : new Set(names);
    const chosen = (name: string | null | undefined) => chosenIds === null || (!!name && chosenIds.has(nameKey(name)));
    const context = { db, person, found, chosen, everyone: chosenIds === null };
    const plan: ErasurePlan = {
      tables: Object.fromEntries(keys.map((key): [string, TablePlan] => [key, { erased: [], changed: [] }])),
    };
    for (const plug of plugs) Object.assign(plan.tables, await plug.plan?.(context));
    const mails = rowsOf<OutboxRow>(found, outbox);
    const erasedWith = new Set(plugs.flatMap((plug) => [...(plug.mailsErasedWith?.(plan, mails) ?? [])]));
    const keptWith = new Set<number>();
    for (const plug of plugs)
      if (plug.mailsKeptWith) for (const id of await plug.mailsKeptWith(db, plan, mails)) keptWith.add(id);
    Object.assign(plan.tables, planMails(context, erasedWith, keptWith));
    return plan;
  }

  /**
   * The rows to hand over to the people `asked` (`FoundPerson.id`) among
   * those found under `person`: the rows an erasure of them would touch, so
   * that a person sharing a telephone never receives the other's data. No
   * person asked, or all of them: every row found.
   */
  async function exportOf(db: Database, person: PersonKey, asked: readonly string[]): Promise<PersonExport> {
    const everything = await findPerson(db, person);
    const people = peopleIn(everything, person);
    const chosen = people.filter((entry) => asked.includes(entry.id));
    if (chosen.length === 0 || chosen.length === people.length) {
      return { found: everything, people, counts: countsOf(everything) };
    }
    const plan = await planErasure(
      db,
      person,
      chosen.map((entry) => entry.id),
    );
    const found = everything.map(({ entry, rows }) => {
      const part = plan.tables[tableKey(entry)]!;
      const touched = new Set([...part.erased, ...part.changed].map((row) => row.id));
      return { entry, rows: rows.filter((row) => row.id !== undefined && touched.has(row.id)) };
    });
    return { found, people: chosen, counts: countsOf(found) };
  }

  /** The rows a plan deletes per table (SQL names, every table of the registry but those never deleted from). */
  function planCounts(plan: ErasurePlan): Record<string, number> {
    return Object.fromEntries(
      tables
        .filter((entry) => !entry.neverDeleted)
        .map((entry) => [tableKey(entry), plan.tables[tableKey(entry)]!.erased.length]),
    );
  }

  /**
   * Erases the people `names` (`FoundPerson.id`; null: everyone found) under
   * `person`, as `planErasure` plans it, in one transaction (all or nothing),
   * with one audit line (`erasure`, by `actor`, counts only: no e-mail, no
   * name, no telephone).
   * @throws the driver's error; nothing is changed then.
   */
  async function erasePerson(
    db: Database,
    person: PersonKey,
    names: readonly string[] | null,
    actor: string,
    options: ErasureOptions,
  ): Promise<ErasureResult> {
    const now = options.now ?? new Date();
    return db.transaction(async (tx) => {
      const plan = await planErasure(tx, person, names);
      const scrubbed = plan.tables[getTableName(outbox)]!.changed as OutboxRow[];
      await scrubMails(
        tx,
        scrubbed.map((row) => row.id),
        now,
      );
      const deleted: Record<string, number> = {};
      const after: (() => Promise<Record<string, number[]>>)[] = [];
      for (const plug of [mail, ...[...plugs].reverse()]) {
        const outcome = await plug.erase?.(tx, plan, { ...options, now });
        if (!outcome) continue;
        Object.assign(deleted, outcome.deleted);
        if (outcome.after) after.push(outcome.after);
      }
      const notes: Record<string, number[]> = {};
      for (const hook of after) Object.assign(notes, await hook());
      const counts = Object.fromEntries(
        tables
          .filter((entry) => tableKey(entry) in deleted)
          .map((entry) => [tableKey(entry), deleted[tableKey(entry)]!]),
      );
      const changed = Object.fromEntries(
        tables
          .filter((entry) => entry.changedAs && entry.table !== outbox)
          .map((entry) => [tableKey(entry), plan.tables[tableKey(entry)]!.changed.map((row) => row.id as number)]),
      );
      const result: ErasureResult = { counts, changed, scrubbed: scrubbed.length, notes };
      await audit(
        tx,
        {
          actor,
          action: "erasure",
          details: {
            ...counts,
            ...Object.fromEntries(
              tables
                .filter((entry) => entry.changedAs)
                .map((entry) => [entry.changedAs!, plan.tables[tableKey(entry)]!.changed.length]),
            ),
            ...Object.fromEntries(Object.entries(notes).map(([key, ids]) => [key, ids.length])),
            people_chosen: names === null ? "all" : names.length,
          },
        },
        options.logger,
      );
      return result;
    });
  }

  return {
    tables,
    otherTables,
    processings,
    findPerson,
    countsOf,
    describeCounts,
    fieldNamesOf,
    peopleIn,
    planErasure,
    exportOf,
    planCounts,
    erasePerson,
  };
}
