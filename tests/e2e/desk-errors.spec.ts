/**
 * A desk page that cannot be shown stays in the desk (issue 29 item 3), in
 * the real browser at 375 px: the signed-in owner opening a session, an
 * invoice, an article or a request that does not exist gets a 404 whose
 * page is the desk's frame (its « Bureau » header and sections) with a
 * French « Page introuvable » and a way back, never the public site's
 * English 404. Checked with axe, no sideways scroll, photographed
 * (`screenshots/desk-not-found-375.png`).
 */
import { expect, test } from "@playwright/test";
import { signIn } from "../support/harness";
import { ownerBrowserContext, setUpOwnSite } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, photograph } from "./helpers";

const own = setUpOwnSite({ owner: "proprietaire@example.ch" });

test("a desk page for an id that does not exist is the desk's French 404, in the desk's frame", async ({ browser }) => {
  const url = own.site.url;
  const jar = await signIn(url, own.owners.owner);
  const context = await ownerBrowserContext(browser, url, jar, { viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  for (const path of [
    "/admin/cours/999999",
    "/admin/factures/999999",
    "/admin/articles/999999",
    "/admin/demandes/999999",
  ]) {
    const answer = await page.goto(`${url}${path}`);
    expect(answer?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText("Page introuvable");
    await expect(page.getByText("Cette page du bureau n’existe pas, ou plus")).toBeVisible();
    // The desk's frame: its header and sections, not the public site's header nor its English 404.
    await expect(page.getByRole("navigation", { name: "Bureau" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Retour aux demandes" })).toBeVisible();
    await expect(page.getByText("Oops")).toHaveCount(0);
    await expect(page).toHaveTitle(/^Page introuvable \| Bureau/);
  }
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await photograph(page, "screenshots/desk-not-found-375.png", { fullPage: true });
  // The way back leads to the inbox, signed in.
  await page.getByRole("link", { name: "Retour aux demandes" }).click();
  await expect(page).toHaveURL(`${url}/admin`);
  await context.close();
});
