/**
 * Header and buttons: every jump lands on its section, below the fixed
 * header; "Contactez-moi" and "Ouvrir le formulaire" link to /contact and
 * open the contact dialog with JavaScript; the small-screen menu opens,
 * closes on a click and on Escape.
 */
import { expect, test, type Page } from "@playwright/test";
import { LAYOUT, waitForHydration } from "./helpers";

const isMobile = (page: Page) => (page.viewportSize()?.width ?? 1280) < 1024;

/**
 * The section's top sits just under the fixed header (within 1 px): its
 * heading is on screen, and nothing of the previous section shows between.
 */
async function expectSectionInView(page: Page, id: string) {
  await expect(page).toHaveURL(new RegExp(`#${id}$`));
  const heading = page.locator(`#${id} h2, #${id} h1`).first();
  await expect(heading).toBeInViewport();
  const gap = async () => {
    const headerBottom = await page.locator("header").evaluate((header) => header.getBoundingClientRect().bottom);
    const sectionTop = await page.locator(`#${id}`).evaluate((section) => section.getBoundingClientRect().top);
    return Math.abs(sectionTop - headerBottom);
  };
  await expect.poll(gap, { message: `#${id} starts just under the header` }).toBeLessThanOrEqual(1);
}

async function openMenuIfMobile(page: Page) {
  if (isMobile(page)) await page.getByRole("button", { name: "Menu" }).click();
}

const entries = [
  ["Accueil", "accueil"],
  ["Services", "services"],
  ["Cours", "cours"],
  ["À propos", "a-propos"],
  ["Blog", "blog"],
] as const;

// One page for the five entries (a step each): what each proves is where its click lands, not the page load.
test("header entries scroll to their sections on the home page", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  for (const [label, id] of entries)
    await test.step(`"${label}" scrolls to #${id}`, async () => {
      await page.mouse.wheel(0, 3000);
      await openMenuIfMobile(page);
      const nav = page.locator(isMobile(page) ? "#menu-mobile" : "header nav").first();
      await nav.getByRole("link", { name: label, exact: true }).click();
      await expectSectionInView(page, id);
      if (isMobile(page)) await expect(page.locator("#menu-mobile")).toBeHidden();
    });
});

test('header "Contactez-moi" links to /contact and, with JavaScript, opens the contact dialog', async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await openMenuIfMobile(page);
  const nav = page.locator(isMobile(page) ? "#menu-mobile" : "header nav").first();
  const link = nav.getByRole("link", { name: "Contactez-moi", exact: true });
  await expect(link).toHaveAttribute("href", "/contact");
  await link.click();
  await expect(page.getByRole("dialog", { name: "Contactez-moi" })).toBeVisible();
  await expect(page).toHaveURL(/\/$/); // no navigation, no jump
  if (isMobile(page)) await expect(page.locator("#menu-mobile")).toBeHidden();
});

test("away from the home page, Blog leads to /blog and the others to the home sections", async ({ page }) => {
  await page.goto("/coordonnees");
  await waitForHydration(page);
  await openMenuIfMobile(page);
  const nav = page.locator(isMobile(page) ? "#menu-mobile" : "header nav").first();
  await expect(nav.getByRole("link", { name: "Blog", exact: true })).toHaveAttribute("href", "/blog");
  await expect(nav.getByRole("link", { name: "Services", exact: true })).toHaveAttribute("href", "/#services");
  await nav.getByRole("link", { name: "Cours", exact: true }).click();
  await expect(page).toHaveURL(/\/#cours$/);
  await expect(page.locator("#cours h2")).toBeInViewport();
});

const buttons = [
  ["Découvrir nos services", "services"],
  ["Nous contacter", "contact"],
  ["Réserver maintenant", "contact"],
  ["Demander un programme personnalisé", "contact"],
] as const;

test("the home page's buttons scroll to their sections", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  for (const [label, id] of buttons)
    await test.step(`"${label}" scrolls to #${id}`, async () => {
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
      const links = page.locator("main").getByRole("link", { name: label, exact: true });
      const count = await links.count();
      expect(count).toBeGreaterThan(0);
      for (let index = 0; index < count; index++) await expect(links.nth(index)).toHaveAttribute("href", `#${id}`);
      await links.first().click();
      await expectSectionInView(page, id);
    });
});

