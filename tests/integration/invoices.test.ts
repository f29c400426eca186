/**
 * Issue 22, item 3, through the running site as the owner's browser uses
 * it (`/admin/factures`, plain form posts):
 * - an invoice made from a registration starts with the attendee and the
 *   course at its price, from a group's request with the organisation; bad input gets the French message beside the field
 *   (400) and writes nothing;
 * - numbers follow each other in the year and are never given twice, even
 *   when invoices are made at the same moment, nor reused (a cancelled
 *   invoice keeps its number);
 * - "Envoyer par e-mail" queues one mail that stores the invoice's id, not
 *   a file; the outbox renders the PDF when sending: the client receives it
 *   attached, with Reply-To the owner; a reminder only once it is overdue;
 * - paid (date and how) and cancelled are final; the list counts what is
 *   open and overdue, the CSV lists every invoice for the accounts; every
 *   change is audited with ids only;
 * - without INVOICE_IBAN the desk says « IBAN manquant » and makes none.
 */
import { eq } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSettings } from "../../app/config/settings.server";
import { createSession, zurichToUtc } from "../../app/courses/sessions.server";
import { registerForSession } from "../../app/courses/booking.server";
import { auditLog, contacts, invoices, outbox } from "../../app/db/schema";
import { defaultSettings } from "../../app/settings/site.server";
import { invoiceCreditor } from "../../app/invoices/creditor.server";
import { requestContext } from "../../app/context.server";
import { createInvoice, todayInZurich, type InvoiceDraft } from "../../app/invoices/invoices.server";
import {
  createOwner,
  deskFetch,
  sessionFields,
  signIn,
  startSmtp,
  silentLogger,
  startTestServer,
  waitFor,
  pageText as textOf,
  type CookieJar,
} from "../support/harness";

const IBAN = "CH5604835012345678009";
let site: Awaited<ReturnType<typeof startTestServer>>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let jar: CookieJar;
let registrationId: number;
const year = todayInZurich().slice(0, 4);

/** A complete invoice form, with `overrides`. */
function invoiceForm(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    clientKind: "person",
    clientName: "Marie Dupont",
    street: "Rue du Lac",
    buildingNumber: "12",
    postalCode: "1800",
    locality: "Vevey",
    country: "CH",
    email: "marie.dupont@example.ch",
    phone: "079 123 45 67",
    "label-0": "Assistance informatique à domicile",
    "quantity-0": "1,5",
    "price-0": "95.–",
    issuedOn: todayInZurich(),
    dueOn: todayInZurich(),
    ...overrides,
  };
}

/** Posts a new invoice; resolves with its id (the redirect's). */
async function makeInvoice(overrides: Record<string, string> = {}): Promise<number> {
  const answer = await deskFetch(site.url, "/admin/factures/nouvelle", { jar, form: invoiceForm(overrides) });
  expect(answer.status, textOf(await answer.clone().text()).slice(0, 300)).toBe(303);
  const match = /^\/admin\/factures\/(\d+)$/.exec(answer.headers.get("location") ?? "");
  expect(match).not.toBeNull();
  return Number(match![1]);
}

beforeAll(async () => {
  smtp = await startSmtp();
  site = await startTestServer({ INVOICE_IBAN: "CH56 0483 5012 3456 7800 9", SMTP_URL: smtp.url });
  jar = await signIn(site.url, await createOwner(site.database.db));
  const sessionId = await createSession(
    site.database.db,
    sessionFields({ startsAt: zurichToUtc("2030-03-12", "14:00"), priceChf: 55, payment: "facture" }),
  );
  // Booked « sur facture » (decision 035): a registration paid on site gets no invoice.
  const booked = await registerForSession(
    site.database.db,
    {
      sessionId,
      firstName: "Rose",
      lastName: "Favre",
      phone: "079 555 66 77",
      email: "",
      seats: "2",
      paysBy: "facture",
      postalStreet: "Chemin des Vignes 4",
      postalCode: "1814",
      postalLocality: "La Tour-de-Peilz",
    },
    { siteUrl: site.url },
  );
  if (booked.outcome !== "confirmed") throw new Error(`registration: ${booked.outcome}`);
  registrationId = booked.registrationId;
}, 120_000);

