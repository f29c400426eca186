/**
 * The contact dialog at 1280 and 375 px (its layout at 320 px too): the header's "Contactez-moi"
 * (the menu's on phones) opens it; an empty submit shows the five French
 * messages under their fields and the error summary above them, which
 * takes the focus (GOV.UK's pattern); axe finds nothing;
 * nothing scrolls sideways; targets are at least 44 px; "Annuler" closes
 * and gives the focus back; an error toast leaves the dialog's heading,
 * its close button and its buttons uncovered.
 */
import { expect, test } from "@playwright/test";
import {
  answerContactPostWith,
  errorSummary,
  expectFiveErrors,
  field,
  fillValidRequest,
  openDialogFromHeader,
} from "./contact-helpers";
import {
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  LAYOUT,
  waitForHydration,
  watchConsoleErrors,
} from "./helpers";

test(
  "the dialog opens, shows the five French messages on an empty submit, and Annuler closes it",
  LAYOUT,
  async ({ page }) => {
    const errors = watchConsoleErrors(page);
    await page.goto("/");
    await waitForHydration(page);
    const { dialog, opener } = await openDialogFromHeader(page);

    // Opening focuses the first field; every label is visible.
    await expect(field(dialog, "Prénom")).toBeFocused();
    for (const label of ["Prénom", "Nom", "Adresse e-mail", "Téléphone", "Service souhaité", "Message (facultatif)"])
      await expect(dialog.getByText(label, { exact: true })).toBeVisible();
    await expect(field(dialog, "Téléphone")).toHaveAttribute("placeholder", "+41 XX XXX XX XX");
    await expect(dialog.getByRole("checkbox")).not.toBeChecked();
    await expectNoHorizontalScroll(page);
    const { scrollWidth, clientWidth } = await dialog.evaluate((element) => ({
      scrollWidth: element.scrollWidth,
      clientWidth: element.clientWidth,
    }));
    expect(scrollWidth, "the dialog does not scroll sideways").toBeLessThanOrEqual(clientWidth);
    const viewport = page.viewportSize()!;
    const box = (await dialog.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(Math.min(500, viewport.width));
    expect(box.height, "never taller than the screen").toBeLessThanOrEqual(viewport.height);
    await expectNoAxeViolations(page);

    // Every control is at least 44 x 44 px (the checkbox through its label).
    for (const target of [
      dialog.getByRole("button", { name: "Annuler" }),
      dialog.getByRole("button", { name: "Envoyer" }),
      dialog.getByRole("button", { name: "Fermer la fenêtre" }),
      dialog.locator("label", { has: page.getByRole("checkbox") }),
      field(dialog, "Prénom"),
      field(dialog, "Service souhaité"),
    ]) {
      const size = (await target.boundingBox())!;
      expect(size.height, await target.evaluate((element) => element.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(
        44,
      );
      expect(size.width).toBeGreaterThanOrEqual(44);
    }

    await dialog.getByRole("button", { name: "Envoyer" }).click();
    await expectFiveErrors(dialog);
    // The summary has the focus, and its alert is the only one: no form-level error for field errors.
    await expect(errorSummary(dialog, "contact-dialog-form")).toBeFocused();
    await expect(dialog.getByRole("alert")).toHaveCount(1);
    await expect(dialog.getByRole("alert")).toContainText("Il y a 5 erreurs dans le formulaire");
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);

    await dialog.getByRole("button", { name: "Annuler" }).click();
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    expect(errors).toEqual([]);
  },
);

test("Escape closes the dialog and gives the focus back (after asking, when something was typed)", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  const { dialog, opener } = await openDialogFromHeader(page);
  await field(dialog, "Prénom").fill("Jeanne");
  await page.keyboard.press("Escape");
  // Something typed: the dialog asks first (issue 23).
  await dialog.getByRole("button", { name: "Fermer sans envoyer" }).click();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test(
  "a save failure's toast covers neither the dialog's heading and close button nor its buttons",
  LAYOUT,
  async ({ page }) => {
    await answerContactPostWith(page, "error");
    await page.goto("/");
    await waitForHydration(page);
    const { dialog } = await openDialogFromHeader(page);
    await fillValidRequest(dialog);
    await dialog.getByRole("checkbox").check();
    await dialog.getByRole("button", { name: "Envoyer" }).click();
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Erreur" });
    await expect(toast).toBeVisible();
    await expect(dialog.getByRole("alert")).toBeVisible();
    // Sonner slides the toast in: measure once it stands still.
    let lastY: number | undefined;
    await expect
      .poll(async () => {
        const y = (await toast.boundingBox())?.y;
        const still = y !== undefined && y === lastY;
        lastY = y;
        return still;
      })
      .toBe(true);
    const toastBox = (await toast.boundingBox())!;
    const overlaps = (box: { x: number; y: number; width: number; height: number }) =>
      box.x < toastBox.x + toastBox.width &&
      toastBox.x < box.x + box.width &&
      box.y < toastBox.y + toastBox.height &&
      toastBox.y < box.y + box.height;
    for (const target of [
      dialog.getByRole("heading", { name: "Contactez-moi" }),
      dialog.getByRole("button", { name: "Fermer la fenêtre" }),
      dialog.getByRole("button", { name: "Envoyer" }),
      dialog.getByRole("button", { name: "Annuler" }),
    ]) {
      // What the visitor can see of it: scrolled into the dialog's view first.
      await target.scrollIntoViewIfNeeded();
      await expect.poll(async () => overlaps((await target.boundingBox())!), { message: `${target}` }).toBe(false);
    }
  },
);
