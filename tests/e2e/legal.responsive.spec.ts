/**
 * The legal pages at every width: no horizontal scroll, no console error,
 * axe finds nothing, before and after "Révéler" shows the e-mail address.
 */
import { expect, test } from "@playwright/test";
import { identity } from "../../app/content/identity";
import {
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  LAYOUT,
  waitForHydration,
  watchConsoleErrors,
} from "./helpers";

for (const path of ["/mentions-legales", "/confidentialite"]) {
  test(
    `${path}: no horizontal scroll, no console error, axe finds nothing, also with the e-mail shown`,
    LAYOUT,
    async ({ page }) => {
      const errors = watchConsoleErrors(page);
      await page.goto(path);
      await waitForHydration(page);
      await expectNoHorizontalScroll(page);
      await expectNoAxeViolations(page);

      await page.locator("main").getByRole("button", { name: "Révéler" }).click();
      await expect(page.locator("main").getByRole("link", { name: identity.email })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectNoAxeViolations(page);
      expect(errors).toEqual([]);
    },
  );
}
