/**
 * The person page's sentences (`/admin/personne`): what an erasure will do
 * (`describePlan`, shown before confirming) and what it did
 * (`describeResult`, read back from the redirect's query, which carries
 * counts and ids only: `encodeCounts`).
 */
import { inArray } from "drizzle-orm";
import type { RegistrationRow } from "~/courses/booking.server";
import { sessionNames } from "~/courses/person.server";
import type { Database } from "~/db/client.server";
import { courseRegistrations, courseSessions } from "~/db/schema";
import { tableKey, type FoundPerson } from "~/desk/person-registry.server";
import type { ErasurePlan } from "~/desk/person-types";
import { describeCounts, PERSON_TABLES, planCounts } from "~/features.server";
import { typeset } from "~/utils/typography";
import { ofName } from "~/utils/format";

/** `{ contacts: 2, outbox: 3 }` as the result's query value `contacts:2,outbox:3`. */
export function encodeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([table, count]) => `${table}:${count}`)
    .join(",");
}

/** The counts of a result's query value; tables outside the registry and malformed parts are dropped. */
function decodeCounts(value: string | null): Record<string, number> | null {
  if (!value) return null;
  const known = new Set(PERSON_TABLES.map(tableKey));
  const counts = Object.fromEntries(
    value
      .split(",")
      .map((part) => /^([a-z_]+):(\d{1,9})$/.exec(part))
      .filter((match): match is RegExpExecArray => match !== null && known.has(match[1]!))
      .map((match) => [match[1]!, Number(match[2])]),
  );
  return Object.keys(counts).length > 0 ? counts : null;
}

/** Ids in a result's query value (`12,13`); anything else is dropped. */
const decodeIds = (value: string | null) =>
  (value ?? "")
    .split(",")
    .filter((part) => /^\d{1,15}$/.test(part))
    .map(Number)
    .slice(0, 100);

/** The confirmation's sentences: what is erased, what is kept and why, the seats freed, who is spared. */
export async function describePlan(db: Database, plan: ErasurePlan, people: FoundPerson[], chosen: string[] | null) {
  const now = Date.now();
  const registrations = plan.tables.course_registrations as { erased: RegistrationRow[]; changed: RegistrationRow[] };
  const kept = registrations.changed;
  const scrubbed = plan.tables.outbox!.changed;
  const freedRows = registrations.erased.filter((row) => row.status === "confirmed");
  const labels = await sessionNames(
    db,
    [...kept, ...freedRows].map((row) => row.sessionId),
  );
  const sessions = await db
    .select({ id: courseSessions.id, startsAt: courseSessions.startsAt, cancelledAt: courseSessions.cancelledAt })
    .from(courseSessions)
    .where(inArray(courseSessions.id, [0, ...freedRows.map((row) => row.sessionId)]));
  const open = new Set(
    sessions.filter((row) => !row.cancelledAt && new Date(row.startsAt).getTime() > now).map((row) => row.id),
  );
  return {
    what: typeset(`Cela efface définitivement : ${describeCounts(planCounts(plan))}.`),
    kept: kept.map((row) =>
      typeset(
        `L’inscription ${ofName(`${row.firstName} ${row.lastName}`)} (${labels.get(row.sessionId) ?? "séance"}) est gardée : sa place reste prise. Seules les coordonnées ${ofName(`${row.bookerFirstName} ${row.bookerLastName ?? ""}`)}, qui l’a inscrit(e), et son message en sont effacés.`,
      ),
    ),
    freed: freedRows
      .filter((row) => open.has(row.sessionId))
      .map((row) =>
        typeset(
          `${row.seats === 2 ? "2 places se libèrent" : "1 place se libère"} pour ${labels.get(row.sessionId)} : vous recevrez un e-mail « Place libérée » avec la première personne de la liste d’attente, s’il y en a une.`,
        ),
      ),
    scrubbed: scrubbed.length
      ? typeset(
          `${scrubbed.length === 1 ? "1 e-mail déjà envoyé, qui concerne aussi une autre personne, est gardé" : `${scrubbed.length} e-mails déjà envoyés, qui concernent aussi d’autres personnes, sont gardés`} sans son contenu.`,
        )
      : null,
    invoices: invoicesKeptSentence(plan.tables.invoices!.changed.length, "plan", plan.tables.quotes?.changed.length),
    spared:
      chosen === null
        ? null
        : typeset(
            `Rien n’est effacé pour ${new Intl.ListFormat("fr", { type: "conjunction" }).format(
              people.filter((person) => !chosen.includes(person.id)).map((person) => person.name),
            )}.`,
          ),
    title: typeset(
      chosen === null
        ? people.length > 1
          ? "Effacer toutes ces personnes ?"
          : "Effacer cette personne ?"
        : `Effacer ${new Intl.ListFormat("fr", { type: "conjunction" }).format(
            people.filter((person) => chosen.includes(person.id)).map((person) => person.name),
          )} ?`,
    ),
  };
}

