/**
 * `/contact` with JavaScript at 1280, 375 and 320 px (a layout test): the page reads
 * without sideways scrolling, an empty submit shows the five French
 * messages (checked in the browser, no request) and the error summary,
 * focused, and axe finds nothing,
 * before and after.
 */
import { expect, test } from "@playwright/test";
import { errorSummary, expectFiveErrors } from "./contact-helpers";
import {
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  LAYOUT,
  waitForHydration,
  watchConsoleErrors,
} from "./helpers";

test(
  "the /contact page: no sideways scroll, the five messages on an empty submit, axe finds nothing",
  LAYOUT,
  async ({ page }) => {
    const errors = watchConsoleErrors(page);
    await page.goto("/contact");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contactez-moi");
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page, { aaaContrast: true });

    let posted = false;
    page.on("request", (request) => {
      if (request.method() === "POST") posted = true;
    });
    await page.getByRole("button", { name: "Envoyer" }).click();
    await expectFiveErrors(page);
    await expect(errorSummary(page, "contact-page-form")).toBeFocused();
    expect(posted, "an empty form is not sent").toBe(false);
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);
    expect(errors).toEqual([]);
  },
);
