/**
 * The owner's desk and a person's data in the real browser (issue 13,
 * "Must show": CSV download parsed, erasure, the person's rows gone from
 * every table): a visitor writes from the public form and asks for the
 * newsletter; the owner downloads the requests as CSV, finds her by
 * e-mail, downloads her data as JSON, erases her after a confirmation that
 * names what goes; a fresh search by e-mail or by telephone finds nothing,
 * the other visitor's request stays, and once the site is stopped no table
 * of its database holds her name, e-mail or telephone. Each state of
 * `/admin/personne` is checked with axe and photographed at 1280 and 375 px.
 */
import { parse } from "csv-parse/sync";
import { expect, test, type Page } from "@playwright/test";
import { contactMessages } from "../../app/contact/schema";
import { typeset } from "../../app/utils/typography";
import { readStoppedDatabase } from "../support/harness";
import { field, fillValidRequest, validRequest } from "./contact-helpers";
import { checkAtBothWidths, downloadBy, openInboxSignedIn, setUpOwnSite } from "./desk-helpers";

// One site for the file; its one test stops it at the end.
test.describe.configure({ mode: "default" });

const own = setUpOwnSite({ owner: "proprietaire@example.ch" });

/** The visitor whose data is erased (`validRequest`, who also asks for the newsletter), and one who stays. */
const jeanne = { name: `${validRequest.firstName} ${validRequest.lastName}`, email: validRequest.email };
const paul = { firstName: "Paul", lastName: "Rochat", email: "paul.rochat@example.ch", phone: "021 987 65 43" };

/**
 * What the desk finds of Jeanne: her request, one status change, her pending subscription, two mails,
 * and the day's count of mails written to her address (the recipients' cap, decision 028).
 */
const jeanneCounts =
  "1 demande de contact, 1 changement de statut, 1 abonnement, 0 inscription à un cours, 0 devis, 0 lettre envoyée par la poste, 2 e-mails et 1 compte d’envois du jour";
/** What the search finds of her: the same, with the invoices, which an erasure keeps (CO art. 958f) and never counts. */
const jeanneFound =
  "1 demande de contact, 1 changement de statut, 1 abonnement, 0 inscription à un cours, 0 facture, 0 devis, 0 lettre envoyée par la poste, 2 e-mails et 1 compte d’envois du jour";

