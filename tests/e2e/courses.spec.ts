/**
 * Courses in the browser, on a site of their own (a fresh PGlite folder,
 * an owner made before it starts): registering at 320 px with and without
 * JavaScript, for oneself and for a relative; a full session shows
 * "Complet" and takes the waiting list; cancelling from the confirmation
 * page; the owner creates and cancels a session in the desk; axe finds 0
 * violations on every new page.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import {
  createOwner,
  freshDataDir,
  signIn,
  spawnSite,
  totpCode,
  type CookieJar,
  type SpawnedSite,
  type TestOwner,
} from "../support/harness";
import { createSessionInDesk } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, waitForHydration } from "./helpers";

test.describe.configure({ mode: "serial" });
// A site of its own, axe on each page, two cores shared.
test.setTimeout(120_000);

/** axe runs in the page: with JavaScript turned off it cannot, and the same HTML is checked with it on. */
async function checkAxe(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await expectNoAxeViolations(page);
}

let site: SpawnedSite;
let owner: TestOwner;
let jar: CookieJar;

/** Creates a session through the desk; resolves with its id. */
const newSession = (fields: Record<string, string>) => createSessionInDesk(site.url, jar, fields);

test.beforeAll(async () => {
  const dataDir = freshDataDir();
  owner = await createOwner(dataDir, "owner@example.ch");
  site = await spawnSite({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
  await site.ready();
  jar = await signIn(site.url, owner);
  await newSession({ date: "2027-01-12" });
  await newSession({ date: "2027-01-19" });
});

test.afterAll(async () => {
  await site?.stop();
});

async function phonePage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 320, height: 640 }, javaScriptEnabled });
  return context.newPage();
}

async function fillAttendee(page: Page, lastName: string, email: string) {
  await page.getByLabel("Prénom", { exact: true }).fill("Marie");
  await page.getByLabel("Nom", { exact: true }).fill(lastName);
  await page.getByLabel("Téléphone", { exact: true }).fill("079 123 45 67");
  if (email) await page.getByLabel("Adresse e-mail (facultatif)", { exact: true }).fill(email);
}

