/**
 * What tests post and seed: a valid contact request, a letter to
 * subscribers, a course session, a booking, an article of the archive.
 */
import { type Database } from "../../app/db/client.server";
import { newsletterSubscribers, type InvoiceCreditor } from "../../app/db/schema";
import type { SessionFields } from "../../app/courses/sessions.server";
import { zurichToUtc } from "../../app/utils/zurich-time.server";
import { COURSE_YEAR } from "./course-year";
import type { ReceivedMail } from "./smtp";

/**
 * A valid contact request as form fields; `email` makes it unique. The
 * newsletter box is left unticked (ticking it sends a confirmation mail as
 * well): add `newsletterConsent: "on"` to tick it.
 */
export function validForm(email = "marie.dupont@example.ch"): Record<string, string> {
  return {
    firstName: "Marie",
    lastName: "Dupont",
    email,
    phone: "+41 21 123 45 67",
    service: "one-to-one-course",
    message: "Bonjour,\nj’aimerais apprendre à utiliser mon smartphone.",
    website: "",
  };
}

/** POSTs a form to /contact as a browser without JavaScript does; returns the status and the body text. */
export async function postContact(
  baseUrl: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${baseUrl}/contact`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: await response.text() };
}

/** The subject of the letter `seedLetter` sends. */
export const SEEDED_LETTER_SUBJECT = "Les arnaques de décembre";

/**
 * Writes `count` confirmed subscribers (`abonne{i}@example.ch`) and one
 * letter sent to them (`sendLetter`: one outbox row each) into `db`.
 * @returns their addresses.
 */
export async function seedLetter(db: Database, count: number, siteUrl: string): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, index) => `abonne${index}@example.ch`);
  for (let start = 0; start < emails.length; start += 250) {
    await db
      .insert(newsletterSubscribers)
      .values(
        emails
          .slice(start, start + 250)
          .map((email) => ({ email, source: "home", consentVersion: "test", status: "confirmed" })),
      );
  }
  // Imported here: the newsletter's letters (Markdown, mail rendering) are heavy for the browser tests'
  // workers, which load this module with the harness and seldom seed a letter.
  const { createLetter, sendLetter } = await import("../../app/newsletter/letters.server");
  const letterId = await createLetter(db, { subject: SEEDED_LETTER_SUBJECT, body: "Méfiez-vous des faux colis." });
  const written = await sendLetter(db, letterId, { siteUrl });
  if (written !== count) throw new Error(`sendLetter wrote ${written} mails for ${count} subscribers`);
  return emails;
}

/**
 * The fields of a course session for tests (`createSession`): the security
 * course, 12 January of `COURSE_YEAR` (tests/support/course-year.ts) at
 * 14 h 00 in Vevey, 2 hours, 8 seats, 4 at least, CHF 55.–; `overrides`
 * change any of them.
 */
export function sessionFields(overrides: Partial<SessionFields> = {}): SessionFields {
  return {
    courseId: "securite",
    startsAt: zurichToUtc(`${COURSE_YEAR}-01-12`, "14:00"),
    durationMinutes: 120,
    placeName: "Salle paroissiale",
    placeAddress: "Rue du Lac 1, 1800 Vevey",
    placeAccess: "Rez-de-chaussée, ascenseur",
    capacity: 8,
    minimum: 4,
    priceChf: 55,
    ...overrides,
  };
}

/**
 * A booking form for `sessionId`, one seat, as a browser without JavaScript
 * posts it to `/cours/{slug}` (`postBooking`); `n` makes the person unique
 * (name, telephone, e-mail); `extra` overrides any field.
 */
export const bookingForm = (sessionId: number, n: number, extra: Record<string, string> = {}) => ({
  sessionId: String(sessionId),
  firstName: "Marie",
  lastName: `Dupont ${n}`,
  // One telephone per person: a telephone registers once per session.
  phone: `079 1${String(n).padStart(6, "0")}`,
  email: `marie${n}@example.ch`,
  seats: "1",
  website: "",
  ...extra,
});

/** POSTs `form` to `/cours/{slug}` on `baseUrl`; the answer (303 to the registration's page) is not followed. */
export function postBooking(baseUrl: string, slug: string, form: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}/cours/${slug}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    body: new URLSearchParams(form).toString(),
  });
}

/**
 * The places left a page shows for session `sessionId` ("7 places restantes",
 * "Complet"), or null when it does not show it: its `<li id="seance-…">`
 * on `/cours` and `/cours/{slug}`, its card link on the home page.
 */
export function placesShown(html: string, sessionId: number): string | null {
  const block =
    new RegExp(`id="seance-${sessionId}"[\\s\\S]*?</li>`).exec(html) ??
    new RegExp(`\\?seance=${sessionId}#inscription"[\\s\\S]*?</a>`).exec(html);
  if (!block) return null;
  return /(\d+ places? restantes?|Complet)/.exec(block[0].replace(/<[^>]+>/g, " "))?.[1] ?? null;
}

/** How many copies of the seeded letter each address received. */
export function lettersByAddress(mails: readonly ReceivedMail[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of mails)
    if (mail.subject === SEEDED_LETTER_SUBJECT) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1);
  return counts;
}

/**
 * Article `n`'s Markdown in the archive `npm run bench:scale` fills: about 8 KB, headings, paragraphs and
 * lists, a page of about 47 KB once rendered.
 */
export function archiveArticleBody(n: number): string {
  const paragraph = `Voici le paragraphe de l’article ${n}, écrit simplement pour les seniors qui découvrent leur téléphone. `;
  const section = (title: string) =>
    `## ${title}\n\n${paragraph.repeat(6)}\n\n- Un premier geste\n- Un deuxième geste\n- Un troisième\n\n`;
  return ["Pourquoi", "Comment", "Sur iPhone", "Sur Android", "En cas de doute", "À retenir"].map(section).join("");
}

/**
 * The creditor an example invoice names (the site's shipped example
 * details, as an invoice row holds them), paid to `iban`; `qrIban` says
 * whether that IBAN is a QR-IBAN.
 */
export function exampleCreditor(iban: string, qrIban: boolean): InvoiceCreditor {
  return {
    name: "Prénom Nom (exemple), Formation & Assistance Informatique",
    street: "Chemin de l’Exemple",
    buildingNumber: "1",
    postalCode: "1000",
    locality: "Lausanne",
    country: "CH",
    iban,
    qrIban,
    uid: null,
    email: "contact@example.com",
    phone: "+41 00 000 00 00",
    vatSubject: false,
    vatMention: "Non assujetti à la TVA (art. 10 LTVA) : montants sans TVA.",
  };
}
