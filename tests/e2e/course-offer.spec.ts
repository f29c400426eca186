/**
 * The offer of a freed seat on a phone (issue 30, item 1; decision 049): a
 * session of one seat, full, four waiting. Each cancellation offers the
 * seat to the next, by mail; the offer's page (`/cours/place/{token}`) is
 * answered from the mail's links, at 375 px: accepted without JavaScript,
 * declined with it (axe, and nothing scrolls sideways at 375 and 320 px),
 * accepted with it, declined without it; the owner's session page shows
 * each offer's answer. Photographed (E2E_SCREENSHOTS=1):
 * screenshots/course-offer-375.png and -320.png.
 */
import { expect, test, type Browser } from "@playwright/test";
import {
  bookingForm,
  createOwner,
  freshDataDir,
  postBooking,
  signIn,
  spawnSite,
  startSmtp,
  waitFor,
  type CookieJar,
  type SpawnedSite,
} from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";
import { createSessionInDesk, ownerBrowserContext } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, photograph } from "./helpers";

let site: SpawnedSite;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let jar: CookieJar;
let sessionId: number;
/** Each person's registration page (path), by number: 1 holds the seat, 2 to 5 wait. */
const registrations = new Map<number, string>();

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const dataDir = freshDataDir();
  const owner = await createOwner(dataDir, "offer-owner@example.ch");
  smtp = await startSmtp();
  site = await spawnSite({ DATA_DIR: dataDir, LOG_LEVEL: "warn", SMTP_URL: smtp.url, OUTBOX_POLL_SECONDS: "0.5" });
  await site.ready();
  jar = await signIn(site.url, owner);
  sessionId = await createSessionInDesk(site.url, jar, { date: `${COURSE_YEAR}-05-04`, capacity: "1", minimum: "1" });
  for (const n of [1, 2, 3, 4, 5]) {
    const answer = await postBooking(site.url, "securite", bookingForm(sessionId, n));
    expect(answer.status).toBe(303);
    registrations.set(n, answer.headers.get("location")!);
  }
});

test.afterAll(async () => {
  await site?.stop();
  await smtp?.close();
});

/** Cancels person n's registration by her link's button, as her browser would post it. */
async function cancel(path: string) {
  const answer = await fetch(`${site.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
    body: "intent=cancel&website=",
  });
  expect(answer.status).toBe(200);
}

/** The offer's page path person n was mailed, once it arrives. */
async function offerTo(n: number): Promise<string> {
  const to = `marie${n}@example.ch`;
  await waitFor(
    () => smtp.mails.some((mail) => mail.to === to && mail.subject.startsWith("Une place s’est libérée")),
    15_000,
    `the offer to ${to}`,
  );
  const mail = smtp.mails.find((found) => found.to === to && found.subject.startsWith("Une place s’est libérée"))!;
  expect(mail.text).toContain("Je vous la garde jusqu’au");
  return /\/cours\/place\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0];
}

const phone = (browser: Browser, javaScriptEnabled: boolean) =>
  browser.newContext({ viewport: { width: 375, height: 740 }, javaScriptEnabled });

test("an offered seat is taken or left from the mail's links, with and without JavaScript", async ({ browser }) => {
  // 1. Person 1 cancels: person 2 is offered the seat and takes it, without JavaScript.
  await cancel(registrations.get(1)!);
  const second = await offerTo(2);
  const plain = await phone(browser, false);
  let page = await plain.newPage();
  await page.goto(`${site.url}${second}?reponse=oui`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Une place s’est libérée pour vous");
  await expect(page.getByRole("heading", { name: "Vous prenez la place ? Confirmez avec le bouton." })).toBeVisible();
  await page.getByRole("button", { name: "Je prends la place" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Votre inscription est confirmée");
  await expect(page).toHaveURL(/\/cours\/inscription\//);
  const secondRegistration = new URL(page.url()).pathname;
  // Her link, opened again, says the seat is hers; no button is left to press.
  await page.goto(`${site.url}${second}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cette place est à vous");
  await expect(page.getByRole("button", { name: "Je prends la place" })).toHaveCount(0);

  // 2. She cancels in turn: person 3 is offered it and declines, with JavaScript.
  await cancel(secondRegistration);
  const third = await offerTo(3);
  const scripted = await phone(browser, true);
  page = await scripted.newPage();
  await page.goto(`${site.url}${third}?reponse=non`);
  await expect(
    page.getByRole("heading", { name: "Vous ne pouvez plus venir ? Confirmez avec le bouton." }),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoHorizontalScroll(page);
  await photograph(page, "screenshots/course-offer-375.png", { fullPage: true });
  await page.setViewportSize({ width: 320, height: 640 });
  await expectNoHorizontalScroll(page);
  await photograph(page, "screenshots/course-offer-320.png", { fullPage: true });
  await page.setViewportSize({ width: 375, height: 740 });
  await page.getByRole("button", { name: "Je ne peux plus" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "C’est noté : la place va à une autre personne. Merci de m’avoir répondu.",
  );
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vous avez laissé la place");

  // 3. The seat goes on to person 4 at once, who takes it with JavaScript.
  const fourth = await offerTo(4);
  await page.goto(`${site.url}${fourth}?reponse=oui`);
  await page.getByRole("button", { name: "Je prends la place" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Votre inscription est confirmée");
  // The usual confirmation reaches her, with the calendar file.
  await waitFor(
    () =>
      smtp.mails.some((mail) => mail.to === "marie4@example.ch" && mail.subject.startsWith("Inscription confirmée")),
    15_000,
    "the confirmation to marie4@example.ch",
  );
  const confirmation = smtp.mails.find(
    (mail) => mail.to === "marie4@example.ch" && mail.subject.startsWith("Inscription confirmée"),
  )!;
  expect(confirmation.attachments.map((file) => file.filename)).toEqual(["cours.ics"]);

  // 4. She cancels: person 5 leaves the seat without JavaScript.
  await cancel(new URL(page.url()).pathname);
  const fifth = await offerTo(5);
  page = await plain.newPage();
  await page.goto(`${site.url}${fifth}?reponse=non`);
  await page.getByRole("button", { name: "Je ne peux plus" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vous avez laissé la place");
  await expect(page.getByRole("status")).toContainText("la place va à une autre personne");
  await plain.close();
  await scripted.close();

  // 5. The owner sees each offer's answer on the session page.
  const desk = await ownerBrowserContext(browser, site.url, jar, { viewport: { width: 375, height: 740 } });
  page = await desk.newPage();
  await page.goto(`${site.url}/admin/cours/${sessionId}`);
  const offers = page.getByRole("region", { name: "Places proposées" }).getByRole("listitem");
  await expect(offers).toHaveCount(4);
  for (const [n, state] of [
    [5, "refusée"],
    [4, "acceptée"],
    [3, "refusée"],
    [2, "acceptée"],
  ] as const) {
    await expect(offers.filter({ hasText: `Marie Dupont ${n}` })).toContainText(state);
  }
  await expectNoAxeViolations(page);
  await expectNoHorizontalScroll(page);
  await desk.close();
});
