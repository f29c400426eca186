/**
 * What the desk's « Nouvelle facture » form starts with (`draftStart`):
 * empty, or the client and line of a registration booked « sur facture »
 * or of a contact request; and why no invoice is made from a registration
 * paid « sur place » (`invoiceRefusal`, `PAID_ON_SITE_REFUSAL`).
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { contacts, courseRegistrations, courseSessions } from "~/db/schema";
import { seriesLessons } from "~/courses/seats.server";
import { courseBySlug, seriesSessions } from "~/courses/sessions.server";
import { formatDate, formatDateTime, isoDateInZurich } from "~/utils/format";
import { splitStreet } from "./creditor.server";
import { addDays, DEFAULT_DUE_DAYS } from "./invoices.server";

/** « Rue du Lac 12 » as the form's street and number fields (« Rue du Lac », « 12 »); no number: all street. */
function streetAndNumber(line: string): { street: string; buildingNumber: string } {
  const { street, buildingNumber } = splitStreet(line);
  return { street, buildingNumber: buildingNumber ?? "" };
}

/** What the form of a new invoice starts with: empty, or the client and line of a registration or request. */
export interface DraftStart {
  values: Record<string, string>;
  /** Where it comes from, in words ("Inscription n° 12 : « Smartphone », mardi 12 janvier 2027, 14 h 00"). */
  from: string | null;
  /** Why no invoice is made from this registration (it pays on site), in French; then no form is shown. */
  refused?: string;
}

/**
 * Why the desk makes no invoice from a registration paid « sur place »: the site promised the person
 * that no invoice would come (app/content/payment.ts, `INVOICE_RULE`).
 */
export const PAID_ON_SITE_REFUSAL =
  "Pas de facture pour cette inscription : elle se paie sur place, le jour du cours, en espèces ou par TWINT. Le site a promis à la personne qu’aucune facture ne lui viendrait pour un cours réservé ainsi (« Ce que je ne vous demanderai jamais », page Confiance). Si vous en avez convenu autrement avec elle, faites une facture sans partir de l’inscription (« Nouvelle facture »).";

/**
 * Whether an invoice may be made from registration `registrationId`: null when it pays « sur facture »
 * (or is unknown: the form's other checks answer), else why not (`PAID_ON_SITE_REFUSAL`).
 * @throws the driver's error.
 */
export async function invoiceRefusal(db: Database, registrationId: number): Promise<string | null> {
  const [row] = await db
    .select({ paysBy: courseRegistrations.paysBy })
    .from(courseRegistrations)
    .where(eq(courseRegistrations.id, registrationId));
  return row?.paysBy === "sur-place" ? PAID_ON_SITE_REFUSAL : null;
}

/**
 * The start of an invoice for a registration booked « sur facture » (the attendee as the client, at the
 * postal address given when booking; one line: the course, its date (a series: « 4 séances : » and each
 * date) and seats at its price; a registration paid « sur place »: `refused`, no values) or a contact
 * request (the
 * person or organisation, no line). Unknown ids: an empty start.
 * @throws the driver's error.
 */
export async function draftStart(
  db: Database,
  source: { registration?: number; contact?: number },
  today: string,
): Promise<DraftStart> {
  const values: Record<string, string> = {
    clientKind: "person",
    country: "CH",
    issuedOn: today,
    dueOn: addDays(today, DEFAULT_DUE_DAYS),
  };
  if (source.registration) {
    const [row] = await db
      .select({ registration: courseRegistrations, session: courseSessions })
      .from(courseRegistrations)
      .innerJoin(courseSessions, eq(courseSessions.id, courseRegistrations.sessionId))
      .where(eq(courseRegistrations.id, source.registration));
    if (row) {
      const { registration, session } = row;
      const title = courseBySlug(session.courseId)?.title ?? session.courseId;
      const when = formatDateTime(session.startsAt);
      const from = `Inscription n° ${registration.id} : « ${title} », ${when}`;
      // Booked « sur place »: the site promised no invoice would come.
      if (registration.paysBy !== "facture") return { values, from, refused: PAID_ON_SITE_REFUSAL };
      // A series is invoiced once, at its price, for all its dates (« 4 séances : … »), not its first date alone.
      const lessons = registration.seriesId ? seriesLessons(await seriesSessions(db, [registration.seriesId])) : [];
      const dates = lessons.map((lesson) => formatDate(isoDateInZurich(lesson.startsAt)));
      const what =
        dates.length > 1 ? `${dates.length} séances : ${dates.slice(0, -1).join(", ")} et ${dates.at(-1)}` : when;
      Object.assign(values, {
        registrationId: String(registration.id),
        clientName: `${registration.firstName} ${registration.lastName}`,
        email: registration.email ?? registration.bookerEmail ?? "",
        phone: registration.phone,
        "label-0": `Cours « ${title} », ${what}`,
        "quantity-0": String(registration.seats),
        "price-0": String(session.priceChf),
        // The address given when booking « sur facture ».
        ...streetAndNumber(registration.postalStreet ?? ""),
        postalCode: registration.postalCode ?? "",
        locality: registration.postalLocality ?? "",
      });
      return { values, from };
    }
  }
  if (source.contact) {
    const [row] = await db.select().from(contacts).where(eq(contacts.id, source.contact));
    if (row) {
      const organisation = row.organisation?.trim();
      Object.assign(values, {
        contactId: String(row.id),
        clientKind: organisation ? "organisation" : "person",
        clientName: organisation || `${row.firstName} ${row.lastName}`,
        clientAttention: organisation ? `${row.firstName} ${row.lastName}` : "",
        email: row.email ?? "",
        phone: row.phone,
        ...(row.commune ? { locality: row.commune } : {}),
      });
      return { values, from: `Demande n° ${row.id} du ${formatDateTime(row.createdAt)}` };
    }
  }
  return { values, from: null };
}
