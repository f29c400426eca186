/**
 * Issue 31, item 2 (docs/decisions/053-quotes-and-groups.md), through the
 * running site as the owner's browser and the organisation's use it (plain
 * form posts, no JavaScript):
 * - a quote made from a group's contact request (its organisation, contact
 *   person and size), sent (one mail, the PDF attached by the outbox),
 *   accepted; a draft cannot be accepted, an expired quote (the clock) no more;
 *   one without e-mail is noted posted by the owner, then answered;
 * - a draft edited through its form (its number kept, the year of its date
 *   too); once sent it is frozen;
 * - its closed session: not on `/cours` nor `/cours/{slug}`, not bookable,
 *   not in `/sitemap.xml`; the organisation's link page filled with 12 names
 *   by a form post, under the link pages' guards;
 * - « Faire la facture »: the invoice with the quote's lines and total, its
 *   QR-bill to the organisation;
 * - numbers never given twice when 8 quotes are made at once (PGlite, and
 *   PostgreSQL when installed);
 * - the person registry finds, exports and erases them: an accepted quote is
 *   kept without e-mail, telephone and list; a draft goes.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSettings } from "../../app/config/settings.server";
import { requestContext } from "../../app/context.server";
import { zurichToUtc } from "../../app/courses/sessions.server";
import { openDatabase, type Database } from "../../app/db/client.server";
import { auditLog, contacts, courseSessions, invoices, outbox, quotes } from "../../app/db/schema";
import { erasePerson, findPerson } from "../../app/features.server";
import { invoiceCreditor } from "../../app/invoices/creditor.server";
import type { Creditor } from "../../app/invoices/creditor.server";
import { renderInvoicePdf } from "../../app/invoices/pdf.server";
import { createQuote, decideQuote, quoteState, type QuoteDraft } from "../../app/quotes/quotes.server";
import { COURSE_YEAR } from "../support/course-year";
import { checkPayload, readQrBill } from "../support/paper";
import {
  bookingForm,
  createOwner,
  deskFetch,
  linkIn,
  pageText as textOf,
  postBooking,
  openTestDatabase,
  postgresBinaries,
  signIn,
  silentLogger,
  startPostgres,
  startSmtp,
  startTestServer,
  waitFor,
  type CookieJar,
} from "../support/harness";

const IBAN = "CH5604835012345678009";
const PLACE = "Salle des Tilleuls";
const COURSE = "applications-mobiles";
let site: Awaited<ReturnType<typeof startTestServer>>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let jar: CookieJar;
let requestId: number;
let quoteId: number;
let creditor: Creditor;
const today = new Date().toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The form of the group's quote: CHF 1’250.– for a talk on mardi 2 mars, 14 h 00, of `COURSE_YEAR`
 * (a year to come with 2027's calendar, so that the talk never falls in the past).
 */
const quoteForm = (overrides: Record<string, string> = {}): Record<string, string> => ({
  contactId: String(requestId),
  clientName: "Club des aînés de Vevey",
  clientAttention: "Jeanne Favre",
  street: "Rue du Lac",
  buildingNumber: "12",
  postalCode: "1800",
  locality: "Vevey",
  country: "CH",
  email: "jeanne.favre@example.ch",
  phone: "021 311 22 33",
  "label-0": "Conférence « Le smartphone sans stress »",
  "quantity-0": "1",
  "price-0": "850",
  "label-1": "Préparation (heures)",
  "quantity-1": "2",
  "price-1": "95",
  "label-2": "Déplacement (km)",
  "quantity-2": "60",
  "price-2": "0.70",
  "label-3": "Matériel imprimé",
  "quantity-3": "12",
  "price-3": "14",
  issuedOn: today,
  dueOn: inDays(30),
  groupSize: "12",
  courseId: COURSE,
  sessionDate: `${COURSE_YEAR}-03-02`,
  sessionTime: "14:00",
  durationMinutes: "90",
  placeName: PLACE,
  placeAddress: "Rue du Lac 3, 1800 Vevey",
  ...overrides,
});

