/**
 * Letters for the post from the call list « À appeler demain » (issue 31,
 * item 1; decision 058): the people on it are those whom no reminder
 * reaches; those with a postal address get the same letter as from their
 * session's page (`lettersOf`), all in one PDF, and the owner notes them
 * posted (`postal_letters`, shown on the person's page).
 *
 * - `callListPaper(db, lines)`: each registration of the list once, with
 *   its address and the days letters were posted to it.
 * - `callListLetters(db, lines, chosen)`: the letters of the registrations
 *   `chosen` (all of the list when null) that have an address.
 * - `callListLettersSentIntent(args)`: the list page's `letters-sent`: the
 *   ticked registrations of the list noted posted today (Swiss time),
 *   audited as the session page does (one line per session: its id and
 *   the count).
 */
import { inArray } from "drizzle-orm";
import { data } from "react-router";
import { clockContext, dbContext, loggerContext, ownerContext, settingsContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { courseRegistrations } from "~/db/schema";
import { audit } from "~/desk/audit.server";
import type { DeskIntentArgs } from "~/desk/intent.server";
import { callList, type CallLine } from "~/courses/reminder-channels.server";
import { isoDateInZurich } from "~/utils/format";
import { lettersSentMessage, NONE_TICKED, postedIds, type PaperPerson } from "./desk.server";
import { hasAddress, lettersOf, lettersSentOf, markLettersSent, withoutEmail, type Letter } from "./letters.server";

/** One person of the call list, as its letters' form shows them; `sessionId` is where an address is added. */
export type CallListPerson = Omit<PaperPerson, "present"> & { sessionId: number };

/** The list's registrations once each (their first line), in the list's order. */
const firstLines = (lines: readonly CallLine[]) =>
  lines.filter((line, index) => lines.findIndex((other) => other.registrationId === line.registrationId) === index);

/** Each registration of the call list `lines` once, with its address and the days letters were posted. @throws the driver's error. */
export async function callListPaper(db: Database, lines: readonly CallLine[]): Promise<CallListPerson[]> {
  const people = firstLines(lines);
  const ids = people.map((line) => line.registrationId);
  if (ids.length === 0) return [];
  const [rows, sent] = await Promise.all([
    db.select().from(courseRegistrations).where(inArray(courseRegistrations.id, ids)),
    lettersSentOf(db, ids),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return people.flatMap((line) => {
    const row = byId.get(line.registrationId);
    return row
      ? [
          {
            id: row.id,
            sessionId: line.sessionId,
            name: line.name,
            withoutEmail: withoutEmail(row),
            address: hasAddress(row) ? `${row.postalStreet}, ${row.postalCode} ${row.postalLocality}` : null,
            sent: sent.get(row.id) ?? [],
          },
        ]
      : [];
  });
}

/** `ids` (every registration of `lines` when null) kept to the list's, grouped by the session of their line. */
function bySession(lines: readonly CallLine[], ids: readonly number[] | null): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const line of firstLines(lines))
    if (ids === null || ids.includes(line.registrationId))
      groups.set(line.sessionId, [...(groups.get(line.sessionId) ?? []), line.registrationId]);
  return groups;
}

/**
 * The letters of the call list's registrations `chosen` (all when null) that have a postal address,
 * in the list's order of sessions. @throws the driver's error.
 */
export async function callListLetters(
  db: Database,
  lines: readonly CallLine[],
  chosen: readonly number[] | null,
): Promise<Letter[]> {
  const letters: Letter[] = [];
  for (const [sessionId, ids] of bySession(lines, chosen))
    letters.push(...((await lettersOf(db, sessionId, ids))?.letters ?? []));
  return letters;
}

/** The call list of the moment the request is handled, as the page shows it. @throws the driver's error. */
export function currentCallList(context: DeskIntentArgs["context"]): Promise<CallLine[]> {
  return callList(
    context.get(dbContext),
    context.get(clockContext).now(),
    context.get(settingsContext).SMS_PROVIDER !== "log",
  );
}

/** `letters-sent` on the call list: the ticked people of the list noted posted today; others are left out. */
export async function callListLettersSentIntent({ form, context }: DeskIntentArgs) {
  const ticked = postedIds(form);
  if (ticked.length === 0) return data({ message: NONE_TICKED }, { status: 400 });
  const db = context.get(dbContext);
  const today = isoDateInZurich(context.get(clockContext).now());
  let count = 0;
  for (const [sessionId, ids] of bySession(await currentCallList(context), ticked)) {
    const noted = await markLettersSent(db, sessionId, ids, today);
    // One line per session, as its own page writes it: ids and counts only.
    if (noted > 0)
      await audit(
        db,
        {
          actor: context.get(ownerContext).userId,
          action: "letters-sent",
          details: { session: sessionId, letters: noted },
        },
        context.get(loggerContext),
      );
    count += noted;
  }
  return data({
    message: lettersSentMessage(count, "Aucune de ces personnes n’est sur la liste à appeler : rien n’a été noté."),
  });
}
