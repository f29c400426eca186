/**
 * Courses in the browser, on a site of their own (a fresh PGlite folder,
 * an owner made before it starts): registering at 320 px with and without
 * JavaScript, for oneself and for a relative; a full session shows
 * "Complet" and takes the waiting list; cancelling from the confirmation
 * page (it asks once); the owner creates and cancels a session in the
 * desk; at 320 px without JavaScript, a booking without e-mail that the
 * owner cancels from the desk (asked once), the seat then given to the
 * first on the waiting list, who is mailed; the telephone one tap away in
 * the header at 375 px and on /cours; axe finds 0 violations on every new
 * page.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { identity } from "../../app/content/identity";
import {
  createOwner,
  freshDataDir,
  signIn,
  spawnSite,
  startSmtp,
  waitFor,
  totpCode,
  type CookieJar,
  type SpawnedSite,
  type TestOwner,
} from "../support/harness";
import { createSessionInDesk, ownerBrowserContext, PERSON } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, photograph, waitForHydration } from "./helpers";
import { COURSE_YEAR } from "../support/course-year";

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
let smtp: Awaited<ReturnType<typeof startSmtp>>;

/** Creates a session through the desk; resolves with its id. */
const newSession = (fields: Record<string, string>) => createSessionInDesk(site.url, jar, fields);

test.beforeAll(async () => {
  const dataDir = freshDataDir();
  owner = await createOwner(dataDir, "owner@example.ch");
  smtp = await startSmtp();
  site = await spawnSite({
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    SMTP_URL: smtp.url,
    CONTACT_NOTIFY_TO: "owner@example.ch",
    OUTBOX_POLL_SECONDS: "1",
  });
  await site.ready();
  jar = await signIn(site.url, owner);
  await newSession({ date: `${COURSE_YEAR}-01-12` });
  await newSession({ date: `${COURSE_YEAR}-01-19` });
});

test.afterAll(async () => {
  await site?.stop();
  await smtp?.close();
});

async function phonePage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 320, height: 640 }, javaScriptEnabled });
  return context.newPage();
}

