/**
 * The contact requests as the desk reads and changes them.
 *
 * - `requestsPage(db, { status, search }, page)`: one page of the inbox,
 *   newest first, with the count of the filter; `search` matches the first
 *   or last name, the e-mail (case-insensitive, parts of words too) or the
 *   telephone (its digits, whatever the spacing). `requestBatches`: every
 *   matching request, 500 a query, for the CSV.
 * - `getRequest(db, id)`: the request, its status history and the state of
 *   its notification mails; null when there is none.
 * - `REQUEST_COLUMNS`: a request's fields with their French labels, as the
 *   CSV export and the person page show them.
 * - `setStatus`, `setNote`: each change moves `last_activity_at` (the
 *   retention period runs from the last exchange) and a status change
 *   writes a history row, in one transaction.
 * - `requestsCsvStream(db, filter)`: the requests as the desk's CSV, streamed.
 */
import { and, asc, count, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { keysetBatches, spreadsheetCsvStream } from "~/desk/csv.server";
import { containsPattern, readPage, type ListPage } from "~/components/pages";
import { contactEvents, contacts } from "~/db/schema";
import { halfDaysText } from "./half-days";
import { serviceLabel, type ServiceValue } from "./schema";
import { kindLabel } from "./request-kind";
import { mailStateOf, resendMail } from "~/mail/manage.server";
import { statusLabel, type RequestStatus } from "./requests";

export type RequestRow = typeof contacts.$inferSelect;

/** A labelled field of a request; `moment` writes the stored times (ISO strings) in the reader's format. */
export interface RequestColumn {
  label: string;
  value(row: RequestRow, moment: (iso: string) => string): string;
}

/** Every field of a request the owner reads, in the order of the CSV's columns. */
export const REQUEST_COLUMNS: readonly RequestColumn[] = [
  { label: "N°", value: (row) => String(row.id) },
  { label: "Reçue le", value: (row, moment) => moment(row.createdAt) },
  { label: "Statut", value: (row) => statusLabel(row.status) },
  { label: "Prénom", value: (row) => row.firstName },
  { label: "Nom", value: (row) => row.lastName },
  { label: "E-mail", value: (row) => row.email ?? "" },
  { label: "Téléphone", value: (row) => row.phone },
  { label: "Service", value: (row) => (row.service ? serviceLabel(row.service as ServiceValue) : "") },
  // A talk or workshop for a group: its details (empty cells for the other services).
  { label: "Organisation", value: (row) => row.organisation ?? "" },
  { label: "Commune", value: (row) => row.commune ?? "" },
  { label: "Nombre de personnes", value: (row) => (row.groupSize == null ? "" : String(row.groupSize)) },
  { label: "Message", value: (row) => row.message ?? "" },
  { label: "Lettre d’information", value: (row) => (row.newsletterConsent ? "Oui" : "Non") },
  { label: "Consentement le", value: (row, moment) => moment(row.consentTimestamp) },
  { label: "Note", value: (row) => row.note },
  // Issue 23, after the older columns (spreadsheets made before keep their letters).
  { label: "Type", value: (row) => kindLabel(row.kind) },
  { label: "Moments pour rappeler", value: (row) => (row.kind === "rappel" ? halfDaysText(row.halfDays) : "") },
  { label: "Mot de code", value: (row) => row.codeWord ?? "" },
];

/** The WHERE clause of a list (status and search). */
export function requestFilter({ status, search }: { status?: RequestStatus; search?: string }): SQL | undefined {
  const conditions: SQL[] = [];
  if (status) conditions.push(eq(contacts.status, status));
  const text = search?.trim();
  if (text) {
    const pattern = containsPattern(text);
    const digits = text.replace(/\D/g, "");
    conditions.push(
      or(
        // One test for the first name, the last name, the whole name and the e-mail (three times cheaper than
        // four ILIKEs over 20,000 requests): the whole name holds both names, and a control character, which a
        // search never holds (`filterOf` drops them), keeps a search from matching across the name and the e-mail.
        sql`lower(${contacts.firstName} || ' ' || ${contacts.lastName} || chr(31) || coalesce(${contacts.email}, '')) like lower(${pattern})`,
        ...(digits.length >= 3
          ? [
              sql`regexp_replace(${contacts.phone}, '[^0-9]', '', 'g') like ${`%${digits}%`}`,
              sql`coalesce(${contacts.phoneE164}, '') like ${`%${digits.replace(/^0/, "")}%`}`,
            ]
          : []),
      )!,
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

/** The requests' order in the desk and its CSV: newest first, the id breaking ties. */
const newestFirst = [desc(contacts.createdAt), desc(contacts.id)];

/**
 * Page `asked` of the requests matching `filter`, newest first
 * (`DESK_PAGE_SIZE` a page), with the number of matching requests; a page
 * past the last is the last.
 */
export async function requestsPage(
  db: Database,
  filter: { status?: RequestStatus; search?: string },
  asked: number,
): Promise<ListPage<RequestRow>> {
  const where = requestFilter(filter);
  // A search's rows through its trigram index (migration 0037), then sorted: left to itself, the planner
  // walks the requests newest first and tests the search on each until it has a page, thousands of rows
  // for a name that is not among the newest. OFFSET 0 keeps the subquery apart (a planner's fence).
  const rows = filter.search?.trim()
    ? sql`${contacts.id} in (select ${contacts.id} from ${contacts} where ${where} offset 0)`
    : where;
  return readPage(
    asked,
    async () => (await db.select({ total: count() }).from(contacts).where(where))[0]!.total,
    (limit, offset) =>
      db
        .select()
        .from(contacts)
        .where(rows)
        .orderBy(...newestFirst)
        .limit(limit)
        .offset(offset),
  );
}

/** Every request matching `filter`, newest first, 500 a query (`keysetBatches`): the CSV's rows. */
export function requestBatches(
  db: Database,
  filter: { status?: RequestStatus; search?: string },
): AsyncGenerator<RequestRow[]> {
  return keysetBatches((after, size) =>
    db
      .select()
      .from(contacts)
      .where(
        and(
          requestFilter(filter),
          after
            ? sql`(${contacts.createdAt}, ${contacts.id}) < (${after.createdAt}::timestamptz, ${after.id})`
            : undefined,
        ),
      )
      .orderBy(...newestFirst)
      .limit(size),
  );
}

export async function getRequest(db: Database, id: number) {
  const [request] = await db.select().from(contacts).where(eq(contacts.id, id));
  if (!request) return null;
  const history = await db
    .select()
    .from(contactEvents)
    .where(eq(contactEvents.contactId, id))
    .orderBy(asc(contactEvents.at), asc(contactEvents.id));
  const mails = await mailStateOf(db, { contactId: id });
  return { request, history, mails };
}

/**
 * Changes the status: "changed", "unchanged" (it already was: nothing is
 * recorded), or null when the request does not exist.
 */
export async function setStatus(
  db: Database,
  id: number,
  status: RequestStatus,
): Promise<"changed" | "unchanged" | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: contacts.status })
      .from(contacts)
      .where(eq(contacts.id, id))
      .for("update");
    if (!current) return null;
    if (current.status === status) return "unchanged";
    await tx
      .update(contacts)
      .set({ status, lastActivityAt: sql`now()` })
      .where(eq(contacts.id, id));
    await tx.insert(contactEvents).values({ contactId: id, fromStatus: current.status, toStatus: status });
    return "changed";
  });
}

/** Replaces the note (at most 5,000 characters); false when the request does not exist. */
export async function setNote(db: Database, id: number, note: string): Promise<boolean> {
  const changed = await db
    .update(contacts)
    .set({ note: note.slice(0, 5000), lastActivityAt: sql`now()` })
    .where(eq(contacts.id, id))
    .returning({ id: contacts.id });
  return changed.length === 1;
}

/**
 * Sends a failed notification of request `contactId` again (`resendMail`).
 * False when `mailId` is not a failed mail of that request.
 */
export async function resendNotification(db: Database, contactId: number, mailId: number): Promise<boolean> {
  const mails = await mailStateOf(db, { contactId });
  if (!mails.some((mail) => mail.id === mailId && mail.failedAt)) return false;
  return resendMail(db, mailId);
}

/** The contact requests as CSV (the desk's spreadsheet format, `REQUEST_COLUMNS`). */
/** The requests matching `filter` as the desk's CSV, streamed (`requestBatches`). */
export function requestsCsvStream(db: Database, filter: { status?: RequestStatus; search?: string }) {
  return spreadsheetCsvStream(REQUEST_COLUMNS, requestBatches(db, filter));
}