test('"S’inscrire au cours" leads to each course\'s dates and registration form', async ({ page }) => {
  await page.goto("/");
  const links = page.locator("#cours").getByRole("link", { name: /^S’inscrire au cours/ });
  await expect(links).toHaveCount(4);
  await expect(links.first()).toHaveAttribute("href", "/cours/securite");
});

test('"Ouvrir le formulaire" links to /contact and, with JavaScript, opens the contact dialog', async ({ page }) => {
  await page.goto("/#contact");
  await waitForHydration(page);
  const link = page.locator("main").getByRole("link", { name: "Ouvrir le formulaire", exact: true });
  await expect(link).toHaveAttribute("href", "/contact");
  await link.click();
  await expect(page.getByRole("dialog", { name: "Contactez-moi" })).toBeVisible();
  await expect(page).toHaveURL(/\/#contact$/);
});

test("footer links scroll to the five sections", async ({ page }) => {
  await page.goto("/");
  const footerNav = page.getByRole("navigation", { name: "Pied de page" });
  await expect(footerNav.getByRole("link")).toHaveText(["Accueil", "Services", "Cours", "À propos", "Blog"]);
  await footerNav.getByRole("link", { name: "Blog" }).click();
  await expectSectionInView(page, "blog");
});

test(
  "small screens: the menu opens, closes after a click and on Escape, focus returns to its button",
  LAYOUT,
  async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const button = page.getByRole("button", { name: "Menu" });
    if (!isMobile(page)) {
      // From 1024 px the entries stand in the header itself, and there is no menu button.
      await expect(button).toBeHidden();
      await expect(page.getByRole("navigation", { name: "Navigation principale" })).toBeVisible();
      return;
    }
    const menu = page.locator("#menu-mobile");
    await expect(button).toHaveAttribute("aria-controls", "menu-mobile");
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeHidden();

    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("link")).toHaveText([
      "Accueil",
      "Services",
      "Cours",
      "À propos",
      "Blog",
      "Contactez-moi",
      // Issue 23: the callback request, under "Contactez-moi".
      "Rappelez-moi",
    ]);
    const contact = menu.getByRole("link", { name: "Contactez-moi" });
    const [menuBox, contactBox] = [await menu.boundingBox(), await contact.boundingBox()];
    expect(contactBox!.width).toBeGreaterThan(menuBox!.width - 40); // full width

    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(button).toBeFocused();

    await button.click();
    await menu.getByRole("link", { name: "Services" }).click();
    await expect(menu).toBeHidden();
    await expectSectionInView(page, "services");
  },
);

test("scrolling is smooth, unless the visitor asks for reduced motion", async ({ page }) => {
  await page.goto("/");
  const scrollBehavior = () => page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior);
  await page.emulateMedia({ reducedMotion: "no-preference" });
  expect(await scrollBehavior()).toBe("smooth");
  await page.emulateMedia({ reducedMotion: "reduce" });
  expect(await scrollBehavior()).toBe("auto");
});

test("the header's buttons never cover the brand, at any width", LAYOUT, async ({ page }) => {
  await page.goto("/rappel");
  await waitForHydration(page);
  const brand = page.locator("header a[aria-label$=', accueil'] > span");
  const brandBox = (await brand.boundingBox())!;
  // Each word of the brand fits its box (nothing clipped), and every visible control starts after it.
  expect(await brand.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  const controls = page.locator("header :is(a, button, form):visible").filter({ hasNot: brand });
  for (const box of await controls.evaluateAll((nodes) =>
    nodes
      .filter((node) => !node.closest("a[aria-label$=', accueil']") && !node.closest("nav"))
      .map((node) => node.getBoundingClientRect())
      .filter((rect) => rect.width > 0 && rect.top < 80)
      .map((rect) => ({ left: rect.left })),
  ))
    expect(box.left, "a header control starts after the brand").toBeGreaterThanOrEqual(brandBox.x + brandBox.width);
});