/** A quote's draft as the functions take it, for the ones made without the form. */
const draft = (): QuoteDraft => ({
  clientName: "Commune de Blonay",
  clientAttention: null,
  street: "Route du Village",
  buildingNumber: "1",
  postalCode: "1807",
  locality: "Blonay",
  country: "CH",
  email: null,
  phone: null,
  lines: [{ label: "Atelier", quantity: 1, unitCentimes: 50000 }],
  issuedOn: "2026-11-27",
  validUntil: "2026-12-27",
  groupSize: 8,
  courseId: COURSE,
  startsAt: zurichToUtc(`${COURSE_YEAR}-03-02`, "14:00"),
  durationMinutes: 90,
  placeName: "Salle du Conseil",
  placeAddress: "Route du Village 1, 1807 Blonay",
  contactId: null,
});

const post = (form: Record<string, string>) => deskFetch(site.url, `/admin/devis/${quoteId}`, { jar, form });
const quoteRow = async () => (await site.database.db.select().from(quotes).where(eq(quotes.id, quoteId)))[0]!;

beforeAll(async () => {
  smtp = await startSmtp();
  site = await startTestServer({ INVOICE_IBAN: IBAN, SMTP_URL: smtp.url });
  jar = await signIn(site.url, await createOwner(site.database.db));
  const [request] = await site.database.db
    .insert(contacts)
    .values({
      firstName: "Jeanne",
      lastName: "Favre",
      email: "jeanne.favre@example.ch",
      phone: "021 311 22 33",
      phoneE164: "+41213112233",
      service: "group-talk",
      organisation: "Club des aînés de Vevey",
      commune: "Vevey",
      groupSize: 12,
      contactConsent: true,
      consentTimestamp: new Date().toISOString(),
    })
    .returning({ id: contacts.id });
  requestId = request!.id;
  const found = await invoiceCreditor(
    requestContext({ settings: loadSettings({ INVOICE_IBAN: IBAN }), db: site.database.db, logger: silentLogger }),
  );
  if (!found.ok) throw new Error("IBAN set");
  creditor = found.creditor;
}, 120_000);

afterAll(async () => {
  await site?.close();
  await smtp?.close();
});

