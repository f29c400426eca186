/**
 * Invoices in the browser at 375 px (issue 22, "Must show"), on a site of
 * their own with an SMTP peer: the owner opens a session's page, makes an
 * invoice from a registration booked « sur facture » ("Faire une facture":
 * the attendee at the postal address given and the course at its price are
 * filled in; without the street it says so beside the field), sends it
 * by mail (the client receives the PDF attached), marks it paid by TWINT;
 * the list then shows it paid. axe finds 0 violations on the list, the new
 * invoice's form (empty and with errors) and the invoice's page, each
 * photographed at 1280 and 375 px (`checkAtBothWidths`), and no page
 * scrolls sideways at 320 px. The Nu HTML Checker reads the same pages in
 * tests/integration/html-validity.test.ts.
 *
 * Quotes (issue 31, item 2), on the same site at 375 px only: from a
 * group's request, the new quote's form (empty, then with an error beside
 * its field), the quote's page (draft, sent, accepted, its session made
 * with the participants' list), the list of quotes, and the invoice made
 * from it, each with axe (0 violations) and no sideways scroll; the Nu
 * checker reads the same pages in tests/integration/html-validity.test.ts.
 */
import { expect, test } from "@playwright/test";
import {
  createOwner,
  deskFetch,
  postContact,
  validForm,
  freshDataDir,
  signIn,
  spawnSite,
  startSmtp,
  waitFor,
  type CookieJar,
  type SpawnedSite,
  type TestOwner,
} from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";
import { addOwnerCookies, checkAtBothWidths, createSessionInDesk, PERSON } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, photograph } from "./helpers";

test.describe.configure({ mode: "serial" });

let site: SpawnedSite;
let owner: TestOwner;
let jar: CookieJar;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let sessionId: number;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const dataDir = freshDataDir();
  owner = await createOwner(dataDir, "owner@example.ch");
  smtp = await startSmtp();
  site = await spawnSite({
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    SMTP_URL: smtp.url,
    CONTACT_NOTIFY_TO: "owner@example.ch",
    OUTBOX_POLL_SECONDS: "1",
    INVOICE_IBAN: "CH56 0483 5012 3456 7800 9",
  });
  await site.ready();
  jar = await signIn(site.url, owner);
  sessionId = await createSessionInDesk(site.url, jar, { date: "2030-03-12", payment: "facture" });
  const registered = await deskFetch(site.url, `/admin/cours/${sessionId}`, {
    jar,
    form: {
      intent: "register",
      sessionId: String(sessionId),
      firstName: "Rose",
      lastName: "Favre",
      phone: "079 555 66 77",
      email: "rose.favre@example.ch",
      seats: "1",
      paysBy: "facture",
      postalStreet: "Chemin des Vignes 4",
      postalCode: "1814",
      postalLocality: "La Tour-de-Peilz",
    },
  });
  expect(registered.status).toBe(200);
});

test.afterAll(async () => {
  await site?.stop();
  await smtp?.close();
});

