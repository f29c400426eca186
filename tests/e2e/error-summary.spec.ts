/**
 * The error summary of every public form (issue 24, item 7), at 320 px, on
 * a site of its own with two course sessions: the registration form, the
 * contact page, the callback request and the newsletter box. Without JavaScript the server's
 * answer opens the form with "Il y a N erreur(s) dans le formulaire", the
 * summary has the focus (`document.activeElement`), and each link moves
 * the focus to its field. With JavaScript the browser's own check shows the
 * same summary and focuses it (GOV.UK's pattern), and axe finds nothing;
 * the newsletter box (one field, answered in place) then shows its message
 * beside the field and puts the focus back in it.
 *
 * With SUMMARY_SCREENSHOTS=dir, each form with its summary is saved there.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { callbackMessages } from "../../app/callback/schema";
import { contactMessages } from "../../app/contact/schema";
import { newsletterMessages } from "../../app/newsletter/words";
import { createOwner, freshDataDir, signIn, spawnSite, type SpawnedSite } from "../support/harness";
import { createSessionInDesk } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, waitForHydration } from "./helpers";
import { COURSE_YEAR } from "../support/course-year";

test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

let site: SpawnedSite;

test.beforeAll(async () => {
  const dataDir = freshDataDir();
  const owner = await createOwner(dataDir, "owner@example.ch");
  site = await spawnSite({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
  await site.ready();
  const jar = await signIn(site.url, owner);
  for (const date of [`${COURSE_YEAR}-01-12`, `${COURSE_YEAR}-01-19`])
    await createSessionInDesk(site.url, jar, { date });
});

test.afterAll(async () => {
  await site?.stop();
});

async function phonePage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 320, height: 640 }, javaScriptEnabled });
  // Each page its own client address: the tests do not share the rate limits' allowance.
  const byte = () => Math.floor(Math.random() * 250) + 1;
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": `10.${byte()}.${byte()}.${byte()}` });
  return context.newPage();
}

/** The id of the element that has the focus. */
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");

/**
 * The summary (`#{summaryId}`) is shown, titled for `messages.length`
 * errors, has the focus, and lists `messages` in order, each a link to a
 * field; following each link (in a fresh answer, as a visitor would go
 * back to the list) focuses that field.
 */
async function expectSummary(page: Page, summaryId: string, messages: readonly string[], shot: string) {
  const summary = page.locator(`#${summaryId}`);
  const count = messages.length;
  await expect(summary.getByRole("heading")).toHaveText(
    `Il y a ${count} erreur${count > 1 ? "s" : ""} dans le formulaire`,
  );
  await expect.poll(() => focusedId(page)).toBe(summaryId);
  await expect(summary).toBeInViewport();
  const links = summary.getByRole("link");
  await expect(links).toHaveText([...messages]);
  await expectNoHorizontalScroll(page);
  if (process.env.SUMMARY_SCREENSHOTS)
    await page.screenshot({ path: `${process.env.SUMMARY_SCREENSHOTS}/${shot}.png` });
  const targets: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const href = (await links.nth(index).getAttribute("href"))!;
    expect(href).toMatch(/^#[\w-]+$/);
    targets.push(href.slice(1));
  }
  for (const target of targets) {
    await summary.locator(`a[href="#${target}"]`).first().click();
    await expect.poll(() => focusedId(page), `the link to #${target} focuses its field`).toBe(target);
    await expect(page.locator(`#${target}`)).toBeInViewport();
    // The field says what is wrong with it (its own message, tied by aria-describedby).
    if (!target.endsWith("-error")) await expect(page.locator(`#${target}`)).toHaveAttribute("aria-invalid", "true");
  }
}