afterAll(async () => {
  await site?.close();
  await smtp?.close();
});

describe("making an invoice", () => {
  it("from a registration starts with the attendee and the course's seats at its price", async () => {
    const page = textOf(
      await (await deskFetch(site.url, `/admin/factures/nouvelle?inscription=${registrationId}`, { jar })).text(),
    );
    expect(page).toContain(`D’après : Inscription n° ${registrationId}`);
    const html = await (
      await deskFetch(site.url, `/admin/factures/nouvelle?inscription=${registrationId}`, { jar })
    ).text();
    expect(html).toContain('value="Rose Favre"');
    expect(html).toMatch(/name="label-0"[^>]*value="Cours « [^"]+ », mardi 12 mars 2030, 14\s*h\s*00"/);
    expect(html).toMatch(/name="quantity-0"[^>]*value="2"/);
    expect(html).toMatch(/name="price-0"[^>]*value="55"/);
    expect(html).toMatch(new RegExp(`name="registrationId" value="${registrationId}"`));
  });

  it("from a group's contact request starts with the organisation, to the attention of the person who wrote", async () => {
    const [request] = await site.database.db
      .insert(contacts)
      .values({
        firstName: "Jeanne",
        lastName: "Favre",
        email: "jeanne.favre@example.ch",
        phone: "021 311 22 33",
        service: "group-talk",
        organisation: "Club des aînés de Vevey",
        commune: "Vevey",
        groupSize: 20,
        contactConsent: true,
        consentTimestamp: new Date().toISOString(),
      })
      .returning({ id: contacts.id });
    const html = await (await deskFetch(site.url, `/admin/factures/nouvelle?demande=${request!.id}`, { jar })).text();
    expect(textOf(html)).toContain(`D’après : Demande n° ${request!.id}`);
    expect(html).toMatch(/<option value="organisation" selected="">/);
    expect(html).toContain('value="Club des aînés de Vevey"');
    expect(html).toContain('value="Jeanne Favre"');
    expect(html).toContain('value="jeanne.favre@example.ch"');
    expect(html).toMatch(/name="locality"[^>]*value="Vevey"/);
  });

  it("refuses bad input with the French message beside each field, and writes nothing", async () => {
    const answer = await deskFetch(site.url, "/admin/factures/nouvelle", {
      jar,
      form: invoiceForm({ clientName: "", "price-0": "beaucoup", email: "marie@", dueOn: "2001-01-01" }),
    });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    const text = textOf(html);
    expect(text).toContain("Indiquez le prénom et le nom.");
    expect(text).toContain("Un prix en francs, par exemple 95 ou 142.50.");
    expect(text).toContain("Cette adresse e-mail n’est pas complète");
    expect(text).toContain("L’échéance ne peut pas précéder la date de la facture.");
    expect(html).toMatch(/id="invoice-clientName"[^>]*aria-invalid="true"/);
    // What was typed stays in the form.
    expect(html).toContain('value="Rue du Lac"');
    expect(await site.database.db.select().from(invoices)).toEqual([]);
  });

  it("numbers invoices one after the other in the year, never twice, even made at the same moment", async () => {
    const first = await makeInvoice({ registrationId: String(registrationId) });
    const [row] = await site.database.db.select().from(invoices).where(eq(invoices.id, first));
    expect(row).toMatchObject({
      number: `${year}-001`,
      clientName: "Marie Dupont",
      totalCentimes: 14250,
      registrationId,
      phoneE164: "+41791234567",
      status: "open",
    });
    expect(row!.reference).toMatch(new RegExp(`^RF\\d{2}${year}000001$`));
    const creditor = await invoiceCreditor(
      requestContext({
        settings: loadSettings({ INVOICE_IBAN: IBAN }),
        db: site.database.db,
        logger: silentLogger,
      }),
    );
    if (!creditor.ok) throw new Error("IBAN set");
    const draft: InvoiceDraft = {
      ...invoiceForm(),
      clientKind: "person",
      clientAttention: null,
      buildingNumber: null,
      email: null,
      phone: null,
      lines: [{ label: "Conférence", quantity: 1, unitCentimes: 25000 }],
      issuedOn: `${year}-06-01`,
      dueOn: `${Number(year) + 1}-07-01`,
      registrationId: null,
      contactId: null,
    } as InvoiceDraft;
    await Promise.all(Array.from({ length: 8 }, () => createInvoice(site.database.db, draft, creditor.creditor)));
    const numbers = (await site.database.db.select({ number: invoices.number }).from(invoices))
      .map((entry) => entry.number)
      .sort();
    expect(numbers).toEqual(Array.from({ length: 9 }, (_, index) => `${year}-${String(index + 1).padStart(3, "0")}`));
  });
});