/**
 * What an erasure does with invoices (CO art. 958f: kept 10 years) and accepted quotes (kept like the
 * invoice they justify, decision 053): `count` invoices and `quotes` quotes kept, said before the
 * erasure ("plan") or after it ("done"); null when there is none.
 */
function invoicesKeptSentence(count: number, when: "plan" | "done", quotes = 0): string | null {
  const sentences: string[] = [];
  if (count) {
    const what = count === 1 ? "1 facture est gardée" : `${count} factures sont gardées`;
    sentences.push(
      `${what} 10 ans, comme la loi le demande (Code des obligations, art. 958f) : le nom et l’adresse y restent ; l’e-mail et le téléphone ${when === "plan" ? "en seront effacés" : "en sont effacés"}.`,
    );
  }
  if (quotes) {
    const what = quotes === 1 ? "1 devis accepté est gardé" : `${quotes} devis acceptés sont gardés`;
    sentences.push(
      `${what} comme la facture qu’il justifie : l’organisation, l’adresse et les montants y restent ; l’e-mail, le téléphone et la liste des participants ${when === "plan" ? "en seront effacés" : "en sont effacés"}.`,
    );
  }
  return sentences.length ? typeset(sentences.join(" ")) : null;
}

/** The result's sentences, from the redirect's query (ids and counts only). */
export async function describeResult(db: Database, params: URLSearchParams) {
  const erased = decodeCounts(params.get("effacement"));
  if (!erased) return null;
  const kept = decodeIds(params.get("gardees"));
  const keptRows = kept.length
    ? await db
        .select({
          firstName: courseRegistrations.firstName,
          lastName: courseRegistrations.lastName,
          sessionId: courseRegistrations.sessionId,
        })
        .from(courseRegistrations)
        .where(inArray(courseRegistrations.id, kept))
    : [];
  const freed = decodeIds(params.get("liberees"));
  const labels = await sessionNames(db, [...keptRows.map((row) => row.sessionId), ...freed]);
  const scrubbed = decodeIds(params.get("videes"))[0] ?? 0;
  const invoicesKept = decodeIds(params.get("factures"))[0] ?? 0;
  const quotesKept = decodeIds(params.get("devis"))[0] ?? 0;
  return {
    summary: typeset(`Effacement terminé : ${describeCounts(erased)}.`),
    kept: keptRows.map((row) =>
      typeset(
        `L’inscription ${ofName(`${row.firstName} ${row.lastName}`)} (${labels.get(row.sessionId) ?? "séance"}) est gardée ; les coordonnées de la personne qui l’avait inscrit(e) sont effacées.`,
      ),
    ),
    freed: freed
      .filter((id) => labels.has(id))
      .map((id) => ({
        id,
        text: typeset(
          `Place libérée pour ${labels.get(id)} : l’e-mail « Place libérée » vous dit qui attend en premier sur la liste d’attente. Le site lui propose la place ; la page de la séance montre sa réponse (sans e-mail, appelez-la).`,
        ),
      })),
    scrubbed: scrubbed
      ? typeset(
          scrubbed === 1
            ? "1 e-mail déjà envoyé est gardé pour vos dossiers, sans son contenu."
            : `${scrubbed} e-mails déjà envoyés sont gardés pour vos dossiers, sans leur contenu.`,
        )
      : null,
    invoices: invoicesKeptSentence(invoicesKept, "done", quotesKept),
  };
}
