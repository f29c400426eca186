/**
 * « Protection des données » in the browser at 375 px (issue 32, item 3),
 * as the signed-in owner, on a site of its own: the register of processing
 * activities opens from the desk's menu and names every processing; printed,
 * the desk's menu and buttons stay off the paper; the breach log opens from
 * it; an empty breach form is answered with the French message beside each
 * field; a filled one lands in the log, marked « Risque élevé, pas encore
 * annoncée au PFPDT ». axe finds 0 violations on the register, the form
 * with errors and the log, and none scrolls sideways. With
 * E2E_SCREENSHOTS=1 each is photographed at 375 px, the register also at
 * 1280 and 320 px and as printed. The Nu HTML Checker reads the same pages
 * in tests/integration/html-validity.test.ts.
 */
import { expect, test, type Page } from "@playwright/test";
import { PROCESSINGS } from "../../app/features.server";
import { typeset } from "../../app/utils/typography";
import { openInboxSignedIn, setUpOwnSite } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, photograph, SCREENSHOTS_WANTED } from "./helpers";

const own = setUpOwnSite({ owner: "proprietaire@example.ch" });

/** At 375 px: no sideways scroll, no axe violation, and its photograph `screenshots/{name}-375.png`. */
async function check(page: Page, name: string) {
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await photograph(page, `screenshots/${name}-375.png`, { fullPage: true });
}

test("the owner reads and prints the register, and notes a breach in the log, at 375 px", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await openInboxSignedIn(page, own.site.url, own.owners.owner);

  await test.step("the register, from the desk's menu", async () => {
    await page.getByRole("navigation", { name: "Bureau" }).getByRole("link", { name: "Données" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Protection des données");
    for (const { processing } of PROCESSINGS)
      await expect(page.getByRole("heading", { level: 2, name: typeset(processing.title) })).toBeVisible();
    await expect(page.getByRole("link", { name: "Télécharger en PDF" })).toHaveAttribute("href", "/admin/donnees.pdf");
    await check(page, "desk-data-protection");
    if (SCREENSHOTS_WANTED)
      for (const width of [1280, 320]) {
        await page.setViewportSize({ width, height: 800 });
        await photograph(page, `screenshots/desk-data-protection-${width}.png`, { fullPage: true });
      }
    await page.setViewportSize({ width: 375, height: 740 });
  });

  await test.step("printed, without the desk's menu and buttons", async () => {
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("navigation", { name: "Bureau" })).toBeHidden();
    await expect(page.getByRole("link", { name: "Télécharger en PDF" })).toBeHidden();
    await expect(page.getByRole("heading", { level: 2, name: "Factures" })).toBeVisible();
    await photograph(page, "screenshots/desk-data-protection-print.png", { fullPage: true });
    await page.emulateMedia({ media: "screen" });
  });

  await test.step("the breach form answers mistakes beside each field", async () => {
    await page.getByRole("link", { name: "Journal des violations" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Journal des violations");
    await expect(page.getByText("Aucune violation notée.")).toBeVisible();
    await page.getByRole("link", { name: "Noter une violation" }).click();
    await page.getByLabel("Découverte le").fill("");
    await page.getByRole("button", { name: "Enregistrer la violation" }).click();
    await expect(page.getByRole("alert").first()).toContainText("La violation n’est pas enregistrée");
    await expect(page.getByLabel("Description")).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#breach-whatHappened-error")).toHaveText("Décrivez ce qui s’est passé.");
    await expect(page.locator("#breach-risk-error")).toHaveText("Choisissez si le risque est élevé ou non.");
    await check(page, "desk-breach-form-errors");
  });

  await test.step("a breach noted lands in the log, still to announce", async () => {
    await page.getByLabel("Découverte le").fill("2026-11-20");
    await page.getByLabel("Description").fill("Ordinateur portable volé dans le train.");
    await page.getByLabel("Données concernées").fill("Noms et numéros de téléphone");
    await page.getByLabel("Personnes concernées", { exact: true }).fill("Participants aux cours de novembre");
    await page.getByLabel("Nombre de personnes (facultatif)").fill("14");
    await page.getByLabel("Risque élevé : à annoncer au PFPDT").check();
    await page.getByLabel("Évaluation du risque").fill("Risque d’appels frauduleux.");
    await page.getByLabel("Mesures prises ou prévues").fill("Mots de passe changés, plainte déposée.");
    await page.getByRole("button", { name: "Enregistrer la violation" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Journal des violations");
    await expect(page.getByRole("link", { name: "Découverte le 20 novembre 2026" })).toBeVisible();
    await expect(page.getByText("Risque élevé, pas encore annoncée au PFPDT.")).toBeVisible();
    await check(page, "desk-breaches");
  });
});
