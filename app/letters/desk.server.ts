/**
 * The letters' and certificates' part of the desk's session page
 * (`/admin/cours/:id`, section « Courrier et attestations »):
 * - `paperSection(db, sessionId)`: each confirmed registrant with whether
 *   they have an e-mail and a postal address, the days letters were posted
 *   to them, and whether they were marked present at least once;
 * - the page's intents `letters-sent` (the ticked registrants' letters
 *   posted today, Swiss time) and `letter-address` (the address a letter
 *   goes to), each answering the page's `{ message }` or a 400 with the
 *   address form's errors;
 * - `windowSide(param)`: the window chosen on the page (« gauche » /
 *   « droite », right by default, as the invoices).
 */
import { and, eq, inArray } from "drizzle-orm";
import { data } from "react-router";
import { z } from "zod";
import { clockContext, dbContext, loggerContext, ownerContext, type RequestContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { courseAttendance } from "~/db/schema";
import { audit, type AuditAction } from "~/desk/audit.server";
import type { DeskIntentArgs } from "~/desk/intent.server";
import { listRegistrations } from "~/courses/registrations.server";
import type { SessionAnswer } from "~/courses/session-desk/actions.server";
import type { WindowSide } from "~/paper/layout.server";
import { isoDateInZurich } from "~/utils/format";
import { hasAddress, lettersSentOf, markLettersSent, saveLetterAddress, withoutEmail } from "./letters.server";

/** The window side a query's `fenetre` names: « gauche » is left, anything else right. */
export const windowSide = (param: string | null): WindowSide => (param === "gauche" ? "left" : "right");

/** One registrant in the section. */
export interface PaperPerson {
  id: number;
  name: string;
  withoutEmail: boolean;
  /** « Rue du Lac 3, 1800 Vevey », or null when none is known. */
  address: string | null;
  /** The days letters were posted to them, in words. */
  sent: string[];
  /** Marked present on at least one date (a certificate can be printed). */
  present: boolean;
}

/** The section's registrants (confirmed, in arrival order). @throws the driver's error. */
export async function paperSection(db: Database, sessionId: number): Promise<PaperPerson[]> {
  const rows = (await listRegistrations(db, sessionId)).filter((row) => row.status === "confirmed");
  const ids = rows.map((row) => row.id);
  const [sent, present] = await Promise.all([
    lettersSentOf(db, ids),
    ids.length
      ? db
          .selectDistinct({ id: courseAttendance.registrationId })
          .from(courseAttendance)
          .where(and(inArray(courseAttendance.registrationId, ids), eq(courseAttendance.state, "present")))
      : Promise.resolve([]),
  ]);
  const presentIds = new Set(present.map((row) => row.id));
  return rows.map((row) => ({
    id: row.id,
    name: `${row.firstName} ${row.lastName}`,
    withoutEmail: withoutEmail(row),
    address: hasAddress(row) ? `${row.postalStreet}, ${row.postalCode} ${row.postalLocality}` : null,
    sent: sent.get(row.id) ?? [],
    present: presentIds.has(row.id),
  }));
}

/** The ids posted as `inscription` (several allowed), whole numbers only. */
export const postedIds = (form: FormData) =>
  form
    .getAll("inscription")
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0);

/** One audit row by the signed-in owner (ids and counts only). */
function auditLetters(context: RequestContext, action: AuditAction, details: Record<string, number>) {
  return audit(
    context.get(dbContext),
    { actor: context.get(ownerContext).userId, action, details },
    context.get(loggerContext),
  );
}

/** What `letters-sent` says when no box was ticked (400). */
export const NONE_TICKED = "Cochez d’abord les personnes à qui vous avez envoyé une lettre.";

/** What `letters-sent` says once `count` letters were noted; `none` when there were none. */
export const lettersSentMessage = (count: number, none: string) =>
  count === 0 ? none : `${count === 1 ? "1 lettre notée envoyée" : `${count} lettres notées envoyées`} aujourd’hui.`;

/** `letters-sent`: the ticked registrants' letters were posted today. */
export async function lettersSentIntent({ form, context, id }: DeskIntentArgs) {
  const ids = postedIds(form);
  if (ids.length === 0) return data<SessionAnswer>({ message: NONE_TICKED }, { status: 400 });
  const today = isoDateInZurich(context.get(clockContext).now());
  const count = await markLettersSent(context.get(dbContext), id, ids, today);
  if (count > 0) await auditLetters(context, "letters-sent", { session: id, letters: count });
  return data<SessionAnswer>({
    message: lettersSentMessage(count, "Aucune de ces personnes n’est inscrite à cette séance : rien n’a été noté."),
  });
}

/** The address form's fields, as the booking form checks an invoice's address. */
const addressSchema = z.object({
  street: z.string().trim().min(1, "Indiquez la rue et le numéro").max(70, "Au plus 70 caractères"),
  postalCode: z
    .string()
    .trim()
    .regex(/^[1-9]\d{3}$/, "Le NPA a 4 chiffres, par exemple 1800"),
  locality: z.string().trim().min(1, "Indiquez la localité").max(35, "Au plus 35 caractères"),
});

/** `letter-address`: the address a registrant's letter goes to. */
export async function letterAddressIntent({ form, context, id }: DeskIntentArgs) {
  const registration = Number(form.get("inscription"));
  const parsed = addressSchema.safeParse({
    street: form.get("rue") ?? "",
    postalCode: form.get("npa") ?? "",
    locality: form.get("localite") ?? "",
  });
  if (!parsed.success)
    return data<SessionAnswer>(
      {
        message: `Adresse non enregistrée : ${parsed.error.issues.map((issue) => issue.message).join(" ; ")}.`,
      },
      { status: 400 },
    );
  const saved =
    Number.isSafeInteger(registration) &&
    (await saveLetterAddress(context.get(dbContext), id, registration, parsed.data));
  if (!saved) throw data(null, { status: 404 });
  await auditLetters(context, "letter-address-saved", { session: id, registration });
  return data<SessionAnswer>({ message: "Adresse enregistrée : la lettre peut être imprimée." });
}
