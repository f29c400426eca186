/**
 * The session and series forms start from the course (issue 33, item 4):
 * once the owner sets the small-group price to CHF 60.– in Réglages,
 * choosing a course in « Nouvelle séance » proposes CHF 60 and the course's
 * own lesson (2 h for « Sécurité et protection »); in « Nouvelle série de
 * dates », « Applications mobiles » proposes 90 minutes and CHF 240 for its
 * 4 dates, with the total written under it, and 3 dates make it CHF 180.
 */
import { expect, test } from "@playwright/test";
import { defaultPrices } from "../../app/content/services";
import { deskFetch, signIn, type CookieJar } from "../support/harness";
import { ownerBrowserContext, setUpOwnSite } from "./desk-helpers";
import { expectNoAxeViolations, waitForHydration } from "./helpers";

const own = setUpOwnSite({ owner: "prices-owner@example.ch" });
let jar: CookieJar;

test.beforeAll(async () => {
  jar = await signIn(own.site.url, own.owners.owner);
  const saved = await deskFetch(own.site.url, "/admin/reglages", {
    jar,
    form: {
      section: "prices",
      "prices-small-group": "60",
      "prices-one-to-one-course": String(defaultPrices["one-to-one-course"]),
      "prices-one-to-one-support": String(defaultPrices["one-to-one-support"]),
    },
  });
  expect(saved.status).toBe(303);
});

test("the forms propose the course's lesson and the price of Réglages, a series its total", async ({ browser }) => {
  const context = await ownerBrowserContext(browser, own.site.url, jar, { viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto(`${own.site.url}/admin/cours`);
  await waitForHydration(page);
  await expect(page.getByText("Laissé vide : CHF 60.– par séance, le prix de vos Réglages.")).toBeVisible();
  await page.getByLabel("Cours", { exact: true }).selectOption("securite");
  await expect(page.getByLabel("Prix (CHF)")).toHaveValue("60");
  await expect(page.getByLabel("Durée (minutes)")).toHaveValue("120");
  await expect(page.getByText("Prix de vos Réglages : CHF 60.– par séance.")).toBeVisible();

  await page.goto(`${own.site.url}/admin/cours/nouvelle-serie`);
  await waitForHydration(page);
  await page.getByLabel("Cours", { exact: true }).selectOption("applications-mobiles");
  await expect(page.getByLabel("Durée (minutes)")).toHaveValue("90");
  await expect(page.getByLabel("Prix de la série (CHF)")).toHaveValue("240");
  await expect(page.getByText("Proposé : 4 séances à CHF 60.–, soit CHF 240.– pour la série.")).toBeVisible();
  await page.getByLabel("Nombre de séances").fill("3");
  await expect(page.getByLabel("Prix de la série (CHF)")).toHaveValue("180");
  await expect(page.getByText("Proposé : 3 séances à CHF 60.–, soit CHF 180.– pour la série.")).toBeVisible();
  // A price the owner typed stays when the course changes.
  await page.getByLabel("Prix de la série (CHF)").fill("200");
  await page.getByLabel("Cours", { exact: true }).selectOption("securite");
  await expect(page.getByLabel("Prix de la série (CHF)")).toHaveValue("200");
  await expect(page.getByLabel("Durée (minutes)")).toHaveValue("120");
  await expectNoAxeViolations(page);
  await page.screenshot({ path: "screenshots/course-series-price-375.png", fullPage: true });
  await context.close();
});