describe("a quote for a group", () => {
  it("starts from the group's request, says what is wrong beside the field, and is made as a draft", async () => {
    const html = await (await deskFetch(site.url, `/admin/devis/nouveau?demande=${requestId}`, { jar })).text();
    expect(html).toContain('value="Club des aînés de Vevey"');
    expect(html).toContain('value="Jeanne Favre"');
    expect(html).toMatch(/name="groupSize"[^>]*value="12"/);
    const bad = await deskFetch(site.url, "/admin/devis/nouveau", { jar, form: quoteForm({ placeName: "" }) });
    expect(bad.status).toBe(400);
    expect(textOf(await bad.text())).toContain("Indiquez le lieu");
    const made = await deskFetch(site.url, "/admin/devis/nouveau", { jar, form: quoteForm() });
    expect(made.status).toBe(303);
    quoteId = Number(/^\/admin\/devis\/(\d+)$/.exec(made.headers.get("location") ?? "")![1]);
    expect(await quoteRow()).toMatchObject({
      number: `D-${today.slice(0, 4)}-001`,
      status: "draft",
      totalCentimes: 125000,
      contactId: requestId,
      groupSize: 12,
    });
    const page = textOf(await (await deskFetch(site.url, `/admin/devis/${quoteId}`, { jar })).text());
    expect(page).toContain("Brouillon");
    expect(page).toContain("Total : CHF 1’250.–");
    expect(page).toContain(`mardi 2 mars ${COURSE_YEAR}, 14 h 00`);
    // A draft was never sent: it cannot be accepted.
    expect((await post({ intent: "accept" })).status).toBe(409);
  });

  it("while a draft, is edited through its form and keeps its number; a date in another year is refused", async () => {
    const edit = `/admin/devis/${quoteId}/modifier`;
    expect(textOf(await (await deskFetch(site.url, `/admin/devis/${quoteId}`, { jar })).text())).toContain(
      "Modifier le brouillon",
    );
    const html = await (await deskFetch(site.url, edit, { jar })).text();
    expect(html).toMatch(/name="price-2"[^>]*value="0.70"/);
    expect(html).toMatch(/name="sessionTime"[^>]*value="14:00"/);
    const { number } = await quoteRow();
    const changed = await deskFetch(site.url, edit, {
      jar,
      form: quoteForm({ "price-0": "900", groupSize: "14", dueOn: inDays(20), clientName: "Club des aînés de Blonay" }),
    });
    expect(changed.status).toBe(303);
    expect(changed.headers.get("location")).toBe(`/admin/devis/${quoteId}`);
    expect(await quoteRow()).toMatchObject({
      number,
      status: "draft",
      totalCentimes: 130000,
      groupSize: 14,
      validUntil: inDays(20),
      clientName: "Club des aînés de Blonay",
    });
    const bad = await deskFetch(site.url, edit, { jar, form: quoteForm({ "price-0": "x" }) });
    expect(bad.status).toBe(400);
    expect(textOf(await bad.text())).toContain("Un prix en francs");
    const otherYear = `${Number(today.slice(0, 4)) + 1}-01-05`;
    const moved = await deskFetch(site.url, edit, { jar, form: quoteForm({ issuedOn: otherYear, dueOn: otherYear }) });
    expect(moved.status).toBe(400);
    expect(textOf(await moved.text())).toContain(`La date du devis reste en ${today.slice(0, 4)}`);
    expect((await quoteRow()).totalCentimes).toBe(130000);
    // Back to the group's quote the next steps use; each edit is in the audit trail, by id only.
    expect((await deskFetch(site.url, edit, { jar, form: quoteForm() })).status).toBe(303);
    expect(await quoteRow()).toMatchObject({ number, totalCentimes: 125000, groupSize: 12 });
    const audited = await site.database.db.select().from(auditLog).where(eq(auditLog.action, "quote-edited"));
    expect(audited.map((row) => row.details)).toEqual([{ quote: quoteId }, { quote: quoteId }]);
  });

  it("is sent by mail, its PDF attached by the outbox", async () => {
    const answer = await post({ intent: "send" });
    expect(answer.status).toBe(200);
    expect(textOf(await answer.text())).toContain("Le devis part par e-mail, en pièce jointe.");
    const [row] = await site.database.db.select().from(outbox).where(eq(outbox.quoteId, quoteId));
    expect(row).toMatchObject({ kind: "quote", recipient: "jeanne.favre@example.ch", attachments: null });
    await waitFor(() => smtp.mails.some((mail) => mail.subject.startsWith("Devis n°")), 20_000, "the quote mail");
    const mail = smtp.mails.find((entry) => entry.subject.startsWith("Devis n°"))!;
    const { number } = await quoteRow();
    expect(mail.to).toBe("jeanne.favre@example.ch");
    expect(mail.text).toContain("Bonjour Jeanne Favre,");
    expect(mail.text).toContain("d’un montant de CHF 1’250.–");
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: `devis-${number}.pdf`, mimeType: "application/pdf" });
    expect(mail.attachments[0]!.content.startsWith("%PDF-")).toBe(true);
    expect((await quoteRow()).status).toBe("sent");
    // Sent, it is frozen: its edit page says so, without the form; a post there changes nothing.
    const edit = `/admin/devis/${quoteId}/modifier`;
    const frozen = await (await deskFetch(site.url, edit, { jar })).text();
    expect(textOf(frozen)).toContain("il ne se modifie plus");
    expect(frozen).not.toContain('name="price-0"');
    const late = await deskFetch(site.url, edit, { jar, form: quoteForm({ "price-0": "1" }) });
    expect(late.status).toBe(409);
    expect(textOf(await late.text())).toContain("il ne se modifie plus");
    expect((await quoteRow()).totalCentimes).toBe(125000);
    expect(textOf(await (await deskFetch(site.url, `/admin/devis/${quoteId}`, { jar })).text())).not.toContain(
      "Modifier le brouillon",
    );
  });

  it("accepted, makes one closed session: not on /cours, not bookable, not in the sitemap", async () => {
    expect((await post({ intent: "accept" })).status).toBe(200);
    expect((await post({ intent: "session" })).status).toBe(200);
    expect((await post({ intent: "session" })).status).toBe(409);
    const { sessionId } = await quoteRow();
    const [session] = await site.database.db.select().from(courseSessions).where(eq(courseSessions.id, sessionId!));
    expect(session).toMatchObject({ closed: true, capacity: 12, placeName: PLACE, courseId: COURSE });
    for (const path of ["/cours", `/cours/${COURSE}`, "/"]) {
      const html = await (await fetch(`${site.url}${path}`)).text();
      expect(html, path).not.toContain(PLACE);
      expect(html, path).not.toContain(`seance-${sessionId}`);
    }
    const booking = await postBooking(site.url, COURSE, bookingForm(sessionId!, 1));
    expect(booking.status).toBe(400);
    const sitemap = await (await fetch(`${site.url}/sitemap.xml`)).text();
    expect(sitemap).toContain("<urlset");
    expect(sitemap).not.toContain("/groupe/");
    expect(sitemap).not.toContain(PLACE);
  });

  it("mails the organisation its link page, filled with 12 names by a plain form post", async () => {
    await waitFor(() => smtp.mails.some((mail) => mail.subject.includes("liste des participants")), 20_000, "link");
    const mail = smtp.mails.find((entry) => entry.subject.includes("liste des participants"))!;
    expect(mail.subject).toBe(`Votre groupe du mardi 2 mars ${COURSE_YEAR} : la liste des participants`);
    const link = linkIn(mail, "/groupe/", site);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(textOf(html)).toContain(`mardi 2 mars ${COURSE_YEAR}, 14 h 00`);
    expect(textOf(html)).toContain(PLACE);
    expect(html.match(/name="name-\d+"/g)).toHaveLength(12);

    const names = Array.from({ length: 12 }, (_, index) => `Participant${index + 1} Dupont`);
    const form = { intent: "participants", ...Object.fromEntries(names.map((name, index) => [`name-${index}`, name])) };
    const saved = await deskFetch(site.url, new URL(link).pathname, { form });
    expect(saved.status).toBe(200);
    expect(textOf(await saved.text())).toContain("La liste est enregistrée : 12 participants.");
    expect((await quoteRow()).participants).toEqual(names);
    expect(textOf(await (await deskFetch(site.url, `/admin/devis/${quoteId}`, { jar })).text())).toContain(
      "Participants (12)",
    );
    // The link pages' guards: another method changes nothing; an unknown link neither.
    const path = new URL(link).pathname;
    for (const spelling of [path, `${path}.data`, path.replace("/groupe/", "/%67roupe/")])
      for (const method of ["PUT", "PATCH", "DELETE"]) {
        const refused = await deskFetch(site.url, spelling, { method, form: { intent: "participants" } });
        expect(refused.status, `${method} ${spelling}`).toBe(405);
      }
    const unknown = `/groupe/${"A".repeat(43)}`;
    expect((await fetch(`${site.url}${unknown}`)).status).toBe(404);
    expect((await deskFetch(site.url, unknown, { form: { intent: "participants", "name-0": "X" } })).status).toBe(404);
    expect((await quoteRow()).participants).toHaveLength(12);
  });

  it("« Faire la facture » makes the invoice with the same lines and total, its QR-bill to the organisation", async () => {
    const made = await post({ intent: "invoice" });
    expect(made.status).toBe(303);
    const invoiceId = Number(/^\/admin\/factures\/(\d+)$/.exec(made.headers.get("location") ?? "")![1]);
    const again = await post({ intent: "invoice" });
    expect(again.headers.get("location")).toBe(`/admin/factures/${invoiceId}`);
    const quote = await quoteRow();
    const [invoice] = await site.database.db.select().from(invoices).where(eq(invoices.id, invoiceId));
    expect(quote.invoiceId).toBe(invoiceId);
    expect(invoice!.lines).toEqual(quote.lines);
    expect(invoice!.totalCentimes).toBe(125000);
    expect(invoice).toMatchObject({
      clientKind: "organisation",
      clientName: "Club des aînés de Vevey",
      clientAttention: "Jeanne Favre",
    });
    const qr = await readQrBill(await renderInvoicePdf(invoice!));
    expect(checkPayload(qr!)).toMatchObject({ amount: "1250.00", debtorName: "Club des aînés de Vevey" });
  });

  it("expires with the clock: a sent quote past its validity can no longer be accepted", async () => {
    const id = await createQuote(site.database.db, draft(), creditor);
    await site.database.db.update(quotes).set({ status: "sent" }).where(eq(quotes.id, id));
    const [row] = await site.database.db.select().from(quotes).where(eq(quotes.id, id));
    expect(quoteState(row!, "2026-12-27")).toBe("sent");
    expect(quoteState(row!, "2026-12-28")).toBe("expired");
    expect(await decideQuote(site.database.db, id, "accepted", new Date("2026-12-28T10:00:00Z"))).toBe("expired");
    expect(await decideQuote(site.database.db, id, "refused", new Date("2026-12-27T10:00:00Z"))).toBe("refused");
  });

  it("without e-mail, is printed, noted posted by the owner, and its answer recorded", async () => {
    const id = await createQuote(site.database.db, { ...draft(), issuedOn: today, validUntil: inDays(30) }, creditor);
    const at = (form: Record<string, string>) => deskFetch(site.url, `/admin/devis/${id}`, { jar, form });
    const page = textOf(await (await deskFetch(site.url, `/admin/devis/${id}`, { jar })).text());
    expect(page).toContain("Noter envoyé par la poste aujourd’hui");
    expect((await at({ intent: "send" })).status).toBe(409);
    const posted = await at({ intent: "posted" });
    expect(posted.status).toBe(200);
    expect(textOf(await posted.text())).toContain("Devis noté envoyé par la poste aujourd’hui.");
    expect((await at({ intent: "posted" })).status).toBe(409);
    expect((await at({ intent: "accept" })).status).toBe(200);
    const [row] = await site.database.db.select().from(quotes).where(eq(quotes.id, id));
    expect(row).toMatchObject({ status: "accepted", email: null });
    expect(row!.sentAt).not.toBeNull();
    const audited = await site.database.db.select().from(auditLog).where(eq(auditLog.action, "quote-posted"));
    expect(audited.map((entry) => entry.details)).toEqual([{ quote: id }]);
  });
});

