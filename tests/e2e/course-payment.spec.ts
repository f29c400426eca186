/**
 * A course paid « au choix » (issue 33, item 3): the booking form asks « Sur
 * place » or « Sur facture », and the postal address appears once « Sur
 * facture » is chosen, with JavaScript and without it (the stylesheet
 * hides it); a missing address is said beside its field, by the browser's
 * check or by the server's answer. Desktop only.
 */
import { expect, test, type Page } from "@playwright/test";
import { deskFetch, signIn } from "../support/harness";
import { setUpOwnSite } from "./desk-helpers";
import { waitForHydration } from "./helpers";

// One site and its owner for the whole file: its tests run in order, in one worker (each worker that
// ran one of them started a site of its own).
test.describe.configure({ mode: "default" });

const own = setUpOwnSite({ owner: "payment-owner@example.ch" });

test.beforeAll(async () => {
  const jar = await signIn(own.site.url, own.owners.owner);
  const made = await deskFetch(own.site.url, "/admin/cours", {
    jar,
    form: {
      intent: "create",
      courseId: "cafe-numerique",
      date: "2030-11-12",
      time: "14:00",
      durationMinutes: "120",
      placeName: "Salle communale",
      placeAddress: "Rue du Lac 1, 1800 Vevey",
      placeAccess: "",
      capacity: "8",
      minimum: "4",
      priceChf: "20",
      payment: "au-choix",
    },
  });
  expect(made.status).toBe(303);
});

/** Chooses « Sur place » then « Sur facture »: the address follows; then sends the form without the address. */
async function chooseAndSend(page: Page) {
  const street = page.getByLabel("Rue et numéro");
  await expect(street).toBeHidden();
  await page.getByLabel("Sur facture, envoyée à mon adresse postale").check();
  await expect(street).toBeVisible();
  await expect(page.getByLabel("NPA")).toBeVisible();
  await page.getByLabel("Sur place, le jour du cours (espèces ou TWINT)").check();
  await expect(street).toBeHidden();
  await page.getByLabel("Sur facture, envoyée à mon adresse postale").check();
  await page.getByLabel("Prénom", { exact: true }).fill("Rose");
  await page.getByLabel("Nom", { exact: true }).fill("Choix");
  await page.getByLabel("Téléphone", { exact: true }).fill("079 555 44 33");
  await page.getByLabel("NPA").fill("180");
  await page.getByRole("button", { name: "Envoyer l’inscription" }).click();
  await expect(street).toHaveAccessibleDescription(/Indiquez la rue et le numéro/);
  await expect(page.getByLabel("NPA")).toHaveAccessibleDescription(/Le NPA a 4 chiffres/);
  await expect(page.getByLabel("Localité")).toHaveAccessibleDescription(/Indiquez la localité/);
}

test("with JavaScript, the address appears once « Sur facture » is chosen", async ({ page }) => {
  await page.goto(`${own.site.url}/cours/cafe-numerique`);
  await waitForHydration(page);
  await chooseAndSend(page);
});

test("without JavaScript, the same, and the server's messages beside the fields", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${own.site.url}/cours/cafe-numerique`);
  await chooseAndSend(page);
  await context.close();
});
