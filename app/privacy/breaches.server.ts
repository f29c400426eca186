/**
 * The breach log (« Journal des violations », LPD art. 24, OPDo art. 15):
 * what the owner documents of each breach of data security, on the desk.
 *
 * - `readBreachForm(form)`: the desk's form read by the zod schema
 *   `breachFormSchema` through Conform's `parseWithZod`: a `BreachDraft`, or
 *   each field's French message and what was typed. Never throws.
 * - `listBreaches(db)`, `getBreach(db, id)`: newest discovery first.
 * - `recordBreach(db, draft, actor)`, `updateBreach(db, id, draft, actor)`:
 *   write it and one audit line (`breach-recorded`, `breach-updated`: the id
 *   only), in one transaction. The retention job never deletes a breach.
 * Each database function @throws the driver's error.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { dataBreaches } from "~/db/schema";
import { audit } from "~/desk/audit.server";
import { isIsoDate, isoDateOfTyped } from "~/utils/format";

/** A breach as stored. */
export type Breach = typeof dataBreaches.$inferSelect;

/** What the form gives: a breach's fields (dates ISO, null when not given). */
export type BreachDraft = Omit<Breach, "id" | "createdAt" | "updatedAt">;

/** The form's fields, in the form's order. */
export const BREACH_FIELDS = [
  "discoveredOn",
  "occurredOn",
  "whatHappened",
  "dataConcerned",
  "peopleConcerned",
  "peopleCount",
  "risk",
  "riskAssessment",
  "measures",
  "fdpicToldOn",
  "peopleToldOn",
] as const;

/** The form's answer. */
export type BreachFormResult =
  { ok: true; draft: BreachDraft } | { ok: false; errors: Record<string, string>; values: Record<string, string> };

const DATE_EXAMPLE = "par exemple 25.11.2026";

/** A date field: required (`missing`) or optional (empty gives null). */
const date = (missing?: string) =>
  z
    .string()
    .transform(isoDateOfTyped)
    .refine((value) => (value === "" ? !missing : isIsoDate(value)), {
      error: (issue) => (issue.input === "" ? missing : `Écrivez une date valable, ${DATE_EXAMPLE}.`),
    })
    .transform((value) => value || null);

/** A text field of at most `max` characters; `missing` when empty. */
const text = (max: number, missing: string) =>
  z
    .string()
    .refine((value) => value.length > 0, missing)
    .refine((value) => value.length <= max, `Au plus ${max} caractères.`);

/** What was typed: at most 5000 characters, trimmed (line breaks kept: descriptions are paragraphs). */
const cleaned = (value: unknown) => (typeof value === "string" ? value.slice(0, 5000) : "").trim();

const breachFields = z.object({
  discoveredOn: date(`Indiquez le jour où vous l’avez découverte, ${DATE_EXAMPLE}.`),
  occurredOn: date(),
  whatHappened: text(4000, "Décrivez ce qui s’est passé."),
  dataConcerned: text(1000, "Indiquez quelles données sont concernées (par exemple : noms et téléphones)."),
  peopleConcerned: text(1000, "Indiquez quelles personnes sont concernées (par exemple : participants aux cours)."),
  peopleCount: z
    .string()
    .refine((value) => value === "" || /^\d{1,7}$/.test(value), "Écrivez un nombre entier, ou laissez vide.")
    .transform((value) => (value === "" ? null : Number(value))),
  risk: z
    .string()
    .refine((value) => value === "faible" || value === "eleve", "Choisissez si le risque est élevé ou non.")
    .transform((value) => value === "eleve"),
  riskAssessment: text(4000, "Expliquez le risque pour les personnes concernées."),
  measures: text(4000, "Indiquez les mesures prises ou prévues."),
  fdpicToldOn: date(),
  peopleToldOn: date(),
});

/** The breach form (see the module's comment), read with Conform's `parseWithZod`; gives a `BreachDraft`. */
export const breachFormSchema = z
  .preprocess(
    (input) =>
      Object.fromEntries(BREACH_FIELDS.map((name) => [name, cleaned((input as Record<string, unknown>)?.[name])])),
    breachFields,
  )
  .superRefine((value, context) => {
    const issue = (name: string, message: string) => context.addIssue({ code: "custom", path: [name], message });
    const discovered = value.discoveredOn;
    if (!discovered) return;
    if (value.occurredOn && value.occurredOn > discovered)
      issue("occurredOn", "Une violation ne peut pas avoir eu lieu après sa découverte.");
    if (value.fdpicToldOn && value.fdpicToldOn < discovered)
      issue("fdpicToldOn", "L’annonce ne peut pas précéder la découverte.");
    if (value.peopleToldOn && value.peopleToldOn < discovered)
      issue("peopleToldOn", "L’information ne peut pas précéder la découverte.");
  })
  .transform(({ risk, discoveredOn, ...rest }): BreachDraft => ({
    ...rest,
    discoveredOn: discoveredOn!,
    highRisk: risk,
  }));

/** Reads and checks the form; each field's first French message. */
export function readBreachForm(form: FormData): BreachFormResult {
  const submission = parseWithZod(form, { schema: breachFormSchema, disableAutoCoercion: true });
  if (submission.status === "success") return { ok: true, draft: submission.value };
  const values: Record<string, string> = {};
  for (const name of BREACH_FIELDS) {
    const value = form.get(name);
    if (typeof value === "string") values[name] = value.slice(0, 5000);
  }
  const errors = Object.fromEntries(
    Object.entries(submission.error ?? {}).flatMap(([name, messages]) => (messages?.[0] ? [[name, messages[0]]] : [])),
  );
  return { ok: false, errors, values };
}

/** A stored breach as the form's values (to edit it). */
export function breachValues(breach: Breach): Record<string, string> {
  return {
    discoveredOn: breach.discoveredOn,
    occurredOn: breach.occurredOn ?? "",
    whatHappened: breach.whatHappened,
    dataConcerned: breach.dataConcerned,
    peopleConcerned: breach.peopleConcerned,
    peopleCount: breach.peopleCount === null ? "" : String(breach.peopleCount),
    risk: breach.highRisk ? "eleve" : "faible",
    riskAssessment: breach.riskAssessment,
    measures: breach.measures,
    fdpicToldOn: breach.fdpicToldOn ?? "",
    peopleToldOn: breach.peopleToldOn ?? "",
  };
}

/** Every breach, the latest discovered first. */
export const listBreaches = (db: Database): Promise<Breach[]> =>
  db.select().from(dataBreaches).orderBy(desc(dataBreaches.discoveredOn), desc(dataBreaches.id));

/** One breach, or null. */
export async function getBreach(db: Database, id: number): Promise<Breach | null> {
  const [row] = await db.select().from(dataBreaches).where(eq(dataBreaches.id, id));
  return row ?? null;
}

/** Records a new breach and audits it. @returns its id. */
export function recordBreach(db: Database, draft: BreachDraft, actor: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(dataBreaches).values(draft).returning({ id: dataBreaches.id });
    await audit(tx, { actor, action: "breach-recorded", details: { breach: row!.id } });
    return row!.id;
  });
}

/** Changes a breach and audits it. @returns false when there is no such breach (nothing written). */
export function updateBreach(db: Database, id: number, draft: BreachDraft, actor: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(dataBreaches)
      .set({ ...draft, updatedAt: sql`now()` })
      .where(eq(dataBreaches.id, id))
      .returning({ id: dataBreaches.id });
    if (changed.length === 0) return false;
    await audit(tx, { actor, action: "breach-updated", details: { breach: id } });
    return true;
  });
}
