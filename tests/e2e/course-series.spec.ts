/**
 * Courses as series of dates, in the browser at 375 px, on a site of their
 * own (a PostgreSQL of its own, so that the test can move a date into the
 * past: attendance is ticked only once a date has started; an owner made
 * before it starts): the owner
 * creates a series of 4 weekly dates in the desk; `/cours/applications-mobiles`
 * shows it as one choice with its 4 dates in words (photographed:
 * screenshots/course-series-375.png); a visitor registers for it and the
 * confirmation lists the 4 dates; the owner ticks the attendance of a date
 * on a phone, with JavaScript and without, and finds the ticks again; axe
 * finds nothing on the new pages.
 */
import { expect, test, type Browser, type BrowserContext } from "@playwright/test";
import pg from "pg";
import {
  createOwner,
  deskFetch,
  postgresBinaries,
  signIn,
  spawnSite,
  startPostgres,
  type CookieJar,
  type SpawnedSite,
  type TestPostgres,
} from "../support/harness";
import { ownerBrowserContext } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, photograph, waitForHydration } from "./helpers";
import { COURSE_YEAR } from "../support/course-year";

test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

test.skip(!postgresBinaries(), "PostgreSQL is not installed (scripts/ensure-test-tools.sh installs it)");

let postgres: TestPostgres;
let site: SpawnedSite;
let jar: CookieJar;
/** The series' first date (the page of its attendance list). */
let firstDate: number;

test.beforeAll(async () => {
  postgres = await startPostgres({ own: true });
  const owner = await createOwner(postgres.url, "owner@example.ch");
  site = await spawnSite({ DATABASE_URL: postgres.url, LOG_LEVEL: "warn" });
  await site.ready();
  jar = await signIn(site.url, owner);
});

test.afterAll(async () => {
  await site?.stop();
  postgres?.destroy();
});

/**
 * Runs `during` with the series' first date started an hour ago (as on the
 * day of the lesson: its attendance can be ticked), then puts it back.
 */
async function withFirstDateStarted(during: () => Promise<void>) {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  const [{ starts_at: startsAt }] = (
    await client.query<{ starts_at: Date }>("select starts_at from course_sessions where id = $1", [firstDate])
  ).rows as [{ starts_at: Date }];
  try {
    await client.query("update course_sessions set starts_at = now() - interval '1 hour' where id = $1", [firstDate]);
    await during();
  } finally {
    await client.query("update course_sessions set starts_at = $2 where id = $1", [firstDate, startsAt]);
    await client.end();
  }
}

/** A phone (375 px) signed in as the owner (the API sign-in's cookies). */
const ownerPhone = (browser: Browser, javaScriptEnabled: boolean): Promise<BrowserContext> =>
  ownerBrowserContext(browser, site.url, jar, { viewport: { width: 375, height: 740 }, javaScriptEnabled });

/** Registers `lastName` for the series by a plain post, as a browser without JavaScript. */
async function registerByPost(lastName: string, phone: string) {
  const answer = await fetch(`${site.url}/cours/applications-mobiles`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
    body: new URLSearchParams({
      sessionId: String(firstDate),
      firstName: "Paul",
      lastName,
      phone,
      seats: "1",
      website: "",
    }).toString(),
  });
  expect(answer.status).toBe(303);
}