describe("an invoice's life", () => {
  let id: number;
  beforeAll(async () => {
    id = await makeInvoice({
      clientName: "Club des aînés",
      clientKind: "organisation",
      clientAttention: "Marie Dupont",
    });
  });

  it("is sent by mail: the outbox stores its id, not a file, and the client receives the PDF, Reply-To the owner", async () => {
    const page = textOf(await (await deskFetch(site.url, `/admin/factures/${id}`, { jar })).text());
    expect(page).toContain("Club des aînés");
    expect(page).toContain("À l’attention de Marie Dupont");
    expect(page).toContain("Total : CHF 142.50");
    // Due today: not overdue yet, no reminder.
    expect(page).not.toContain("Envoyer un rappel");
    const early = await deskFetch(site.url, `/admin/factures/${id}`, { jar, form: { intent: "remind" } });
    expect(early.status).toBe(409);

    const answer = await deskFetch(site.url, `/admin/factures/${id}`, { jar, form: { intent: "send" } });
    expect(answer.status).toBe(200);
    expect(textOf(await answer.text())).toContain("La facture part par e-mail, en pièce jointe.");
    const [row] = await site.database.db.select().from(outbox).where(eq(outbox.invoiceId, id));
    expect(row).toMatchObject({ kind: "invoice", recipient: "marie.dupont@example.ch", attachments: null });
    await waitFor(() => smtp.mails.some((mail) => mail.subject.includes("Facture n°")), 15_000, "the invoice mail");
    const mail = smtp.mails.find((entry) => entry.subject.includes("Facture n°"))!;
    const [invoice] = await site.database.db.select().from(invoices).where(eq(invoices.id, id));
    expect(mail.subject).toBe(`Facture n° ${invoice!.number}`);
    expect(mail.to).toBe("marie.dupont@example.ch");
    expect(mail.replyTo).toBe(defaultSettings().identity.email);
    expect(mail.text).toContain("Bonjour Marie Dupont,");
    expect(mail.text).toContain("d’un montant de CHF 142.50");
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({
      filename: `facture-${invoice!.number}.pdf`,
      mimeType: "application/pdf",
    });
    expect(mail.attachments[0]!.content.startsWith("%PDF-")).toBe(true);
    expect(invoice!.sentAt).not.toBeNull();
  });

  it("sends a reminder once overdue, on the owner's click only", async () => {
    await site.database.db
      .update(invoices)
      .set({ issuedOn: "2020-01-01", dueOn: "2020-01-31" })
      .where(eq(invoices.id, id));
    const list = textOf(await (await deskFetch(site.url, "/admin/factures", { jar })).text());
    expect(list).toMatch(/dont 1 en retard \(CHF 142\.50\)/);
    const overdue = textOf(await (await deskFetch(site.url, "/admin/factures?etat=en-retard", { jar })).text());
    expect(overdue).toContain("En retard");
    const mailsBefore = (await site.database.db.select().from(outbox)).length;
    expect(textOf(await (await deskFetch(site.url, `/admin/factures/${id}`, { jar })).text())).toContain(
      "Envoyer un rappel",
    );
    const answer = await deskFetch(site.url, `/admin/factures/${id}`, { jar, form: { intent: "remind" } });
    expect(answer.status).toBe(200);
    const rows = await site.database.db.select().from(outbox).where(eq(outbox.invoiceId, id));
    expect(rows.map((row) => row.kind)).toEqual(["invoice", "invoice-reminder"]);
    expect((await site.database.db.select().from(outbox)).length).toBe(mailsBefore + 1);
    expect(rows[1]!.subject).toContain("Rappel : facture n°");
  });

  it("sends once for three clicks, again only when the owner confirms, and one reminder a day", async () => {
    // In the order they were queued: a row the outbox updated may come back in another order otherwise.
    const kinds = async () =>
      (await site.database.db.select().from(outbox).where(eq(outbox.invoiceId, id)).orderBy(outbox.id)).map(
        (row) => row.kind,
      );
    const post = (form: Record<string, string>) => deskFetch(site.url, `/admin/factures/${id}`, { jar, form });
    const clicks = await Promise.all([1, 2, 3].map(() => post({ intent: "send" })));
    expect(clicks.map((answer) => answer.status)).toEqual([409, 409, 409]);
    expect(textOf(await clicks[0]!.text())).toContain("Cette facture est déjà partie par e-mail.");
    const reminders = await Promise.all([1, 2, 3, 4, 5, 6].map(() => post({ intent: "remind" })));
    expect(reminders.map((answer) => answer.status)).toEqual(Array(6).fill(409));
    expect(textOf(await reminders[0]!.text())).toContain("Un rappel est déjà parti aujourd’hui");
    expect(await kinds()).toEqual(["invoice", "invoice-reminder"]);
    const page = textOf(await (await deskFetch(site.url, `/admin/factures/${id}`, { jar })).text());
    expect(page).toContain("Oui, l’envoyer encore (déjà envoyée le");
    const confirmed = await post({ intent: "send", resend: "oui" });
    expect(confirmed.status).toBe(200);
    expect(await kinds()).toEqual(["invoice", "invoice-reminder", "invoice"]);
    // The day after, a reminder may leave again.
    await site.database.db
      .update(invoices)
      .set({ remindedAt: new Date(Date.now() - 36 * 60 * 60_000).toISOString() })
      .where(eq(invoices.id, id));
    expect((await post({ intent: "remind" })).status).toBe(200);
    expect(await kinds()).toEqual(["invoice", "invoice-reminder", "invoice", "invoice-reminder"]);
  });

  it("is marked paid with the date and how, and then neither sent nor cancelled", async () => {
    const wrong = await deskFetch(site.url, `/admin/factures/${id}`, {
      jar,
      form: { intent: "paid", paidOn: "2999-01-01", paidBy: "cheque" },
    });
    expect(wrong.status).toBe(400);
    const wrongText = textOf(await wrong.text());
    expect(wrongText).toContain("La date du paiement ne peut pas être dans le futur.");
    expect(wrongText).toContain("Choisissez comment la facture a été payée.");
    const answer = await deskFetch(site.url, `/admin/factures/${id}`, {
      jar,
      form: { intent: "paid", paidOn: "2026-11-20", paidBy: "twint" },
    });
    expect(answer.status).toBe(200);
    expect(textOf(await answer.text())).toContain("Payée le 20 novembre 2026 (TWINT)");
    const [row] = await site.database.db.select().from(invoices).where(eq(invoices.id, id));
    expect(row).toMatchObject({ status: "paid", paidOn: "2026-11-20", paidBy: "twint" });
    for (const form of [{ intent: "send" }, { intent: "cancel", confirm: "oui" }] as Record<string, string>[])
      expect((await deskFetch(site.url, `/admin/factures/${id}`, { jar, form })).status).toBe(409);
  });

  it("is cancelled only once the box is ticked, and keeps its number: the next one gets a new one", async () => {
    const other = await makeInvoice();
    expect((await deskFetch(site.url, `/admin/factures/${other}`, { jar, form: { intent: "cancel" } })).status).toBe(
      400,
    );
    const answer = await deskFetch(site.url, `/admin/factures/${other}`, {
      jar,
      form: { intent: "cancel", confirm: "oui" },
    });
    expect(answer.status).toBe(200);
    const [cancelled] = await site.database.db.select().from(invoices).where(eq(invoices.id, other));
    expect(cancelled!.status).toBe("cancelled");
    const next = await makeInvoice();
    const [row] = await site.database.db.select().from(invoices).where(eq(invoices.id, next));
    expect(Number(row!.number.slice(5))).toBe(Number(cancelled!.number.slice(5)) + 1);
    const pdf = await deskFetch(site.url, `/admin/factures/${other}/facture.pdf`, { jar });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("cache-control")).toBe("no-store");
  });

  it("lists every invoice in the accounts' CSV, and audits every change with ids only", async () => {
    const answer = await deskFetch(site.url, "/admin/factures.csv", { jar });
    expect(answer.status).toBe(200);
    const rows = parse((await answer.text()).replace(/^\uFEFF/, ""), { delimiter: ";", columns: true }) as Record<
      string,
      string
    >[];
    const paid = rows.find((row) => row["Client"] === "Club des aînés")!;
    expect(paid).toMatchObject({
      "Montant CHF": "142.50",
      État: "Payée",
      "Payée le": "20.11.2026",
      "Moyen de paiement": "TWINT",
    });
    expect(rows.some((row) => row["État"] === "Annulée")).toBe(true);
    const audits = await site.database.db.select().from(auditLog);
    const actions = audits.map((row) => row.action);
    for (const action of ["invoice-created", "invoice-sent", "invoice-reminded", "invoice-paid", "invoice-cancelled"])
      expect(actions).toContain(action);
    // What the audit wrote, its own time aside (a time like 12:04:35.079 holds "079" without any telephone in it).
    const written = JSON.stringify(
      audits.filter((row) => row.action.startsWith("invoice")).map(({ at: _at, ...written }) => written),
    ).toLowerCase();
    for (const personal of ["marie", "dupont", "club", "@", "079", "vevey"]) expect(written).not.toContain(personal);
  });
});

