/**
 * The owner ticks or unticks « rappels par SMS » on an existing registration
 * (issue 30 item 2, decision 060): a person who agreed by telephone, or who
 * asks to receive no more SMS. From the desk page of the registration's
 * session (a series: any of its dates) only.
 *
 * `setSmsConsent(db, { sessionId, registrationId, consent })` →
 * `"changed" | "unchanged" | "not-found"`.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { courseRegistrations } from "~/db/schema";
import { onDeskPage } from "./cancel.server";

/** What `setSmsConsent` did. */
export type ConsentResult = "changed" | "unchanged" | "not-found";

/**
 * Sets registration `registrationId`'s SMS consent to `consent`, when it
 * belongs to the desk page of session `sessionId` (its session, or a date
 * of its series). @throws the driver's error.
 */
export async function setSmsConsent(
  db: Database,
  { sessionId, registrationId, consent }: { sessionId: number; registrationId: number; consent: boolean },
): Promise<ConsentResult> {
  const [row] = await db
    .select({
      sessionId: courseRegistrations.sessionId,
      seriesId: courseRegistrations.seriesId,
      smsConsent: courseRegistrations.smsConsent,
    })
    .from(courseRegistrations)
    .where(eq(courseRegistrations.id, registrationId));
  if (!row || !(await onDeskPage(db, row, sessionId))) return "not-found";
  if (row.smsConsent === consent) return "unchanged";
  const updated = await db
    .update(courseRegistrations)
    .set({ smsConsent: consent })
    .where(and(eq(courseRegistrations.id, registrationId), eq(courseRegistrations.smsConsent, !consent)))
    .returning({ id: courseRegistrations.id });
  return updated.length ? "changed" : "unchanged";
}
