/**
 * The contact dialog keeps what was typed (issue 23, item 5): a click beside
 * it or Escape, with text in the form, asks first (« Continuer à écrire »,
 * focused, keeps every value; « Fermer sans envoyer » closes); with nothing
 * typed it closes at once, as before. After sending, the confirmation shows
 * the request's code word. On a desktop screen: on phones the dialog fills
 * the screen, and there is nothing beside it to click.
 */
import { expect, test } from "@playwright/test";
import { field, fillValidRequest, openDialogFromHeader, useOwnClientAddress } from "./contact-helpers";
import { expectNoAxeViolations, waitForHydration } from "./helpers";

test.beforeEach(async ({ page }) => {
  await useOwnClientAddress(page);
  await page.goto("/");
  await waitForHydration(page);
});

test("typing, then clicking beside the dialog or pressing Escape, asks before losing the text", async ({ page }) => {
  const { dialog } = await openDialogFromHeader(page);
  await field(dialog, "Prénom").fill("Jeanne");
  await field(dialog, "Message (facultatif)").fill("Mon ordinateur est très lent.");

  // A click on the overlay, beside the dialog (top left corner of the screen).
  await page.mouse.click(2, 2);
  await expect(dialog).toBeVisible();
  const question = dialog.getByRole("alert").filter({ hasText: "Vous avez commencé à écrire." });
  await expect(question).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Continuer à écrire" })).toBeFocused();
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Continuer à écrire" }).click();
  await expect(question).toHaveCount(0);
  await expect(field(dialog, "Prénom")).toHaveValue("Jeanne");
  await expect(field(dialog, "Message (facultatif)")).toHaveValue("Mon ordinateur est très lent.");

  // Escape asks too; « Fermer sans envoyer » then closes.
  await field(dialog, "Nom").focus();
  await page.keyboard.press("Escape");
  await expect(question).toBeVisible();
  await expect(field(dialog, "Prénom")).toHaveValue("Jeanne");
  await dialog.getByRole("button", { name: "Fermer sans envoyer" }).click();
  await expect(dialog).toBeHidden();
});

test("with nothing typed, a click beside the dialog closes it at once", async ({ page }) => {
  const { dialog } = await openDialogFromHeader(page);
  await expect(field(dialog, "Prénom")).toBeFocused();
  await page.mouse.click(2, 2);
  await expect(dialog).toBeHidden();
});

test("after sending, the confirmation gives the code word", async ({ page }) => {
  const { dialog } = await openDialogFromHeader(page);
  await fillValidRequest(dialog);
  await dialog.getByRole("button", { name: "Envoyer" }).click();
  // The dialog is now named by its confirmation's heading.
  const confirmation = page.getByRole("dialog", { name: "Félicitations !" });
  await expect(confirmation.getByTestId("code-word")).toHaveText(/^«\u00a0\p{Ll}+ \p{Ll}+\u00a0»$/u);
  // Nothing is asked when a confirmation closes.
  await page.mouse.click(2, 2);
  await expect(confirmation).toBeHidden();
});
