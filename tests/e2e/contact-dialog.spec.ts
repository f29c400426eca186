/**
 * The contact dialog on a desktop screen, against the real `/contact`
 * action and its database: a valid request gives the "Félicitations !"
 * toast and the confirmation, "Fermer" closes and the next opening is
 * empty; "Ouvrir le formulaire" opens it; the whole flow works by keyboard
 * alone; a corrected field loses its message as soon as it is valid; the
 * rate limit and a save failure keep the dialog open with every value.
 */
import { expect, test, type Page } from "@playwright/test";
import { contactMessages } from "../../app/contact/schema";
import {
  answerContactPostWith,
  errorSummary,
  expectFiveErrors,
  expectNoErrors,
  field,
  fieldMessage,
  fillValidRequest,
  openDialogFromHeader,
  useOwnClientAddress,
  validRequest,
} from "./contact-helpers";
import { waitForHydration, watchConsoleErrors } from "./helpers";

const toasts = (page: Page) => page.locator("[data-sonner-toast]");

test.beforeEach(async ({ page }) => {
  await useOwnClientAddress(page);
  await page.goto("/");
  await waitForHydration(page);
});

test("a valid request shows the toast and the confirmation; Fermer closes; the next opening is empty", async ({
  page,
}) => {
  const errors = watchConsoleErrors(page);
  const { dialog, opener } = await openDialogFromHeader(page);
  await fillValidRequest(dialog);
  await dialog.getByText("Je souhaite recevoir la lettre d’information mensuelle", { exact: false }).click();
  await expect(dialog.getByRole("checkbox")).toBeChecked();

  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await dialog.getByRole("button", { name: "Envoyer" }).click();
  expect((await answer).status()).toBe(200);

  await expect(toasts(page).filter({ hasText: contactMessages.successTitle })).toContainText(
    contactMessages.successText,
  );
  const confirmation = page.getByRole("dialog", { name: contactMessages.successTitle });
  await expect(confirmation).toBeVisible();
  await expect(confirmation).toContainText(contactMessages.successText);
  await expect(confirmation.getByRole("heading", { name: contactMessages.successTitle })).toBeFocused();

  await confirmation.getByRole("button", { name: "Fermer", exact: true }).click();
  await expect(confirmation).toBeHidden();
  await expect(opener).toBeFocused();

  await opener.click();
  const again = page.getByRole("dialog", { name: "Contactez-moi" });
  await expect(again).toBeVisible();
  for (const label of ["Prénom", "Nom", "Adresse e-mail", "Téléphone", "Message (facultatif)"])
    await expect(field(again, label), label).toHaveValue("");
  await expect(field(again, "Service souhaité")).toHaveValue("");
  await expect(again.getByRole("checkbox")).not.toBeChecked();
  await expectNoErrors(again);
  expect(errors).toEqual([]);
});

test('"Ouvrir le formulaire" opens the dialog, and closing gives the focus back to it', async ({ page }) => {
  const link = page.locator("#contact").getByRole("link", { name: "Ouvrir le formulaire" });
  await link.click();
  const dialog = page.getByRole("dialog", { name: "Contactez-moi" });
  await expect(dialog).toBeVisible();
  await expect(field(dialog, "Prénom")).toBeFocused();
  await dialog.getByRole("button", { name: "Annuler" }).click();
  await expect(dialog).toBeHidden();
  await expect(link).toBeFocused();
});