/** Makes 8 quotes of 2031 at the same moment on `db`; their numbers, sorted. */
async function eightAtOnce(db: Database): Promise<string[]> {
  const of2031 = { ...draft(), issuedOn: "2031-01-05", validUntil: "2031-02-05" };
  const ids = await Promise.all(Array.from({ length: 8 }, () => createQuote(db, of2031, creditor)));
  const rows = await db.select({ id: quotes.id, number: quotes.number }).from(quotes).where(eq(quotes.year, 2031));
  expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
  return rows.map((row) => row.number).sort();
}

const EIGHT = Array.from({ length: 8 }, (_, index) => `D-2031-00${index + 1}`);

describe("quote numbers", () => {
  it("are never given twice when 8 quotes are made at once (PGlite)", async () => {
    const embedded = await openTestDatabase();
    try {
      expect(await eightAtOnce(embedded.db)).toEqual(EIGHT);
    } finally {
      await embedded.close();
    }
  });

  it.runIf(postgresBinaries())(
    "are never given twice when 8 quotes are made at once (PostgreSQL)",
    async () => {
      const postgres = await startPostgres();
      const database = await openDatabase({ databaseUrl: postgres.url, dataDir: "unused" });
      try {
        expect(await eightAtOnce(database.db)).toEqual(EIGHT);
      } finally {
        await database.close();
        postgres.destroy();
      }
    },
    60_000,
  );
});

