/** The site with JavaScript turned off: everything reads, the menu, "Révéler" and the header's "Appeler" still work. */
import { expect, test } from "@playwright/test";
import { identity } from "../../app/content/identity";

test.use({ javaScriptEnabled: false });

test("the home page reads completely and its links jump to their sections", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("main section[id]")).toHaveCount(9);
  await page.locator("header nav").getByRole("link", { name: "Cours", exact: true }).click();
  await expect(page).toHaveURL(/#cours$/);
  await expect(page.locator("#cours h2")).toBeInViewport();
});

test("on a small screen the Menu link opens the navigation", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/");
  const menu = page.locator("#menu-mobile");
  await expect(menu).toBeHidden();
  await page.getByRole("link", { name: "Menu" }).click();
  await expect(menu).toBeVisible();
  await menu.getByRole("link", { name: "À propos" }).click();
  await expect(page).toHaveURL(/#a-propos$/);
  await expect(menu).toBeHidden();
  await expect(page.locator("#a-propos h2")).toBeInViewport();
});

test("Révéler leads to the server-rendered details, Masquer back to the home page", async ({ page }) => {
  await page.goto("/#contact");
  await page.getByRole("button", { name: "Révéler" }).click();
  await expect(page).toHaveURL(/\/coordonnees\??#contact$/);
  await expect(page.locator(`a[href="tel:${identity.phone}"]`)).toBeVisible();
  await expect(page.locator(`a[href="mailto:${identity.email}"]`)).toBeVisible();
  await page.getByRole("button", { name: "Masquer" }).click();
  await expect(page).toHaveURL(/\/\??#contact$/);
  await expect(page.locator(`a[href^="tel:"]`)).toHaveCount(0);
});

test("on a small screen the header's Appeler leads to the owner's number as a tel: link", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/cours");
  await expect(page.locator(`a[href^="tel:"]`)).toHaveCount(0);
  await page.getByRole("banner").getByRole("button", { name: "Appeler" }).click();
  await expect(page).toHaveURL(/\/coordonnees\??#contact$/);
  await expect(page.locator(`a[href="tel:${identity.phone}"]`)).toBeVisible();
});