test("the whole flow by keyboard only", async ({ page }) => {
  const contact = page.locator("header nav").first().getByRole("link", { name: "Contactez-moi", exact: true });
  // Tab from the top of the page to the header's "Contactez-moi".
  for (let presses = 0; presses < 20; presses++) {
    await page.keyboard.press("Tab");
    if (await contact.evaluate((element) => element === document.activeElement)) break;
  }
  await expect(contact).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Contactez-moi" });
  await expect(dialog).toBeVisible();

  await expect(field(dialog, "Prénom")).toBeFocused();
  await page.keyboard.type(validRequest.firstName);
  await page.keyboard.press("Tab");
  await expect(field(dialog, "Nom")).toBeFocused();
  await page.keyboard.type(validRequest.lastName);
  await page.keyboard.press("Tab");
  await expect(field(dialog, "Adresse e-mail")).toBeFocused();
  await page.keyboard.type(validRequest.email);
  await page.keyboard.press("Tab");
  await expect(field(dialog, "Téléphone")).toBeFocused();
  await page.keyboard.type(validRequest.phone);
  await page.keyboard.press("Tab");
  const service = field(dialog, "Service souhaité");
  await expect(service).toBeFocused();
  // A closed native select changes its choice with the arrow keys.
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(service).toHaveValue("one-to-one-course");
  await page.keyboard.press("Tab");
  await expect(field(dialog, "Message (facultatif)")).toBeFocused();
  await page.keyboard.type(validRequest.message);
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("checkbox")).toBeFocused();
  await page.keyboard.press("Space");
  await expect(dialog.getByRole("checkbox")).toBeChecked();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("link", { name: "politique de confidentialité" })).toBeFocused();
  await page.keyboard.press("Tab"); // the honeypot is skipped
  await expect(dialog.getByRole("button", { name: "Annuler" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Envoyer" })).toBeFocused();
  await page.keyboard.press("Enter");

  const confirmation = page.getByRole("dialog", { name: contactMessages.successTitle });
  await expect(confirmation).toContainText(contactMessages.successText);
  // The code word's box links to /confiance (issue 23), then comes "Fermer".
  await page.keyboard.press("Tab");
  await expect(confirmation.getByRole("link", { name: "Ce que je ne vous demanderai jamais" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(confirmation.getByRole("button", { name: "Fermer", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(confirmation).toBeHidden();
  await expect(contact).toBeFocused();
});

test("after an empty submit, each message disappears as soon as its field becomes valid", async ({ page }) => {
  const { dialog } = await openDialogFromHeader(page);
  await dialog.getByRole("button", { name: "Envoyer" }).click();
  await expectFiveErrors(dialog);
  await expect(errorSummary(dialog, "contact-dialog-form").getByRole("link")).toHaveCount(5);

  const firstName = field(dialog, "Prénom");
  await firstName.pressSequentially("J");
  await expect(fieldMessage(dialog, contactMessages.firstName)).toBeVisible(); // one letter is still too short
  await firstName.pressSequentially("e");
  await expect(fieldMessage(dialog, contactMessages.firstName)).toHaveCount(0);
  await expect(firstName).not.toHaveAttribute("aria-invalid", "true");

  const email = field(dialog, "Adresse e-mail");
  await email.pressSequentially("jeanne@exemple");
  await expect(fieldMessage(dialog, contactMessages.email)).toBeVisible();
  await email.pressSequentially(".ch");
  await expect(fieldMessage(dialog, contactMessages.email)).toHaveCount(0);

  await field(dialog, "Service souhaité").selectOption({ label: "Support individuel" });
  await expect(fieldMessage(dialog, contactMessages.service)).toHaveCount(0);
  // The summary follows: the two left.
  await expect(errorSummary(dialog, "contact-dialog-form").getByRole("link")).toHaveText([
    contactMessages.lastName,
    contactMessages.phone,
  ]);
  // The others keep theirs.
  await expect(fieldMessage(dialog, contactMessages.lastName)).toBeVisible();
  await expect(fieldMessage(dialog, contactMessages.phone)).toBeVisible();
});

/**
 * Answers the dialog's next post to `/contact` as the action does when the
 * rate limit is reached (429) or the database is unreachable (503): the
 * browser tests' server has a very high limit and a working database. The
 * answer is the action's own: Conform's reply to the posted fields, with
 * the French message as the form's error.
 */
test("past the rate limit, the message shows above the buttons and every value stays", async ({ page }) => {
  await answerContactPostWith(page, "rate-limited");
  const { dialog } = await openDialogFromHeader(page);
  await fillValidRequest(dialog);
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await dialog.getByRole("button", { name: "Envoyer" }).click();
  expect((await answer).status()).toBe(429);
  await expect(dialog.getByRole("alert")).toHaveText(contactMessages.rateLimited);
  await expect(field(dialog, "Prénom")).toHaveValue(validRequest.firstName);
  await expect(field(dialog, "Message (facultatif)")).toHaveValue(validRequest.message);
  await expect(field(dialog, "Service souhaité")).toHaveValue("one-to-one-course");
  await expect(dialog.getByRole("button", { name: "Envoyer" })).toHaveText("Envoyer");
});

test("a save failure shows the destructive toast Erreur; the dialog stays open with every value", async ({ page }) => {
  await answerContactPostWith(page, "error");
  const { dialog } = await openDialogFromHeader(page);
  await fillValidRequest(dialog);
  await dialog.getByRole("checkbox").check();
  await dialog.getByRole("button", { name: "Envoyer" }).click();
  const toast = toasts(page).filter({ hasText: "Erreur" });
  await expect(toast).toContainText(contactMessages.saveError);
  await expect(toast).toHaveAttribute("data-type", "error");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("alert")).toHaveText(contactMessages.saveError);
  await expect(field(dialog, "Prénom")).toHaveValue(validRequest.firstName);
  await expect(field(dialog, "Nom")).toHaveValue(validRequest.lastName);
  await expect(field(dialog, "Adresse e-mail")).toHaveValue(validRequest.email);
  await expect(field(dialog, "Téléphone")).toHaveValue(validRequest.phone);
  await expect(field(dialog, "Service souhaité")).toHaveValue("one-to-one-course");
  await expect(field(dialog, "Message (facultatif)")).toHaveValue(validRequest.message);
  await expect(dialog.getByRole("checkbox")).toBeChecked();

  // A click on the toast's close button does not close the dialog.
  await toast.getByRole("button", { name: "Fermer la notification" }).click();
  await expect(toast).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await expect(field(dialog, "Prénom")).toHaveValue(validRequest.firstName);
});

test("at 200 % zoom (640 × 400 CSS px) the dialog scrolls inside itself and every control is reachable", async ({
  page,
}) => {
  await page.setViewportSize({ width: 640, height: 400 });
  const { dialog } = await openDialogFromHeader(page);
  const box = (await dialog.boundingBox())!;
  expect(box.height).toBeLessThanOrEqual(400);
  expect(box.y).toBeGreaterThanOrEqual(0);
  await fillValidRequest(dialog);
  const send = dialog.getByRole("button", { name: "Envoyer" });
  await send.scrollIntoViewIfNeeded();
  await expect(send).toBeInViewport();
  await expect(dialog.getByRole("button", { name: "Annuler" })).toBeInViewport();
  await dialog.evaluate((element) => element.scrollTo({ top: 0 }));
  await expect(dialog.getByRole("button", { name: "Fermer la fenêtre" })).toBeInViewport();
  await expect(dialog.getByRole("heading", { name: "Contactez-moi" })).toBeInViewport();
});
