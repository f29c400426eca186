/** The blog index and an article at every width: no horizontal scroll, no console error, axe finds nothing. */
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, expectNoHorizontalScroll, waitForHydration, watchConsoleErrors } from "./helpers";

for (const path of ["/blog", "/blog/reconnaitre-email-frauduleux", "/blog/application-cff-guide-complet"]) {
  test(`${path}: no horizontal scroll, no console error, axe finds nothing`, async ({ page }) => {
    const errors = watchConsoleErrors(page);
    await page.goto(path);
    await waitForHydration(page);
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);
    expect(errors).toEqual([]);
  });
}
