/**
 * The home page and the 404 page at 1280 and 375 px (and 320 px for the layout tests): layout, console,
 * accessibility (axe), text size, target size, and the reveal toggle.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { identity } from "../../app/content/identity";
import {
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  LAYOUT,
  waitForHydration,
  watchConsoleErrors,
} from "./helpers";

const isMobile = (page: Page) => (page.viewportSize()?.width ?? 1280) < 1024;

test("home: no horizontal scroll, no console error, axe finds nothing", LAYOUT, async ({ page }) => {
  const errors = watchConsoleErrors(page);
  await page.goto("/");
  await waitForHydration(page);
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page, { aaaContrast: true });
  if (isMobile(page)) {
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(page.locator("#menu-mobile")).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);
  }
  expect(errors).toEqual([]);
});

test(
  "404 page: the site's header and footer, no horizontal scroll, axe finds nothing, the path is logged",
  LAYOUT,
  async ({ page }) => {
    const errors = watchConsoleErrors(page);
    const logged: string[] = [];
    page.on("console", (message) => logged.push(message.text()));
    const response = await page.goto("/une-page-qui-n-existe-pas");
    expect(response?.status()).toBe(404);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oops! Page not found");
    await expect(page.getByRole("banner").getByRole("link", { name: /Formation & Assistance/ })).toBeVisible();
    await expect(page.getByRole("contentinfo").getByRole("link", { name: "Mentions légales" })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await expect(page).toHaveTitle("Page introuvable | Formation & Assistance Informatique");
    await expect.poll(() => logged.join("\n")).toContain("/une-page-qui-n-existe-pas");
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);
    // The browser itself reports the 404 document load; nothing else may fail.
    expect(errors.filter((error) => !/status of 404/.test(error))).toEqual([]);
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  },
);

test(
  "service cards line up their price boxes, and each course's button stands clear of the box above it",
  LAYOUT,
  async ({ page }) => {
    await page.goto("/");
    const serviceCards = page
      .locator("#services li")
      .filter({ has: page.getByRole("link", { name: "Réserver maintenant" }) });
    // The box around the price and its note.
    const priceBoxes = serviceCards.locator("p", { hasText: /^CHF / }).locator("..");
    await expect(priceBoxes).toHaveCount(3);
    const boxes = await Promise.all((await priceBoxes.all()).map(async (box) => (await box.boundingBox())!));
    if (page.viewportSize()!.width >= 1024) {
      // Side by side: same top, same height.
      for (const box of boxes) {
        expect(Math.abs(box.y - boxes[0]!.y), "price boxes start at the same height").toBeLessThanOrEqual(1);
        expect(Math.abs(box.height - boxes[0]!.height), "price boxes are equally tall").toBeLessThanOrEqual(1);
      }
    }
    const courseCards = page.locator("#cours li").filter({ has: page.locator("dl") });
    await expect(courseCards).toHaveCount(4);
    for (const card of await courseCards.all()) {
      const details = (await card.locator("dl").boundingBox())!;
      const button = (await card.getByRole("link", { name: "S’inscrire au cours" }).boundingBox())!;
      expect(button.y - (details.y + details.height), "space between the box and the button").toBeGreaterThanOrEqual(
        16,
      );
    }
  },
);

test("body text is at least 18 px everywhere in the page's content", LAYOUT, async ({ page }) => {
  await page.goto("/");
  const tooSmall = await page.locator("main").evaluate((main) => {
    const found: string[] = [];
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement!;
      if (!node.textContent?.trim() || element.closest(".sr-only,[aria-hidden='true']")) continue;
      const size = parseFloat(getComputedStyle(element).fontSize);
      if (size < 18) found.push(`${size}px: ${node.textContent.trim().slice(0, 40)}`);
    }
    return found;
  });
  expect(tooSmall).toEqual([]);
});

test("every link, button and field is at least 44 by 44 px", LAYOUT, async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  const small = await page.evaluate(() => {
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(
      "a[href], button, input, select, textarea, [tabindex='0']",
    )) {
      const style = getComputedStyle(element);
      if (element.closest(".sr-only") || style.display === "none" || style.visibility === "hidden") continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // inside a closed menu
      if (box.width < 44 || box.height < 44)
        found.push(`${Math.round(box.width)}x${Math.round(box.height)}: ${element.outerHTML.slice(0, 80)}`);
    }
    return found;
  });
  expect(small).toEqual([]);
});

/** The button's centre is the centre of the hint above it (within 2 px). */
async function expectCentredUnderHint(page: Page, button: Locator) {
  const hint = (await page.locator("#contact-reveal-hint").boundingBox())!;
  const box = (await button.boundingBox())!;
  expect(
    Math.abs(box.x + box.width / 2 - (hint.x + hint.width / 2)),
    "button centred under its hint",
  ).toBeLessThanOrEqual(2);
}

test(
  "Révéler shows the three contact details as real links, Masquer hides them; the hint follows the button",
  LAYOUT,
  async ({ page }) => {
    await page.goto("/#contact");
    await waitForHydration(page);
    const toggle = page.getByRole("button", { name: "Révéler" });
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    await expect(toggle).toHaveAccessibleDescription(/cliquez sur «\sRévéler\s»/);
    await expectCentredUnderHint(page, toggle);
    await expect(page.locator(`a[href^="tel:"]`)).toHaveCount(0);

    await toggle.click();
    const hide = page.getByRole("button", { name: "Masquer" });
    await expect(hide).toHaveAttribute("aria-pressed", "true");
    // The hint now says how to hide them, never « Révéler » beside a button that reads "Masquer".
    await expect(page.locator("#contact-reveal-hint")).toHaveText(/Cliquez sur «\sMasquer\s»/);
    await expect(page.locator("#contact-reveal-hint")).not.toContainText("Révéler");
    await expectCentredUnderHint(page, hide);
    await expect(page).toHaveURL(/\/#contact$/); // toggled in place, no navigation
    await expect(page.locator(`a[href="tel:${identity.phone}"]`)).toHaveText(identity.phoneDisplay);
    await expect(page.locator(`a[href="mailto:${identity.email}"]`)).toHaveText(identity.email);
    const whatsapp = page.locator(`a[href="https://wa.me/${identity.whatsapp}"]`);
    await expect(whatsapp).toHaveAttribute("target", "_blank");
    await expect(whatsapp).toHaveAttribute("rel", /noopener/);
    await expectNoHorizontalScroll(page);

    await hide.click();
    await expect(page.getByRole("button", { name: "Révéler" })).toHaveAttribute("aria-pressed", "false");
    await expect(page.locator(`a[href^="tel:"], a[href^="mailto:"], a[href*="wa.me"]`)).toHaveCount(0);
  },
);