for (const javaScriptEnabled of [false, true]) {
  const how = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`registers oneself ${how} at 320 px, then cancels from the confirmation page`, async ({ browser }) => {
    const page = await phonePage(browser, javaScriptEnabled);
    await page.goto(`${site.url}/cours/securite`);
    if (javaScriptEnabled) await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "Sécurité et protection" })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await checkAxe(page, javaScriptEnabled);

    // Sent empty: the French messages beside the fields (and in the summary, tests/e2e/error-summary.spec.ts).
    await page.getByRole("button", { name: "Envoyer l’inscription" }).click();
    await expect(page.locator("p", { hasText: "Veuillez choisir une séance" })).toBeVisible();
    await expect(page.locator("p", { hasText: "Le prénom doit contenir au moins 2 caractères" })).toBeVisible();
    await checkAxe(page, javaScriptEnabled);

    await page.getByLabel(/mardi 12 janvier 2027, 14\sh\s00/).check();
    await fillAttendee(page, javaScriptEnabled ? "Avecjs" : "Sansjs", "marie@example.ch");
    await page.getByRole("button", { name: "Envoyer l’inscription" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Votre inscription est confirmée");
    await expect(page.getByText("Mardi 12 janvier 2027, 14 h 00 – 16 h 00")).toBeVisible();
    await expect(page.getByRole("link", { name: "Ajouter à mon agenda" })).toHaveAttribute(
      "href",
      /\/calendrier\.ics$/,
    );
    await expectNoHorizontalScroll(page);
    await checkAxe(page, javaScriptEnabled);

    await page.getByRole("button", { name: "Annuler mon inscription" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cette inscription est annulée");
    await expect(page.getByRole("status")).toContainText("Votre inscription est annulée.");
    await page.context().close();
  });

  test(`registers a relative ${how} at 320 px`, async ({ browser }) => {
    const page = await phonePage(browser, javaScriptEnabled);
    await page.goto(`${site.url}/cours/securite`);
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByLabel(/mardi 19 janvier 2027/).check();
    await fillAttendee(page, `Proche ${javaScriptEnabled ? "A" : "B"}`, "");
    await page.getByText("J’inscris un proche").click();
    // Two people, two autofill sections: the browser fills the registrant's own details apart from the attendee's.
    for (const [label, token] of [
      ["Prénom", "section-participant given-name"],
      ["Votre prénom", "section-inscription given-name"],
      ["Votre téléphone", "section-inscription tel"],
    ])
      await expect(page.getByLabel(label!, { exact: true })).toHaveAttribute("autocomplete", token!);
    await page.getByLabel("Votre prénom").fill("Luc");
    await page.getByLabel("Votre nom").fill("Dupont");
    await page.getByLabel("Votre téléphone").fill("021 123 45 67");
    await page.getByLabel("Votre adresse e-mail (facultatif)").fill("luc@example.ch");
    await checkAxe(page, javaScriptEnabled);
    await page.getByRole("button", { name: "Envoyer l’inscription" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Votre inscription est confirmée");
    await expect(page.getByText(`Marie Proche ${javaScriptEnabled ? "A" : "B"}`)).toBeVisible();
    await page.context().close();
  });
}

test("a full session shows Complet and takes the waiting list", async ({ browser }) => {
  const sessionId = await newSession({ date: "2027-02-02", courseId: "cafe-numerique", capacity: "1", minimum: "1" });
  const page = await phonePage(browser, true);
  for (const lastName of ["Premier", "Second"]) {
    await page.goto(`${site.url}/cours/cafe-numerique?seance=${sessionId}`);
    await waitForHydration(page);
    await fillAttendee(page, lastName, "");
    await page.getByRole("button", { name: "Envoyer l’inscription" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vous êtes sur la liste d’attente");
  await expect(page.getByText("Vous êtes en position 1 sur la liste")).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto(`${site.url}/cours`);
  const card = page.locator(`#seance-${sessionId}`);
  await expect(card.getByText("Complet (1 personne en liste d’attente)")).toBeVisible();
  await expect(card.getByRole("link", { name: /^Liste d’attente/ })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await page.context().close();
});

for (const javaScriptEnabled of [false, true]) {
  test(`the home page's course cards show the next dates and the places left ${javaScriptEnabled ? "with" : "without"} JavaScript, at 320 px`, async ({
    browser,
  }) => {
    // Sessions by now: Sécurité on 12 January (registered twice, cancelled twice: 8 left) and on
    // 19 January (two relatives: 6 left); Café numérique on 2 February (1 seat, taken: Complet).
    const page = await phonePage(browser, javaScriptEnabled);
    await page.goto(`${site.url}/`);
    if (javaScriptEnabled) await waitForHydration(page);
    const card = (title: string) =>
      page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3, name: title }) });

    const security = card("Sécurité et protection");
    await expect(security.getByRole("heading", { level: 4, name: "Prochaines dates" })).toBeVisible();
    const dates = security.getByRole("link", { name: /janvier 2027/ });
    await expect(dates).toHaveText([
      /mardi 12 janvier 2027, 14\sh\s00 – 16\sh\s00\s*8 places restantes/i,
      /mardi 19 janvier 2027, 14\sh\s00 – 16\sh\s00\s*6 places restantes/i,
    ]);
    await expect(card("Café numérique").getByRole("link", { name: /février 2027/ })).toContainText("Complet");
    await expect(card("Intelligence artificielle").getByText("Pas encore de date fixée")).toBeVisible();
    await expectNoHorizontalScroll(page);
    await checkAxe(page, javaScriptEnabled);

    // A date leads to the course's form with that session chosen.
    await dates.nth(1).click();
    await expect(page).toHaveURL(/\/cours\/securite\?seance=\d+#inscription$/);
    await expect(page.getByLabel(/mardi 19 janvier 2027/)).toBeChecked();
    await page.context().close();
  });
}

test("the owner creates and cancels a session in the desk", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${site.url}/admin/connexion`);
  await page.getByLabel("Adresse e-mail").fill(owner.email);
  await page.getByLabel("Mot de passe").fill(owner.password);
  await page.getByRole("button", { name: "Continuer" }).click();
  // The next step's code: the current one may be the one the API sign-in used (refused when replayed).
  await page.getByLabel("Code de vérification").fill(totpCode(owner, Date.now() + 30_000));
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(/\/admin$/);

  await page.getByRole("link", { name: "Cours", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Cours" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("Cours", { exact: true }).selectOption("intelligence-artificielle");
  await page.getByLabel("Date", { exact: true }).fill("2027-03-09");
  await page.getByLabel("Heure de début").fill("10:00");
  await page.getByLabel("Lieu", { exact: true }).fill("Espace Seniors");
  await page.getByLabel("Adresse", { exact: true }).fill("Avenue de la Gare 5, 1003 Lausanne");
  await page.getByRole("button", { name: "Créer la séance" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Intelligence artificielle" })).toBeVisible();
  await expect(page.getByText("Mardi 9 mars 2027, 10 h 00 – 12 h 00")).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto(`${site.url}/cours/intelligence-artificielle`);
  await expect(page.getByText("mardi 9 mars 2027, 10 h 00 – 12 h 00").first()).toBeVisible();
  await page.goBack();

  await page.getByRole("link", { name: "Liste de présence" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Liste de présence");
  await expectNoAxeViolations(page);
  await page.goBack();

  await page.getByRole("button", { name: "Annuler la séance" }).click();
  await expect(page.getByRole("status")).toContainText("Cochez la case pour confirmer");
  await page.getByLabel(/Je confirme/).check();
  await page.getByRole("button", { name: "Annuler la séance" }).click();
  await expect(page.getByRole("status")).toContainText("Séance annulée.");
  await expect(page.getByText("Annulée", { exact: true })).toBeVisible();
  await page.goto(`${site.url}/cours/intelligence-artificielle`);
  await expect(page.getByText("mardi 9 mars 2027")).toHaveCount(0);
});