test("at 375 px the owner makes an invoice from a registration, sends it and marks it paid", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 375, height: 740 });
  // Signed in by the cookies of the sign-in made before all (a second sign-in would reuse its TOTP code).
  await addOwnerCookies(page.context(), jar, site.url);
  await page.goto(`${site.url}/admin`);
  await page.getByRole("link", { name: "Factures", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Factures");
  await checkAtBothWidths(page, "desk-invoices-empty");

  // From the session's page: "Faire une facture" in Rose's card.
  await page.goto(`${site.url}/admin/cours/${sessionId}`);
  await page.locator(PERSON, { hasText: "Rose Favre" }).getByRole("link", { name: "Faire une facture" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nouvelle facture");
  await expect(page.getByLabel("Nom (prénom et nom, ou nom de l’organisation)")).toHaveValue("Rose Favre");
  await expect(page.getByLabel("E-mail (pour l’envoyer, facultatif)")).toHaveValue("rose.favre@example.ch");
  await expect(page.getByLabel("Ligne 1 : désignation")).toHaveValue(/^Cours « .+ », mardi 12 mars 2030, 14\sh\s00$/);
  await expect(page.getByLabel("Prix unitaire (CHF)").first()).toHaveValue("55");
  // The postal address given when booking « sur facture ».
  await expect(page.getByLabel("Rue")).toHaveValue("Chemin des Vignes");
  await expect(page.getByLabel("N° (facultatif)")).toHaveValue("4");
  await expect(page.getByLabel("NPA")).toHaveValue("1814");
  await expect(page.getByLabel("Localité")).toHaveValue("La Tour-de-Peilz");
  await checkAtBothWidths(page, "desk-invoice-new");

  // Without the street: the field says what is missing, beside it.
  await page.getByLabel("Rue").fill("");
  await page.getByRole("button", { name: "Créer la facture" }).click();
  await expect(page.getByText("Indiquez la rue.")).toBeVisible();
  await expect(page.getByLabel("Rue")).toHaveAttribute("aria-invalid", "true");
  await checkAtBothWidths(page, "desk-invoice-new-errors");

  await page.getByLabel("Rue").fill("Chemin des Vignes");
  await page.getByRole("button", { name: "Créer la facture" }).click();
  await expect(page).toHaveURL(/\/admin\/factures\/\d+$/);
  const number = `${new Date().getFullYear()}-001`;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Facture n° ${number}`);
  await expect(page.getByText("Total : CHF 55.–")).toBeVisible();

  await page.getByRole("button", { name: "Envoyer par e-mail" }).click();
  await expect(page.getByRole("status")).toHaveText("La facture part par e-mail, en pièce jointe.");
  await waitFor(
    () => smtp.mails.some((mail) => mail.to === "rose.favre@example.ch" && mail.subject.includes(number)),
    20_000,
    "the invoice mail",
  );
  const mail = smtp.mails.find((entry) => entry.subject === `Facture n° ${number}`)!;
  expect(mail.attachments.map((file) => [file.filename, file.mimeType])).toEqual([
    [`facture-${number}.pdf`, "application/pdf"],
  ]);
  await checkAtBothWidths(page, "desk-invoice-open");

  await page.getByLabel("Comment").selectOption("twint");
  await page.getByRole("button", { name: "Marquer comme payée" }).click();
  await expect(page.getByRole("status")).toHaveText("Paiement enregistré : la facture est payée.");
  await expect(page.getByText(/^Payée le .+ \(TWINT\)$/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Envoyer par e-mail" })).toHaveCount(0);
  await checkAtBothWidths(page, "desk-invoice-paid");

  await page.getByRole("link", { name: "← Toutes les factures" }).click();
  await expect(page.getByText(`Facture n° ${number}`)).toBeVisible();
  await expect(page.getByText(/0 ouverte \(CHF 0\.–\), dont 0 en retard/)).toBeVisible();
  await checkAtBothWidths(page, "desk-invoices");
});

test("at 375 px the owner makes a quote from a group's request, sends it, has it accepted and invoiced", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const group = {
    ...validForm("club.vevey@example.ch"),
    service: "group-talk",
    organisation: "Club des aînés de Vevey",
    commune: "Vevey",
    groupSize: "12",
  };
  expect((await postContact(site.url, group)).status).toBeLessThan(400);
  const inbox = await (await deskFetch(site.url, "/admin", { jar })).text();
  const requestId = /\/admin\/demandes\/(\d+)/.exec(inbox)![1];
  await page.setViewportSize({ width: 375, height: 740 });
  await addOwnerCookies(page.context(), jar, site.url);
  /** axe, no sideways scroll, and the screenshot `screenshots/{name}-375.png` (E2E_SCREENSHOTS=1). */
  const check = async (name: string) => {
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);
    await photograph(page, `screenshots/${name}-375.png`, { fullPage: true });
  };

  await page.goto(`${site.url}/admin/demandes/${requestId}`);
  await page.getByRole("link", { name: "Faire un devis" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nouveau devis");
  await expect(page.getByLabel("Nom (prénom et nom, ou nom de l’organisation)")).toHaveValue("Club des aînés de Vevey");
  await expect(page.getByLabel("Personnes (facultatif)")).toHaveValue("12");
  await check("desk-quote-new");
  await page.getByLabel("Rue").fill("Rue du Lac");
  await page.getByLabel("NPA").fill("1800");
  await page.getByLabel("Ligne 1 : désignation").fill("Conférence « Le smartphone sans stress »");
  await page.getByLabel("Quantité").first().fill("1");
  await page.getByLabel("Prix unitaire (CHF)").first().fill("1250");
  await page.getByLabel("Cours ou atelier").selectOption("applications-mobiles");
  await page.getByLabel("Date de la séance").fill(`${COURSE_YEAR}-03-02`);
  await page.getByLabel("Heure de début").fill("14:00");
  await page.getByLabel("Lieu (par exemple « Salle communale »)").fill("Salle communale");
  await page.getByRole("button", { name: "Créer le devis" }).click();
  await expect(page.getByText("Indiquez l’adresse du lieu")).toBeVisible();
  await check("desk-quote-new-errors");
  await page.getByLabel("Adresse du lieu").fill("Rue du Lac 3, 1800 Vevey");
  await page.getByRole("button", { name: "Créer le devis" }).click();
  await expect(page).toHaveURL(/\/admin\/devis\/\d+$/);
  const number = `D-${new Date().getFullYear()}-001`;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Devis n° ${number}`);
  await expect(page.getByText("Total : CHF 1’250.–")).toBeVisible();
  await expect(page.getByText(`mardi 2 mars ${COURSE_YEAR}, 14 h 00`)).toBeVisible();
  await check("desk-quote-draft");
  await page.getByRole("link", { name: "Modifier le brouillon" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Modifier le devis n° ${number}`);
  await expect(page.getByLabel("Personnes (facultatif)")).toHaveValue("12");
  await check("desk-quote-edit");
  await page.getByLabel("Personnes (facultatif)").fill("14");
  await page.getByRole("button", { name: "Enregistrer le brouillon" }).click();
  await expect(page).toHaveURL(/\/admin\/devis\/\d+$/);
  await expect(page.getByText("14 personnes")).toBeVisible();

  await page.getByRole("button", { name: "Envoyer par e-mail" }).click();
  await expect(page.getByRole("status")).toHaveText("Le devis part par e-mail, en pièce jointe.");
  await page.getByRole("button", { name: "Accepté par l’organisation" }).click();
  await page.getByRole("button", { name: "Créer la séance du groupe" }).click();
  await expect(page.getByRole("heading", { name: "Participants (0)" })).toBeVisible();
  await page.getByLabel("Participant 1", { exact: true }).fill("Rose Favre");
  await page.getByRole("button", { name: "Enregistrer la liste" }).click();
  await expect(page.getByRole("heading", { name: "Participants (1)" })).toBeVisible();
  await check("desk-quote-accepted");

  await page.getByRole("link", { name: "← Tous les devis" }).click();
  await expect(page.getByText(`Devis n° ${number}`)).toBeVisible();
  await check("desk-quotes");
  await page.getByRole("link", { name: `Devis n° ${number}` }).click();
  await page.getByRole("button", { name: "Faire la facture" }).click();
  await expect(page).toHaveURL(/\/admin\/factures\/\d+$/);
  await expect(page.getByText("Total : CHF 1’250.–")).toBeVisible();
});
