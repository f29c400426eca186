/**
 * The « à appeler » list on a phone (issue 33, item 2): the owner cancels a
 * session with two registrants without e-mail; the list stays on the
 * session page after a reload, « Appelé·e » ticks one with the time, the
 * navigation counts the one left (« 1 à appeler »), axe finds nothing and
 * nothing scrolls sideways at 375 px. Photographed:
 * screenshots/course-calls-375.png. And « À appeler demain » (decision
 * 051): a registration by telephone on a landline for tomorrow is on the
 * printable list with its code word; axe at 375 px; its print preview
 * saved as test-results/call-list-print-375.png.
 */
import { expect, test } from "@playwright/test";
import { deskFetch, signIn, type CookieJar } from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";
import { utcToZurich } from "../../app/utils/zurich-time.server";
import { createSessionInDesk, ownerBrowserContext, setUpOwnSite } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, waitForHydration } from "./helpers";

// One site and its owner for the whole file: its tests run in order, in one worker (each worker that
// ran one of them started a site of its own).
test.describe.configure({ mode: "default" });

const own = setUpOwnSite({ owner: "calls-owner@example.ch" });
let jar: CookieJar;
let sessionId: number;

test.beforeAll(async () => {
  jar = await signIn(own.site.url, own.owners.owner);
  sessionId = await createSessionInDesk(own.site.url, jar, { date: `${COURSE_YEAR}-04-13` });
  for (const [lastName, phone] of [
    ["Rochat", "021 555 66 77"],
    ["Favre", "024 555 66 78"],
  ] as const) {
    const form = { intent: "register", sessionId: String(sessionId), firstName: "Odette", lastName, phone, seats: "1" };
    expect((await deskFetch(own.site.url, `/admin/cours/${sessionId}`, { jar, form })).status).toBe(200);
  }
});

test("the call list stays on the session page until each person is ticked « appelé·e »", async ({ browser }) => {
  const context = await ownerBrowserContext(browser, own.site.url, jar, { viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto(`${own.site.url}/admin/cours/${sessionId}`);
  await waitForHydration(page);
  await page.getByLabel(/Je confirme : chaque personne inscrite sera prévenue/).check();
  await page.getByRole("button", { name: "Annuler la séance" }).click();
  await expect(page.getByRole("status")).toContainText("2 personnes sans e-mail à appeler");

  await page.reload();
  const list = page.getByRole("region", { name: "À appeler" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list.getByRole("link", { name: "021 555 66 77" })).toHaveAttribute("href", "tel:0215556677");
  await expect(page.getByRole("navigation", { name: "Bureau" }).getByRole("link", { name: /Cours/ })).toContainText(
    "2 à appeler",
  );

  await list.getByRole("button", { name: "Appelé·e : Odette Rochat" }).click();
  await expect(page.getByRole("status")).toHaveText("Appel noté.");
  const rochat = list.getByRole("listitem").filter({ hasText: "Odette Rochat" });
  await expect(rochat).toContainText(/Appelé·e le \S+ \d+ \S+ \d{4}, \d+\s*h\s*\d{2}/);
  await expect(rochat.getByRole("button")).toHaveCount(0);
  await expect(list).toContainText("1 encore à appeler");
  await expect(page.getByRole("navigation", { name: "Bureau" }).getByRole("link", { name: /Cours/ })).toContainText(
    "1 à appeler",
  );

  // Still there, as ticked, after a reload.
  await page.reload();
  await expect(rochat).toContainText("Appelé·e le");
  await expect(list.getByRole("button", { name: "Appelé·e : Odette Favre" })).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoHorizontalScroll(page);
  await list.scrollIntoViewIfNeeded();
  await list.screenshot({ path: "screenshots/course-calls-375.png" });
  await page.screenshot({ path: "screenshots/course-calls-page-375.png", fullPage: true });
  await context.close();
});

test("« À appeler demain » lists tomorrow's landline registration, prints as a plain table", async ({ browser }) => {
  const tomorrow = utcToZurich(new Date(Date.now() + 86_400_000)).date;
  const tomorrowId = await createSessionInDesk(own.site.url, jar, { date: tomorrow, time: "09:30" });
  const form = {
    intent: "register",
    sessionId: String(tomorrowId),
    firstName: "Louise",
    lastName: "Bovet",
    phone: "026 555 44 33",
    seats: "1",
  };
  expect((await deskFetch(own.site.url, `/admin/cours/${tomorrowId}`, { jar, form })).status).toBe(200);
  const context = await ownerBrowserContext(browser, own.site.url, jar, { viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto(`${own.site.url}/admin/cours`);
  await page.getByRole("link", { name: "À appeler demain" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("À appeler demain");
  const row = page.getByRole("row").filter({ hasText: "Louise Bovet" });
  await expect(row).toContainText("9\u00a0h\u00a030");
  await expect(row.getByRole("link", { name: "026 555 44 33" })).toHaveAttribute("href", "tel:0265554433");
  await expect(row).toContainText("Salle paroissiale, Rue du Lac 1, 1800 Vevey");
  // The code word: two words (app/trust/code-word.server.ts).
  await expect(row).toContainText(/Mot code\u00a0: \p{L}+ \p{L}+/u);
  // Letters for the post (issue 31): Louise has no address yet, her session's page is where it goes.
  await expect(page.getByRole("heading", { name: "Lettres par la poste" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ajouter l’adresse postale de Louise Bovet" })).toHaveAttribute(
    "href",
    `/admin/cours/${tomorrowId}#courrier`,
  );
  await waitForHydration(page);
  await expectNoAxeViolations(page);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("heading", { name: "Lettres par la poste" })).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Bureau" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Imprimer" })).toBeHidden();
  await expect(row).toBeVisible();
  await page.screenshot({ path: "test-results/call-list-print-375.png", fullPage: true });
  await context.close();
});