/** Each person their own telephone: a telephone registers once per session. */
let phones = 0;
async function fillAttendee(page: Page, lastName: string, email: string) {
  await page.getByLabel("Prénom", { exact: true }).fill("Marie");
  await page.getByLabel("Nom", { exact: true }).fill(lastName);
  await page.getByLabel("Téléphone", { exact: true }).fill(`079 123 45 ${String(10 + phones++)}`);
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

    await page.getByLabel(new RegExp(String.raw`mardi 12 janvier ${COURSE_YEAR}, 14\sh\s00`)).check();
    await fillAttendee(page, javaScriptEnabled ? "Avecjs" : "Sansjs", "marie@example.ch");
    await page.getByRole("button", { name: "Envoyer l’inscription" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Votre inscription est confirmée");
    await expect(page.getByText(`Mardi 12 janvier ${COURSE_YEAR}, 14 h 00 – 16 h 00`)).toBeVisible();
    await expect(page.getByRole("link", { name: "Ajouter à mon agenda" })).toHaveAttribute(
      "href",
      /\/calendrier\.ics$/,
    );
    await expectNoHorizontalScroll(page);
    await checkAxe(page, javaScriptEnabled);

    // It asks once.
    await page.getByRole("link", { name: "Annuler mon inscription" }).click();
    await expect(page.getByText(/Voulez-vous vraiment annuler l’inscription de Marie/)).toBeVisible();
    await page.getByRole("button", { name: "Oui, annuler" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cette inscription est annulée");
    await expect(page.getByRole("status")).toContainText("Votre inscription est annulée.");
    await page.context().close();
  });

  test(`registers a relative ${how} at 320 px`, async ({ browser }) => {
    const page = await phonePage(browser, javaScriptEnabled);
    await page.goto(`${site.url}/cours/securite`);
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByLabel(new RegExp(String.raw`mardi 19 janvier ${COURSE_YEAR}`)).check();
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
    const attendee = `Marie Proche ${javaScriptEnabled ? "A" : "B"}`;
    await expect(page.getByText(attendee, { exact: true })).toBeVisible();
    // Who registered whom, and who got the confirmation (the attendee has no e-mail).
    await expect(page.getByTestId("mailed-to")).toContainText(`Luc Dupont a inscrit ${attendee}.`);
    await expect(page.getByTestId("mailed-to")).toContainText("à luc@example.ch (Luc Dupont)");
    await page.context().close();
  });
}

test("a full session shows Complet and takes the waiting list", async ({ browser }) => {
  const sessionId = await newSession({
    date: `${COURSE_YEAR}-02-02`,
    courseId: "cafe-numerique",
    capacity: "1",
    minimum: "1",
  });
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
    const dates = security.getByRole("link", { name: new RegExp(String.raw`janvier ${COURSE_YEAR}`) });
    await expect(dates).toHaveText([
      new RegExp(String.raw`mardi 12 janvier ${COURSE_YEAR}, 14\sh\s00 – 16\sh\s00\s*8 places restantes`, "i"),
      new RegExp(String.raw`mardi 19 janvier ${COURSE_YEAR}, 14\sh\s00 – 16\sh\s00\s*6 places restantes`, "i"),
    ]);
    await expect(
      card("Café numérique").getByRole("link", { name: new RegExp(String.raw`février ${COURSE_YEAR}`) }),
    ).toContainText("Complet");
    await expect(card("Intelligence artificielle").getByText("Pas encore de date fixée")).toBeVisible();
    await expectNoHorizontalScroll(page);
    await checkAxe(page, javaScriptEnabled);

    // A date leads to the course's form with that session chosen.
    await dates.nth(1).click();
    await expect(page).toHaveURL(/\/cours\/securite\?seance=\d+#inscription$/);
    await expect(page.getByLabel(new RegExp(String.raw`mardi 19 janvier ${COURSE_YEAR}`))).toBeChecked();
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

  // The desk's menu: « Cours » may carry its badge of new registrations (« Cours 1 nouvelle »).
  await page
    .getByRole("navigation", { name: "Bureau" })
    .getByRole("link", { name: /^Cours\b/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Cours" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("Cours", { exact: true }).selectOption("intelligence-artificielle");
  await page.getByLabel("Date", { exact: true }).fill(`${COURSE_YEAR}-03-09`);
  await page.getByLabel("Heure de début").fill("10:00");
  await page.getByLabel("Lieu", { exact: true }).fill("Espace Seniors");
  await page.getByLabel("Adresse", { exact: true }).fill("Avenue de la Gare 5, 1003 Lausanne");
  await page.getByRole("button", { name: "Créer la séance" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Intelligence artificielle" })).toBeVisible();
  await expect(page.getByText(`Mardi 9 mars ${COURSE_YEAR}, 10 h 00 – 12 h 00`)).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto(`${site.url}/cours/intelligence-artificielle`);
  await expect(page.getByText(`mardi 9 mars ${COURSE_YEAR}, 10 h 00 – 12 h 00`).first()).toBeVisible();
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
  await expect(page.getByText(`mardi 9 mars ${COURSE_YEAR}`)).toHaveCount(0);
});

/** A browser at `width` px, signed in as the owner (the cookies of the API sign-in made before all). */
async function ownerContext(browser: Browser, width: number, javaScriptEnabled: boolean): Promise<BrowserContext> {
  return ownerBrowserContext(browser, site.url, jar, { viewport: { width, height: 740 }, javaScriptEnabled });
}

test("at 320 px without JavaScript: a booking without e-mail, cancelled by the owner from the desk, the seat given to the first waiting, who is mailed", async ({
  browser,
}) => {
  const sessionId = await newSession({ date: `${COURSE_YEAR}-02-09`, capacity: "1", minimum: "1" });
  // A senior without e-mail books the only seat.
  const page = await phonePage(browser, false);
  await page.goto(`${site.url}/cours/securite?seance=${sessionId}`);
  await fillAttendee(page, "Sansmail", "");
  await page.getByRole("button", { name: "Envoyer l’inscription" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Votre inscription est confirmée");
  await expect(page.getByText(/Vous n’avez pas donné d’adresse e-mail : imprimez cette page/)).toBeVisible();
  // The owner's telephone: without JavaScript, the button leads to the page where it is a tel: link.
  await page.getByRole("button", { name: "Afficher le numéro" }).click();
  await expect(page.locator(`a[href="tel:${identity.phone}"]`)).toBeVisible();
  await page.goBack();
  await expectNoHorizontalScroll(page);
  await photograph(page, "test-results/screens/booking-confirmation-320.png", { fullPage: true });
  await photograph(
    page.locator("section", { has: page.getByRole("heading", { name: "Gardez cette page" }) }),
    "test-results/screens/booking-keep-320.png",
  );
  // Her son books for himself: the session is full, he waits, with an e-mail.
  await page.goto(`${site.url}/cours/securite?seance=${sessionId}`);
  await fillAttendee(page, "Attend", "attend@example.ch");
  await page.getByRole("button", { name: "Envoyer l’inscription" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vous êtes sur la liste d’attente");
  await page.context().close();

  // The owner, at 320 px without JavaScript, cancels hers: asked once.
  const desk = await (await ownerContext(browser, 320, false)).newPage();
  await desk.goto(`${site.url}/admin/cours/${sessionId}`);
  await expect(desk.getByText("1 / 1 places prises")).toBeVisible();
  const hers = desk.locator(PERSON, { hasText: "Marie Sansmail" });
  await hers.getByRole("link", { name: "Annuler l’inscription" }).click();
  await expect(hers.getByText(/^Annuler l’inscription de Marie Sansmail\s\?$/)).toBeVisible();
  await expect(hers.getByText("Sans e-mail : prévenez la personne par téléphone.")).toBeVisible();
  await expectNoHorizontalScroll(desk);
  await photograph(hers, "test-results/screens/desk-session-ask-320.png");
  await hers.getByRole("button", { name: "Oui, annuler" }).click();
  await expect(desk.getByRole("status")).toContainText("L’inscription est annulée et sa place est libre.");
  await expect(desk.getByText("0 / 1 places prises")).toBeVisible();
  await expect(desk.getByText("1 inscription annulée.")).toBeVisible();
  // The first on the waiting list is taken in, and mailed.
  await desk.locator(PERSON, { hasText: "Marie Attend" }).getByRole("button", { name: "Donner la place" }).click();
  await expect(desk.getByRole("status")).toContainText("La place est donnée.");
  await expect(desk.getByText("1 / 1 places prises")).toBeVisible();
  await photograph(desk, "test-results/screens/desk-session-320.png");
  await waitFor(
    () => smtp.mails.some((mail) => mail.to === "attend@example.ch" && mail.subject.startsWith("Une place pour vous")),
    15_000,
    "the mail of the seat given",
  );
  const given = smtp.mails.find((mail) => mail.subject.startsWith("Une place pour vous"))!;
  expect(given.text).toContain("Bonjour Marie Attend,");
  expect(given.replyTo).toBe(identity.email);
  // She has no e-mail: no mail at all went to her.
  expect(smtp.mails.filter((mail) => mail.text.includes("Marie Sansmail") && mail.to !== "owner@example.ch")).toEqual(
    [],
  );
  await desk.context().close();
  // The question, with JavaScript, passes axe.
  const withScript = await ownerContext(browser, 320, true);
  const asking = await withScript.newPage();
  await asking.goto(`${site.url}/admin/cours/${sessionId}`);
  await asking
    .locator(PERSON, { hasText: "Marie Attend" })
    .getByRole("link", { name: "Annuler l’inscription" })
    .click();
  await expect(asking.getByRole("button", { name: "Oui, annuler" })).toBeVisible();
  await expectNoAxeViolations(asking);
  await withScript.close();
});

test("the header's Appeler at 375 px shows the owner's number as a tel: link in one tap; /cours shows it beside par téléphone", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto(`${site.url}/cours`);
  await waitForHydration(page);
  const header = page.getByRole("banner");
  // Not in the page as text before the tap (decision 001).
  expect(await page.content()).not.toContain(identity.phoneDisplay);
  await header.getByRole("button", { name: "Appeler" }).click();
  const call = header.locator(`a[href="tel:${identity.phone}"]`);
  await expect(call).toBeVisible();
  await expect(call).toHaveText(`Appeler le ${identity.phoneDisplay}`);
  await expect(call).toBeFocused();
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await photograph(page, "test-results/screens/header-phone-375.png");

  // /cours: "inscrivez-vous en ligne ou par téléphone", then the number one tap away.
  await page.reload();
  await waitForHydration(page);
  const intro = page.getByText("inscrivez-vous en ligne ou par téléphone");
  await expect(intro).toBeVisible();
  await page.getByRole("main").getByRole("button", { name: "Afficher le numéro" }).click();
  await expect(page.getByRole("main").locator(`a[href="tel:${identity.phone}"]`)).toHaveText(
    `Appeler le ${identity.phoneDisplay}`,
  );
  // The same on a course page, under "Par téléphone".
  await page.goto(`${site.url}/cours/securite`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Par téléphone" })).toBeVisible();
  await page.getByRole("main").getByRole("button", { name: "Afficher le numéro" }).click();
  await expect(page.getByRole("main").locator(`a[href="tel:${identity.phone}"]`)).toBeVisible();
  await context.close();
});
