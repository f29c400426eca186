/**
 * The limits on what one person can book (issue 22 item 5, decision 028),
 * in the browser, on a site of its own whose seat cap is shortened to 3
 * seats per address a day: at 375 px, a visitor registers twice from one
 * address (2 seats, then 1), then a third time without JavaScript and with
 * it: the form says, in French above its buttons, that the online limit is
 * reached and to telephone, and keeps what was typed; the owner's session
 * page flags the two registrations as coming from one connection (its
 * threshold shortened to 2). axe
 * finds nothing, at 1280, 375 px (and nothing scrolls sideways at 320 px).
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { bookingMessages } from "../../app/courses/schema";
import { createOwner, freshDataDir, signIn, spawnSite, type CookieJar, type SpawnedSite } from "../support/harness";
import {
  checkAtBothWidths,
  checkAtBothWidthsWithoutScript,
  createSessionInDesk,
  ownerBrowserContext,
} from "./desk-helpers";
import { expectNoAxeViolations, waitForHydration } from "./helpers";
import { COURSE_YEAR } from "../support/course-year";

test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

let site: SpawnedSite;
let jar: CookieJar;
let sessionId: number;

test.beforeAll(async () => {
  const dataDir = freshDataDir();
  const owner = await createOwner(dataDir, "owner@example.ch");
  site = await spawnSite({
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    BOOKING_SEATS_PER_ADDRESS_PER_DAY: "3",
    BOOKING_BURST_REGISTRATIONS: "2",
  });
  await site.ready();
  jar = await signIn(site.url, owner);
  sessionId = await createSessionInDesk(site.url, jar, { date: `${COURSE_YEAR}-01-12`, capacity: "20" });
});

test.afterAll(async () => {
  await site?.stop();
});

async function phonePage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, javaScriptEnabled });
  return context.newPage();
}

/** Fills the form of /cours/securite for a new person and sends it. */
async function register(page: Page, n: number, seats: "1" | "2", javaScriptEnabled: boolean) {
  await page.goto(`${site.url}/cours/securite?seance=${sessionId}`);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("Prénom", { exact: true }).fill("Marie");
  await page.getByLabel("Nom", { exact: true }).fill(`Dupont ${n}`);
  await page.getByLabel("Téléphone", { exact: true }).fill(`079 555 44 ${10 + n}`);
  if (seats === "2") await page.getByLabel(/2 places/).check();
  await page.getByRole("button", { name: "Envoyer l’inscription" }).click();
}

test("one address registers 3 seats, then is asked to telephone, without and with JavaScript", async ({ browser }) => {
  const page = await phonePage(browser, false);
  await register(page, 1, "2", false);
  await expect(page).toHaveURL(/\/cours\/inscription\//);
  await register(page, 2, "1", false);
  await expect(page).toHaveURL(/\/cours\/inscription\//);

  await register(page, 3, "1", false);
  await expect(page.getByText(bookingMessages.addressLimit)).toBeVisible();
  await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("Dupont 3");
  await checkAtBothWidthsWithoutScript(page, "booking-address-limit-nojs");

  const scripted = await phonePage(browser, true);
  await register(scripted, 4, "1", true);
  await expect(scripted.getByText(bookingMessages.addressLimit)).toBeVisible();
  await expect(scripted).toHaveURL(/\/cours\/securite/);
  await expectNoAxeViolations(scripted);
});

test("the owner's session page flags the registrations from one connection", async ({ browser }) => {
  const context = await ownerBrowserContext(browser, site.url, jar, { viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto(`${site.url}/admin/cours/${sessionId}`);
  const flag = page.getByRole("region", { name: "Inscriptions depuis une même connexion" });
  await expect(flag).toContainText("2 inscriptions (Marie Dupont 1, Marie Dupont 2)");
  await expect(page.getByText("Même connexion que d’autres inscriptions (connexion 1)")).toHaveCount(2);
  await checkAtBothWidths(page, "desk-session-burst");
});
