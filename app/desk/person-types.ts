/**
 * The shapes of the person registry (DESIGN.md sections 8 and 10: one
 * person, many rows; features plug into the mechanisms). A feature that
 * stores a visitor's data gives a `PersonPlug` (in its
 * `app/<feature>/plug.server.ts`): its tables, how each is found by e-mail
 * (any case) and telephone (E.164), shown, planned for erasure and erased;
 * app/desk/person-registry.server.ts walks every plug of the list that
 * app/features.server.ts hands it.
 *
 * Helpers for plugs: `personTable(entry)` keeps an entry's row type,
 * `keyMatch(person, email, phone)` is the usual SQL condition, `isKey(person,
 * email, phone)` the same test on a row, `countOf(n, noun)` French counts,
 * `deleteRows(tx, table, ids)` an erasure's delete.
 */
import { eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import type { outbox } from "~/db/schema";
import type { Processing } from "./processing";

/** Whom to look for: a lower-cased e-mail, a telephone in E.164, or both (rows matching either). */
export interface PersonKey {
  email: string | null;
  phoneE164: string | null;
}

/** A French noun for counts: "1 demande de contact", "2 demandes de contact". */
export interface Noun {
  one: string;
  other: string;
}

/**
 * What fields name beyond their row, by the name a plug gives them (courses:
 * `sessions`, a session's title and date by session id; `attendance`, a
 * registration's ticks in words by registration id).
 */
export type FieldNames = Readonly<Record<string, ReadonlyMap<number, string>>>;

/** One table of the registry. */
export interface PersonTable<T extends PgTable = PgTable> {
  table: T;
  /** The section's title on the person page ("Demandes de contact"). */
  title: string;
  /** The processing activity its rows serve, as the register states it (app/desk/processing.ts); several tables may share one. */
  processing: Processing;
  /** What a row is, for counts. */
  noun: Noun;
  /** The rows of `person` (both keys are ORed). */
  where(person: PersonKey): SQL;
  /** The order rows are shown and exported in. */
  orderBy: PgColumn;
  /** A row's fields with their French labels, as the page shows them (`names`: see `FieldNames`). */
  fields(row: T["$inferSelect"], names: FieldNames): [string, string][];
  /** Rows an erasure keeps, changed, and never deletes (invoices: CO art. 958f); absent from the counts of what goes. */
  neverDeleted?: boolean;
  /** The audit line's key for the rows an erasure keeps changed ("registrations_kept"). */
  changedAs?: string;
}

/** Declares an entry, keeping its row type for `fields`. */
export const personTable = <T extends PgTable>(entry: PersonTable<T>) => entry as unknown as PersonTable;

/** The rows of one table for one person. */
export interface PersonRows {
  entry: PersonTable;
  rows: Record<string, unknown>[];
}

/** The rows of `table` among `found` (none when the table is not in the registry). */
export function rowsOf<T>(found: readonly PersonRows[], table: PgTable): T[] {
  return (found.find(({ entry }) => entry.table === table)?.rows ?? []) as T[];
}

/** Rows whose `email` column (any case) or `phoneE164` column (E.164) is the person's. */
export function keyMatch(person: PersonKey, email: PgColumn, phoneE164: PgColumn): SQL {
  const conditions: SQL[] = [];
  if (person.email) conditions.push(sql`lower(${email}) = ${person.email}`);
  if (person.phoneE164) conditions.push(eq(phoneE164, person.phoneE164));
  return or(...conditions) ?? sql`false`;
}

/** Whether a row's e-mail (any case) or E.164 telephone is `person`'s. */
export const isKey = (person: PersonKey, email: string | null | undefined, phoneE164: string | null | undefined) =>
  (!!person.email && email?.toLowerCase() === person.email) || (!!person.phoneE164 && phoneE164 === person.phoneE164);

/** Deletes the rows `ids` of `table`. @returns how many. @throws the driver's error. */
export async function deleteRows(
  tx: Database,
  table: PgTable & { id: PgColumn },
  ids: readonly number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  return (
    await tx
      .delete(table)
      .where(inArray(table.id, [...ids]))
      .returning({ one: sql`1` })
  ).length;
}

/** "1 demande de contact", "0 demande de contact", "3 demandes de contact" (French: 0 and 1 are singular). */
export function countOf(count: number, noun: Noun): string {
  return `${count} ${count > 1 ? noun.other : noun.one}`;
}

/** A name as the erasure compares it: lower case, single spaces (`Marie  DUPONT` is `marie dupont`). */
export const nameKey = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/** A row of the outbox, as plugs see the person's mails. */
export type OutboxRow = typeof outbox.$inferSelect;

/**
 * What a person is to a plug's rows ("participe à 2 cours"): the person
 * page's summary of each person found counts them in the plugs' order.
 */
export interface PersonRole {
  key: string;
  /** The French phrase for `count` rows of this role (count ≥ 1). */
  describe(count: number): string;
}

/** Tells the registry of a person named in a plug's rows (`role`: one of the plug's `roles`, counted). */
export type AddPerson = (
  name: string,
  email: string | null | undefined,
  phone: string | null | undefined,
  role?: string,
) => void;

/** What an erasure does to one table: rows deleted, rows kept but changed (`changed`). */
export interface TablePlan<Row = Record<string, unknown>> {
  erased: Row[];
  changed: Row[];
}

/** An erasure's plan, by table key (SQL name); every table of the registry is present. */
export interface ErasurePlan {
  tables: Record<string, TablePlan>;
}

/** What a plug's `plan` reads. */
export interface PlanContext {
  db: Database;
  person: PersonKey;
  found: readonly PersonRows[];
  /** Whether a name is among the people chosen (always true when everyone is). */
  chosen(name: string | null | undefined): boolean;
  /** Everyone found is erased: rows that carry no name go too (a subscription, the day counts). */
  everyone: boolean;
}

/** What a plug's `erase` and the hooks after it may need. */
export interface ErasureOptions {
  /** The site's address, for links in the mails an erasure writes (a freed seat's notice). */
  siteUrl: string;
  /** The current time (tests pass a fixed clock). */
  now?: Date;
  logger?: Logger;
}

/** What a plug's `erase` did. */
export interface ErasureOutcome {
  /** Rows deleted, by table key. */
  deleted: Record<string, number>;
  /**
   * Runs once every table is erased, still in the transaction (courses:
   * tell the owner of freed seats); its counts go into the result's
   * `notes` and the audit line (`sessions_freed`: ids).
   */
  after?(): Promise<Record<string, number[]>>;
}

/** A feature's part of the person registry. */
export interface PersonPlug {
  /** Its tables holding a visitor's data, in the order the person page shows them. */
  tables: readonly PersonTable[];
  /** Its other tables, each with why it holds no visitor's data (app/desk/person-registry.server.test.ts). */
  otherTables?: Readonly<Record<string, string>>;
  /** Its processings whose data is in none of its `tables` (the breach log), as the register states them. */
  processings?: readonly Processing[];
  /** The roles its rows give a person, in the order the summary names them. */
  roles?: readonly PersonRole[];
  /** Mails about the person's rows that carry no address of theirs (an owner's notice), as a condition on `outbox`. */
  mails?(person: PersonKey): SQL;
  /** The people named in its rows among `found`. */
  people?(found: readonly PersonRows[], person: PersonKey, add: AddPerson): void;
  /** What its fields name beyond their rows. @throws the driver's error. */
  names?(db: Database, found: readonly PersonRows[]): Promise<FieldNames>;
  /** Its tables' part of an erasure's plan (keys: its tables' SQL names). @throws the driver's error. */
  plan?(context: PlanContext): Promise<Record<string, TablePlan>> | Record<string, TablePlan>;
  /** The mails (outbox ids among `mails`) that go with rows the plan deletes. */
  mailsErasedWith?(plan: ErasurePlan, mails: readonly OutboxRow[]): Iterable<number>;
  /** The mails (outbox ids among `mails`) that stay part of a record the plan keeps. @throws the driver's error. */
  mailsKeptWith?(db: Database, plan: ErasurePlan, mails: readonly OutboxRow[]): Promise<Iterable<number>>;
  /** Erases its rows as planned, in the erasure's transaction (after the mails). @throws the driver's error. */
  erase?(tx: Database, plan: ErasurePlan, options: ErasureOptions & { now: Date }): Promise<ErasureOutcome>;
}
