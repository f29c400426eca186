/** Tooltips: device badges show their hint on keyboard focus, and on hover after the 700 ms delay. */
import { expect, test } from "@playwright/test";
import { devices } from "../../app/content/services";
import { waitForHydration } from "./helpers";

test("a device badge shows its hint on keyboard focus and on hover", async ({ page }) => {
  await page.goto("/#services");
  await waitForHydration(page);
  const [first, second] = devices;
  const badge = page.locator("[tabindex='0']", { hasText: first!.name }).first();
  // A hint closes when the page scrolls, and the browser scrolls by itself (scroll anchoring) when a
  // late font or picture changes the height of what is above: let them arrive first. Lazy pictures
  // would start loading only once the badges are scrolled to (and shift them, closing the hint: one
  // failure in a loaded CI run): every picture is fetched now and awaited.
  await page.evaluate(() => {
    for (const image of document.querySelectorAll("img")) image.loading = "eager";
  });
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready);
  // Then bring the badges into view, instantly.
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

test("a hint stays open while the pointer moves onto it, and closes when the pointer goes elsewhere", async ({
  page,
}) => {
  await page.goto("/#services");
  await waitForHydration(page);
  await page.emulateMedia({ reducedMotion: "reduce" });
  const [first] = devices;
  const badge = page.locator("[tabindex='0']", { hasText: first!.name }).first();
  await badge.evaluate((element) => element.scrollIntoView({ block: "center" }));
  await badge.hover();
  const hint = page.getByRole("tooltip");
  await expect(hint).toContainText(first!.hint);
  await expect(badge).toHaveAttribute("aria-describedby", (await hint.getAttribute("id"))!);

  // From the badge's centre to the hint's, through the gap between them (WCAG 1.4.13: hoverable).
  const from = (await badge.boundingBox())!;
  const to = (await hint.boundingBox())!;
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  expect(to.y + to.height, "the hint is above the badge").toBeLessThanOrEqual(from.y);
  await page.waitForTimeout(300);
  await expect(hint).toBeVisible();

  // Anywhere else: the hint closes.
  await page.mouse.move(from.x + from.width / 2, from.y + from.height + 200, { steps: 4 });
  await expect(hint).toHaveCount(0);
  await expect(badge).not.toHaveAttribute("aria-describedby");
});
