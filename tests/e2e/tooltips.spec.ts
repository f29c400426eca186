/** Tooltips: device badges show their hint on keyboard focus, and on hover after the 700 ms delay. */
import { expect, test } from "@playwright/test";
import { devices } from "../../app/content/services";
import { waitForHydration } from "./helpers";

test("a device badge shows its hint on keyboard focus and on hover", async ({ page }) => {
  await page.goto("/#services");
  await waitForHydration(page);
  const [first, second] = devices;
  const badge = page.locator("[tabindex='0']", { hasText: first!.name }).first();
  // Radix closes a tooltip when the page scrolls: bring the badges into view first, instantly.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await badge.evaluate((element) => element.scrollIntoView({ block: "center" }));
  // Reach the first badge by keyboard, from the last service's button.
  await page
    .getByRole("link", { name: "Réserver maintenant" })
    .last()
    .evaluate((element: HTMLElement) => element.focus({ preventScroll: true }));
  await page.keyboard.press("Tab");
  await expect(badge).toBeFocused();
  await expect(page.getByRole("tooltip")).toContainText(first!.hint);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("tooltip")).toHaveCount(0);

  // Past the 300 ms skip delay, the next tooltip waits the full 700 ms again.
  await page.waitForTimeout(400);
  const other = page.locator("[tabindex='0']", { hasText: second!.name }).first();
  await other.hover();
  await page.waitForTimeout(200);
  await expect(page.getByRole("tooltip"), "not before the 700 ms delay").toHaveCount(0);
  await expect(page.getByRole("tooltip")).toContainText(second!.hint);
});