/** Sends a request from the public `/contact` page, as a visitor does. */
async function sendRequest(page: Page, fill: () => Promise<void>) {
  await page.goto(`${own.site.url}/contact`);
  await fillValidRequest(page);
  await fill();
  await page.getByRole("button", { name: "Envoyer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(contactMessages.successTitle);
}

/** The inbox's CSV, downloaded with the button and parsed as Excel would (header line, `;`). */
async function downloadCsv(page: Page) {
  await page.goto(`${own.site.url}/admin`);
  const file = await downloadBy(page, () => page.getByRole("link", { name: "Télécharger en CSV" }).click());
  const text = file.bytes.toString("utf8");
  const rows = parse(file.bytes, { bom: true, delimiter: ";", columns: true }) as Record<string, string>[];
  return { name: file.name, bytes: file.bytes, text, rows };
}

/** Searches the person page by the given fields, with the form. */
async function search(page: Page, { email = "", telephone = "" }: { email?: string; telephone?: string }) {
  await page.goto(`${own.site.url}/admin/personne`);
  await page.getByLabel("Adresse e-mail").fill(email);
  await page.getByLabel("Numéro de téléphone").fill(telephone);
  await page.getByRole("button", { name: "Chercher" }).click();
  await expect(page).toHaveURL(/\/admin\/personne\?/);
}

test("the owner downloads the CSV, exports a person's data and erases her from every table", async ({ page }) => {
  test.setTimeout(240_000);
  // Jeanne writes and asks for the newsletter; Paul writes too.
  await sendRequest(page, () =>
    field(
      page,
      "Je souhaite recevoir la lettre d’information mensuelle (conseils pratiques et mises en garde contre les arnaques).",
    ).check(),
  );
  await sendRequest(page, async () => {
    await field(page, "Prénom").fill(paul.firstName);
    await field(page, "Nom").fill(paul.lastName);
    await field(page, "Adresse e-mail").fill(paul.email);
    await field(page, "Téléphone").fill(paul.phone);
  });

  await openInboxSignedIn(page, own.site.url, own.owners.owner);
  // The owner starts on Jeanne's request: "En cours" (a row of the status history).
  await page.getByRole("link", { name: jeanne.name }).click();
  await expect(page).toHaveURL(/\/admin\/demandes\/\d+$/);
  // The same status again changes nothing, and says so.
  await page.getByRole("button", { name: "Changer le statut" }).click();
  await expect(page.getByRole("status")).toHaveText("Le statut reste : Nouveau.");
  await expect(page.getByText("Aucun changement de statut pour l’instant.")).toBeVisible();
  await page.getByLabel("Statut").selectOption({ label: "En cours" });
  await page.getByRole("button", { name: "Changer le statut" }).click();
  await expect(page.getByRole("status")).toHaveText("Statut changé : En cours.");

  // The CSV: UTF-8 with a BOM, `;`, CRLF, one row a request, Swiss dates.
  const csv = await downloadCsv(page);
  expect(csv.name).toMatch(/^demandes-\d{4}-\d{2}-\d{2}\.csv$/);
  expect([...csv.bytes.subarray(0, 3)], "byte order mark").toEqual([0xef, 0xbb, 0xbf]);
  expect(csv.text.split("\r\n")[0]).toContain("N°;Reçue le;Statut;Prénom;Nom;E-mail;Téléphone");
  expect(csv.text.replace(/\r\n/g, ""), "every line ends with CRLF").not.toContain("\n");
  expect(csv.rows.map((row) => row["E-mail"])).toEqual([paul.email, jeanne.email]);
  const jeanneRow = csv.rows[1]!;
  expect(jeanneRow).toMatchObject({
    Statut: "En cours",
    Prénom: validRequest.firstName,
    Nom: validRequest.lastName,
    // The leading apostrophe keeps a spreadsheet from reading "+41 ..." as a formula (OWASP "CSV injection").
    Téléphone: `'${validRequest.phone}`,
    Service: validRequest.serviceLabel,
    Message: validRequest.message,
    "Lettre d’information": "Oui",
  });
  expect(jeanneRow["Reçue le"]).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
  expect(jeanneRow["Consentement le"]).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);

  // The person page, from the desk's menu.
  await page.getByRole("navigation", { name: "Bureau" }).getByRole("link", { name: "Personne" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Les données d’une personne");
  await checkAtBothWidths(page, "desk-person-empty");

  // Found by her e-mail typed in capitals: every table, with its rows.
  await search(page, { email: jeanne.email.toUpperCase() });
  await expect(page.getByText(typeset(`Trouvé : ${jeanneFound}.`))).toBeVisible();
  for (const [title, count] of [
    ["Demandes de contact", 1],
    ["Changements de statut", 1],
    ["Abonnement à la lettre d’information", 1],
    ["E-mails", 2],
  ] as const) {
    await expect(page.getByRole("heading", { level: 2, name: `${title} (${count})` })).toBeVisible();
  }
  await expect(page.getByText(validRequest.message)).toBeVisible();
  await expect(page.getByText("En attente de confirmation")).toBeVisible();
  await checkAtBothWidths(page, "desk-person-found");

  // Her data as a JSON file: every table, rows as stored.
  const exported = await downloadBy(page, () =>
    page.getByRole("link", { name: "Exporter les données de cette personne" }).click(),
  );
  expect(exported.name).toMatch(/^donnees-personne-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(exported.bytes.toString("utf8")) as {
    search: { email: string; telephone: string | null };
    tables: Record<string, Record<string, unknown>[]>;
  };
  expect(data.search).toEqual({ email: jeanne.email, telephone: null });
  expect(data.tables.contacts).toEqual([
    expect.objectContaining({
      firstName: validRequest.firstName,
      lastName: validRequest.lastName,
      email: jeanne.email,
      phone: validRequest.phone,
      message: validRequest.message,
      newsletterConsent: true,
      status: "en-cours",
    }),
  ]);
  expect(data.tables.contact_events).toEqual([
    expect.objectContaining({ fromStatus: "nouveau", toStatus: "en-cours" }),
  ]);
  expect(data.tables.newsletter_subscribers).toEqual([
    expect.objectContaining({ email: jeanne.email, status: "pending" }),
  ]);
  expect(data.tables.outbox).toHaveLength(2);

  // "Effacer cette personne" asks first, naming what goes; "Annuler" erases nothing.
  await page.getByRole("link", { name: "Effacer cette personne" }).click();
  const confirmation = page.getByRole("region", { name: "Effacer cette personne ?" });
  await expect(confirmation).toContainText(typeset(`Cela efface définitivement : ${jeanneCounts}.`));
  await checkAtBothWidths(page, "desk-person-confirm");
  await confirmation.getByRole("link", { name: "Annuler" }).click();
  await expect(page.getByText(typeset(`Trouvé : ${jeanneFound}.`))).toBeVisible();

  await page.getByRole("link", { name: "Effacer cette personne" }).click();
  await page.getByRole("button", { name: "Oui, effacer définitivement" }).click();
  await expect(page.getByRole("status")).toHaveText(typeset(`Effacement terminé : ${jeanneCounts}.`));
  await checkAtBothWidths(page, "desk-person-erased");

  // A fresh search, by e-mail and by telephone typed another way: nothing.
  const nothing = "Aucune donnée enregistrée pour cette adresse e-mail ou ce numéro de téléphone.";
  await search(page, { email: jeanne.email });
  await expect(page.getByText(nothing)).toBeVisible();
  await checkAtBothWidths(page, "desk-person-nothing");
  await search(page, { telephone: "079 123 45 67" });
  await expect(page.getByText(nothing)).toBeVisible();

  // The inbox and its CSV keep Paul's request only.
  const after = await downloadCsv(page);
  expect(after.rows.map((row) => row["E-mail"])).toEqual([paul.email]);
  await expect(page.getByRole("link", { name: `${paul.firstName} ${paul.lastName}` })).toBeVisible();
  await expect(page.getByRole("link", { name: jeanne.name })).toHaveCount(0);

  // The database, read once the site is stopped: nothing of her in any table; Paul's rows, and one audit line of counts.
  await own.site.stop();
  const stored = await readStoppedDatabase(own.dataDir, async (db) => {
    const tables = (
      await db.query<{ name: string }>(
        "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
      )
    ).rows.map((row) => row.name);
    /** "table: n" for each table with rows whose text holds one of `needles` (lower case). */
    const tracesOf = async (needles: string[]) => {
      const traces: string[] = [];
      for (const table of tables) {
        const { rows } = await db.query<{ count: number }>(
          `select count(*)::int as count from "${table}" as row where ${needles.map((_, index) => `strpos(lower(row::text), $${index + 1}) > 0`).join(" or ")}`,
          needles,
        );
        if (rows[0]!.count > 0) traces.push(`${table}: ${rows[0]!.count}`);
      }
      return traces;
    };
    return {
      tables,
      jeanne: await tracesOf([jeanne.email, validRequest.lastName.toLowerCase(), "79 123 45 67", "+41791234567"]),
      // The same search finds what it should: Paul's request and its notification.
      paul: await tracesOf([paul.email, paul.lastName.toLowerCase()]),
      contacts: (await db.query<{ email: string }>("select email from contacts")).rows.map((row) => row.email),
      erasures: (await db.query<{ details: unknown }>("select details from audit_log where action = 'erasure'")).rows,
    };
  });
  expect(stored.tables).toEqual(
    expect.arrayContaining(["contacts", "contact_events", "newsletter_subscribers", "course_registrations", "outbox"]),
  );
  expect(stored.jeanne).toEqual([]);
  expect([...stored.paul].sort()).toEqual(["contacts: 1", "outbox: 1"]);
  expect(stored.contacts).toEqual([paul.email]);
  expect(stored.erasures).toEqual([
    {
      details: {
        contacts: 1,
        contact_events: 1,
        newsletter_subscribers: 1,
        course_registrations: 0,
        quotes: 0,
        postal_letters: 0,
        outbox: 2,
        recipient_mail_days: 1,
        registrations_kept: 0,
        mails_scrubbed: 0,
        invoices_kept: 0,
        quotes_kept: 0,
        sessions_freed: 0,
        people_chosen: "all",
      },
    },
  ]);
});