test("the owner creates a series of 4 weekly dates; the course's page shows it as one choice with its dates", async ({
  browser,
}) => {
  const context = await ownerPhone(browser, true);
  const page = await context.newPage();
  await page.goto(`${site.url}/admin/cours`);
  await page.getByRole("link", { name: "Nouvelle série de dates" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Nouvelle série de dates" })).toBeVisible();
  await waitForHydration(page);
  await expectNoAxeViolations(page);
  await expectNoHorizontalScroll(page);
  await page.getByLabel("Cours", { exact: true }).selectOption("applications-mobiles");
  await page.getByLabel("Première date").fill(`${COURSE_YEAR}-10-19`);
  await page.getByLabel("Heure de début").fill("14:00");
  await page.getByLabel("Durée (minutes)").fill("90");
  await page.getByLabel("Lieu", { exact: true }).fill("Espace Seniors");
  await page.getByLabel("Adresse", { exact: true }).fill("Avenue de la Gare 5, 1003 Lausanne");
  await page.getByLabel("Prix de la série (CHF)").fill("180");
  await page.getByRole("button", { name: "Créer la série" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Applications mobiles" })).toBeVisible();
  firstDate = Number(/\/admin\/cours\/(\d+)$/.exec(page.url())![1]);
  await context.close();

  const visitorContext = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`${site.url}/cours/applications-mobiles`);
  const card = visitor.locator(`#seance-${firstDate}`);
  await expect(card).toContainText("4 séances, une inscription pour toutes les dates");
  for (const day of [
    `mardi 19 octobre ${COURSE_YEAR}`,
    `mardi 26 octobre ${COURSE_YEAR}`,
    `mardi 2 novembre ${COURSE_YEAR}`,
    `mardi 9 novembre ${COURSE_YEAR}`,
  ])
    await expect(card.getByRole("listitem").filter({ hasText: day })).toBeVisible();
  const dates = visitor.getByRole("group", { name: "Choisissez la date" }).getByRole("radio");
  await expect(dates).toHaveCount(1);
  await waitForHydration(visitor);
  await expectNoAxeViolations(visitor);
  await expectNoHorizontalScroll(visitor);
  await photograph(card, "screenshots/course-series-375.png");
  await photograph(visitor, "screenshots/course-series-page-375.png", { fullPage: true });
  // The narrowest phone the site serves, and a desktop screen.
  for (const width of [320, 1280]) {
    await visitor.setViewportSize({ width, height: 740 });
    await expectNoHorizontalScroll(visitor);
    await photograph(card, `screenshots/course-series-${width}.png`);
  }
  await visitor.setViewportSize({ width: 375, height: 740 });

  // A visitor registers: the confirmation lists the 4 dates.
  await dates.check();
  await visitor.getByLabel("Prénom", { exact: true }).fill("Marie");
  await visitor.getByLabel("Nom", { exact: true }).fill("Dupont");
  await visitor.getByLabel("Téléphone", { exact: true }).fill("079 123 45 67");
  await visitor.getByRole("button", { name: "Envoyer l’inscription" }).click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Votre inscription est confirmée");
  await expect(visitor.getByText("Dates (4 séances)")).toBeVisible();
  await expect(visitor.getByText(new RegExp(String.raw`mardi 9 novembre ${COURSE_YEAR}`))).toBeVisible();
  await visitorContext.close();
});

for (const javaScriptEnabled of [true, false]) {
  test(`the owner ticks présent, absent and excusé on a phone at 375 px ${javaScriptEnabled ? "with" : "without"} JavaScript`, async ({
    browser,
  }) => {
    const names = javaScriptEnabled ? ["Alpha", "Bravo"] : ["Charlie", "Delta"];
    for (const [index, name] of names.entries())
      await registerByPost(name, `079 555 0${javaScriptEnabled ? 1 : 2}${index} 00`);
    const context = await ownerPhone(browser, javaScriptEnabled);
    const page = await context.newPage();
    // Still to come: nothing to tick yet.
    await page.goto(`${site.url}/admin/cours/${firstDate}/presences`);
    await expect(page.getByText("Cette séance n’a pas encore eu lieu")).toBeVisible();
    await expect(page.getByLabel("Présent(e)")).toHaveCount(0);
    await withFirstDateStarted(async () => {
      await page.goto(`${site.url}/admin/cours/${firstDate}/presences`);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Liste de présence");
      await expect(page.getByText("Séance 1 sur 4")).toBeVisible();
      if (javaScriptEnabled) {
        await waitForHydration(page);
        await expectNoAxeViolations(page);
      }
      await expectNoHorizontalScroll(page);
      await page.setViewportSize({ width: 320, height: 740 });
      await expectNoHorizontalScroll(page);
      await page.setViewportSize({ width: 375, height: 740 });
      const person = (name: string) => page.getByRole("group", { name: new RegExp(name) });
      await person(names[0]!).getByLabel("Présent(e)").check();
      await person(names[1]!).getByLabel("Excusé(e)").check();
      await person("Dupont").getByLabel("Absent(e)").check();
      await photograph(page, `screenshots/course-attendance-375${javaScriptEnabled ? "" : "-nojs"}.png`, {
        fullPage: true,
      });
      await page.getByRole("button", { name: "Enregistrer les présences" }).click();
      await expect(page.getByRole("status")).toContainText("Présences enregistrées :");
      // The second run's list still shows the first run's two ticks: they are posted again with the new ones.
      await expect(page.getByRole("status")).toContainText(
        javaScriptEnabled ? "1 présent(e), 1 absent(e), 1 excusé(e)." : "2 présent(e)s, 1 absent(e), 2 excusé(e)s.",
      );

      // Opened again, the list shows what was ticked.
      await page.goto(`${site.url}/admin/cours/${firstDate}/presences`);
      await expect(person(names[0]!).getByLabel("Présent(e)")).toBeChecked();
      await expect(person(names[1]!).getByLabel("Excusé(e)")).toBeChecked();
      await expect(person("Dupont").getByLabel("Absent(e)")).toBeChecked();
    });
    await context.close();
  });
}

test("the CSV of the date carries the ticks", async () => {
  const csv = await deskFetch(site.url, `/admin/cours/${firstDate}/inscrits.csv`, { jar }).then((res) => res.text());
  const lines = csv.split(/\r?\n/);
  expect(
    lines
      .find((line) => line.includes("Alpha"))!
      .split(";")
      .at(-1),
  ).toBe("Présent(e)");
  expect(
    lines
      .find((line) => line.includes("Delta"))!
      .split(";")
      .at(-1),
  ).toBe("Excusé(e)");
});
