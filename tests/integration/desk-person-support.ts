/**
 * The people of the desk-person tests: Marie, with two contact requests
 * (her e-mail in capitals, her mobile typed two ways), a pending newsletter
 * subscription, a course registration and an invoice; and Jean, who asked
 * nothing of it and whose rows must stay.
 */
import { expect } from "vitest";
import { sql } from "drizzle-orm";
import { createSession, zurichToUtc } from "../../app/courses/sessions.server";
import { contacts, courseRegistrations, outbox, postalLetters } from "../../app/db/schema";
import { setStatus } from "../../app/contact/requests.server";
import type { PersonKey } from "../../app/desk/person-types";
import { loadSettings } from "../../app/config/settings.server";
import { invoiceCreditor } from "../../app/invoices/creditor.server";
import { requestContext } from "../../app/context.server";
import { createInvoice } from "../../app/invoices/invoices.server";
import { createQuote } from "../../app/quotes/quotes.server";
import type { startTestServer } from "../support/harness";
import { postBooking, postContact, sessionFields, silentLogger, validForm } from "../support/harness";

type TestSite = Awaited<ReturnType<typeof startTestServer>>;

export const marie: PersonKey = { email: "marie.dupont@example.ch", phoneE164: "+41791234567" };
export const jean: PersonKey = { email: "jean.muller@example.ch", phoneE164: "+41217654321" };

/** Posts a request from the public form; resolves with its id. */
export async function sendRequest(site: TestSite, fields: Record<string, string>): Promise<number> {
  const answer = await postContact(site.url, { ...validForm(), ...fields });
  expect(answer.status, answer.body.slice(0, 200)).toBeLessThan(400);
  const [row] = await site.database.db
    .select({ id: contacts.id })
    .from(contacts)
    .orderBy(sql`${contacts.id} desc`)
    .limit(1);
  return row!.id;
}

/**
 * Writes Marie's and Jean's rows through `site` (the public forms where
 * there is one) and the database.
 * @returns the path of Marie's course registration's link (`/cours/inscription/{token}`).
 */
export async function seedMarieAndJean(site: TestSite): Promise<string> {
  // Marie: one request with her e-mail in capitals and her mobile typed the Swiss way, a second
  // from another address with the same mobile typed internationally, a status change, and a mail
  // that is linked to no request but carries her e-mail in its data (as rows written before mails
  // were rendered did). Her first request asks for the newsletter: a pending subscription and its mail.
  const first = await sendRequest(site, {
    email: "Marie.Dupont@Example.ch",
    phone: "079 123 45 67",
    newsletterConsent: "on",
  });
  await sendRequest(site, { email: "m.dupont@example.org", phone: "+41 79 123 45 67" });
  await setStatus(site.database.db, first, "en-cours");
  await site.database.db
    .insert(outbox)
    .values({ kind: "newsletter-confirmation", payload: { email: "marie.dupont@example.ch" } });
  // Marie also registered for a course (with her mobile typed another way): a registration and its mails.
  const sessionId = await createSession(
    site.database.db,
    sessionFields({ startsAt: zurichToUtc("2030-01-15", "14:00") }),
  );
  const registered = await postBooking(site.url, "securite", {
    sessionId: String(sessionId),
    firstName: "Marie",
    lastName: "Dupont",
    phone: "+41 79 123 45 67",
    seats: "1",
    website: "",
  });
  expect(registered.status).toBe(303);
  const marieLink = registered.headers.get("location")!;
  // The owner invoiced her course (her e-mail in capitals, her mobile typed the Swiss way).
  const [registration] = await site.database.db.select({ id: courseRegistrations.id }).from(courseRegistrations);
  // She has no e-mail on her registration: the owner posted her a letter.
  await site.database.db.insert(postalLetters).values({ registrationId: registration!.id, sentOn: "2026-11-26" });
  const creditor = await invoiceCreditor(
    requestContext({
      settings: loadSettings({ INVOICE_IBAN: "CH5604835012345678009" }),
      db: site.database.db,
      logger: silentLogger,
    }),
  );
  if (!creditor.ok) throw new Error("INVOICE_IBAN is set above");
  await createInvoice(
    site.database.db,
    {
      clientKind: "person",
      clientName: "Marie Dupont",
      clientAttention: null,
      street: "Rue du Lac",
      buildingNumber: "12",
      postalCode: "1800",
      locality: "Vevey",
      country: "CH",
      email: "Marie.Dupont@Example.ch",
      phone: "079 123 45 67",
      lines: [{ label: "Cours « Sécurité et protection »", quantity: 1, unitCentimes: 5500 }],
      issuedOn: "2026-11-25",
      dueOn: "2026-12-25",
      registrationId: registration!.id,
      contactId: null,
    },
    creditor.creditor,
  );
  // A quote for her club, still a draft (decision 053: erased with her, unlike an accepted one).
  await createQuote(
    site.database.db,
    {
      clientName: "Club des aînés de Vevey",
      clientAttention: "Marie Dupont",
      street: "Rue du Lac",
      buildingNumber: "12",
      postalCode: "1800",
      locality: "Vevey",
      country: "CH",
      email: "marie.dupont@example.ch",
      phone: null,
      lines: [{ label: "Conférence", quantity: 1, unitCentimes: 50000 }],
      issuedOn: "2026-11-25",
      validUntil: "2026-12-25",
      groupSize: 12,
      courseId: "securite",
      startsAt: zurichToUtc("2030-03-05", "14:00"),
      durationMinutes: 90,
      placeName: "Salle communale",
      placeAddress: "Rue du Lac 3, 1800 Vevey",
      contactId: null,
    },
    creditor.creditor,
  );
  // Jean, who asked nothing, and whose rows must stay.
  await sendRequest(site, {
    firstName: "Jean",
    lastName: "Muller",
    email: jean.email!,
    phone: "021 765 43 21",
    message: "Mon voisin, Marie Dupont, m’a parlé de vous.",
  });
  return marieLink;
}