describe("without INVOICE_IBAN", () => {
  it("says « IBAN manquant » and makes no invoice, until the owner gives his QR-IBAN in Réglages", async () => {
    const bare = await startTestServer({});
    try {
      const owner = await signIn(bare.url, await createOwner(bare.database.db));
      const list = textOf(await (await deskFetch(bare.url, "/admin/factures", { jar: owner })).text());
      expect(list).toContain("IBAN manquant");
      expect(list).not.toContain("Nouvelle facture");
      const answer = await deskFetch(bare.url, "/admin/factures/nouvelle", { jar: owner, form: invoiceForm() });
      expect(answer.status).toBe(409);
      expect(await bare.database.db.select().from(invoices)).toEqual([]);

      // A wrong account is refused beside its field; SIX's sample QR-IBAN is taken.
      const payment = (iban: string) =>
        deskFetch(bare.url, "/admin/reglages", { jar: owner, form: { section: "payment", "payment-iban": iban } });
      const wrong = await payment("CH44 3199 9123 0008 8901 3");
      expect(wrong.status).toBe(400);
      expect(textOf(await wrong.text())).toContain("Cet IBAN n’est pas valable.");
      expect((await payment("ch44 3199 9123 0008 8901 2")).status).toBe(303);
      expect(textOf(await (await deskFetch(bare.url, "/admin/factures", { jar: owner })).text())).not.toContain(
        "IBAN manquant",
      );
      expect((await deskFetch(bare.url, "/admin/factures/nouvelle", { jar: owner, form: invoiceForm() })).status).toBe(
        303,
      );
      const [made] = await bare.database.db.select().from(invoices);
      expect(made!.creditor).toMatchObject({ iban: "CH4431999123000889012", qrIban: true });
      // With a QR-IBAN, the reference is a QR reference: 27 digits.
      expect(made!.reference).toMatch(/^\d{27}$/);
    } finally {
      await bare.close();
    }
  });
});