describe("the person registry", () => {
  it("finds and exports a contact person's quotes with the list; erasure keeps the accepted one without them", async () => {
    const person = { email: "jeanne.favre@example.ch", phoneE164: null };
    const draftId = await createQuote(
      site.database.db,
      { ...draft(), clientAttention: "Jeanne Favre", email: "jeanne.favre@example.ch" },
      creditor,
    );
    const found = await findPerson(site.database.db, person);
    const mine = found.find((entry) => entry.entry.table === quotes)!.rows.map((row) => row.id);
    expect(mine.sort()).toEqual([quoteId, draftId].sort());
    const exported = (await (
      await deskFetch(site.url, `/admin/personne.json?email=${encodeURIComponent(person.email)}`, { jar })
    ).json()) as { tables: Record<string, { number: string; participants: string[] }[]> };
    expect(exported.tables.quotes!.map((row) => row.number)).toHaveLength(2);
    expect(exported.tables.quotes!.find((row) => row.participants.length)?.participants).toContain(
      "Participant12 Dupont",
    );

    await erasePerson(site.database.db, person, null, "owner", { siteUrl: site.url });
    const left = await site.database.db.select().from(quotes).where(eq(quotes.clientAttention, "Jeanne Favre"));
    expect(left.map((row) => row.id)).toEqual([quoteId]);
    expect(left[0]).toMatchObject({ email: null, phone: null, phoneE164: null, participants: [] });
    expect(left[0]).toMatchObject({ clientName: "Club des aînés de Vevey", totalCentimes: 125000 });
    const again = await findPerson(site.database.db, person);
    expect(again.find((entry) => entry.entry.table === quotes)?.rows ?? []).toHaveLength(0);
  });
});