for (const javaScriptEnabled of [false, true]) {
  const how = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`a registration with mistakes opens with the error summary, focused, ${how}`, async ({ browser }) => {
    const page = await phonePage(browser, javaScriptEnabled);
    await page.goto(`${site.url}/cours/securite`);
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByLabel("Prénom", { exact: true }).fill("M");
    await page.getByLabel("Nom", { exact: true }).fill("Dupont");
    // One telephone books a session once (issue 24, item 6): each run its own number.
    await page.getByLabel("Téléphone", { exact: true }).fill(javaScriptEnabled ? "079 123 45 67" : "079 765 43 21");
    await page.getByRole("button", { name: "Envoyer l’inscription" }).click();
    await expectSummary(
      page,
      "inscription-form-summary",
      ["Veuillez choisir une séance", contactMessages.firstName],
      `booking-${javaScriptEnabled ? "js" : "nojs"}-320`,
    );
    if (javaScriptEnabled) await expectNoAxeViolations(page);
    // Corrected, the registration goes through.
    await page.getByLabel(new RegExp(String.raw`mardi 12 janvier ${COURSE_YEAR}`)).check();
    await page.getByLabel("Prénom", { exact: true }).fill("Marie");
    await page.getByRole("button", { name: "Envoyer l’inscription" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Votre inscription est confirmée");
    await page.context().close();
  });

  test(`the contact page with mistakes opens with the error summary, focused, ${how}`, async ({ browser }) => {
    const page = await phonePage(browser, javaScriptEnabled);
    await page.goto(`${site.url}/contact`);
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByLabel("Prénom", { exact: true }).fill("Jeanne");
    await page.getByLabel("Adresse e-mail", { exact: true }).fill("jeanne@");
    await page.getByRole("button", { name: "Envoyer", exact: true }).click();
    await expectSummary(
      page,
      "contact-page-form-summary",
      [contactMessages.lastName, contactMessages.email, contactMessages.phone, contactMessages.service],
      `contact-${javaScriptEnabled ? "js" : "nojs"}-320`,
    );
    if (javaScriptEnabled) await expectNoAxeViolations(page);
    await page.context().close();
  });

  test(`a callback request with mistakes opens with the error summary, focused, ${how}`, async ({ browser }) => {
    const page = await phonePage(browser, javaScriptEnabled);
    await page.goto(`${site.url}/rappel`);
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByLabel("Prénom", { exact: true }).fill("Jeanne");
    await page.getByLabel("Nom", { exact: true }).fill("Rochat");
    await page.getByRole("button", { name: "Demander un appel" }).click();
    await expectSummary(
      page,
      "callback-form-summary",
      [contactMessages.phone, callbackMessages.halfDays],
      `callback-${javaScriptEnabled ? "js" : "nojs"}-320`,
    );
    if (javaScriptEnabled) await expectNoAxeViolations(page);
    await page.context().close();
  });

  test(`the newsletter box with a wrong address answers beside its field ${how}`, async ({ browser }) => {
    const page = await phonePage(browser, javaScriptEnabled);
    // From the home page's box: without JavaScript, /newsletter answers with its own box and the summary.
    await page.goto(`${site.url}/`);
    if (javaScriptEnabled) await waitForHydration(page);
    const box = page.locator("#newsletter-home-email");
    await box.fill("marie@exemple");
    await box.press("Enter");
    if (javaScriptEnabled) {
      // In place (a fetcher): the message beside the field, announced, and the focus back in the field.
      await expect(page.locator("#newsletter-home-error")).toHaveText(newsletterMessages.email);
      await expect(page.locator("#newsletter-home-error")).toHaveAttribute("role", "alert");
      await expect.poll(() => focusedId(page)).toBe("newsletter-home-email");
      await expect(box).toHaveAttribute("aria-invalid", "true");
      await expectNoAxeViolations(page);
    } else {
      await expectSummary(page, "newsletter-newsletter-summary", [newsletterMessages.email], "newsletter-nojs-320");
      // What was typed is there to correct.
      await expect(page.locator("#newsletter-newsletter-email")).toHaveValue("marie@exemple");
    }
    await page.context().close();
  });
}

test("a talk for a group without JavaScript: its fields are shown, said to be for groups, and asked for", async ({
  browser,
}) => {
  const page = await phonePage(browser, false);
  await page.goto(`${site.url}/contact`);
  const group = page.getByRole("group", { name: "Pour une conférence ou un atelier de groupe" });
  await expect(group).toBeVisible();
  await expect(group).toContainText("À remplir seulement si vous avez choisi « Conférence ou atelier pour un groupe »");
  await page.getByLabel("Prénom", { exact: true }).fill("Claire");
  await page.getByLabel("Nom", { exact: true }).fill("Rochat");
  await page.getByLabel("Adresse e-mail", { exact: true }).fill("claire.rochat@example.ch");
  await page.getByLabel("Téléphone", { exact: true }).fill("021 123 45 67");
  await page.getByLabel("Service souhaité").selectOption({ label: "Conférence ou atelier pour un groupe" });
  await group.getByLabel("Nombre de personnes").fill("1");
  await page.getByRole("button", { name: "Envoyer", exact: true }).click();
  await expectSummary(
    page,
    "contact-page-form-summary",
    [contactMessages.organisation, contactMessages.commune, contactMessages.groupSize],
    "contact-group-nojs-320",
  );
  await group.getByLabel("Association, club ou organisation").fill("Club des aînés");
  await group.getByLabel("Commune").fill("Morges");
  await group.getByLabel("Nombre de personnes").fill("25");
  await page.getByRole("button", { name: "Envoyer", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(contactMessages.successTitle);
  await page.context().close();
});

test("a talk for a group with JavaScript: its fields appear once that service is chosen", async ({ browser }) => {
  const page = await phonePage(browser, true);
  await page.goto(`${site.url}/contact`);
  await waitForHydration(page);
  const group = page.getByRole("group", { name: "Pour une conférence ou un atelier de groupe" });
  await expect(group).toHaveCount(0);
  await page.getByLabel("Service souhaité").selectOption({ label: "Conférence ou atelier pour un groupe" });
  await expect(group).toBeVisible();
  await expect(group.getByLabel("Association, club ou organisation")).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await page.getByLabel("Service souhaité").selectOption({ label: "Cours individuel" });
  await expect(group).toHaveCount(0);
  await page.context().close();
});
