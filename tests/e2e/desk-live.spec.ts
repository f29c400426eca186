/**
 * The live desk in the real browser (issue 21 item 4, docs/decisions/025-live-desk.md),
 * on a phone 375 px wide: the desk is open on the inbox; a visitor sends a
 * request from the public form in another browser; without a reload, the
 * request appears in the list, the « Demandes » badge and the tab's title
 * count it. Without JavaScript, the same counts are there after a reload.
 * Screenshot: `screenshots/desk-live-375.png` (the desk with its badge).
 */
import { expect, test, type Page } from "@playwright/test";
import { contactMessages } from "../../app/contact/schema";
import { field, validRequest } from "./contact-helpers";
import { openInboxSignedIn, setUpOwnSite } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, photograph } from "./helpers";

test.describe.configure({ mode: "default" });

const own = setUpOwnSite({ live: "direct@example.ch", noScript: "direct-sans-js@example.ch" });

const PHONE = { width: 375, height: 740 };

/** The number on the « Demandes » link of the desk's menu (0 when it shows none). */
async function requestsBadge(page: Page): Promise<number> {
  const badge = page
    .getByRole("navigation", { name: "Bureau" })
    .getByRole("link", { name: /^Demandes/ })
    .locator("[data-new-count]");
  return (await badge.count()) ? Number(await badge.getAttribute("data-new-count")) : 0;
}

/** The number in front of the tab's title, « (3) Demandes | Bureau » (0 when there is none). */
async function titleCount(page: Page): Promise<number> {
  return Number(/^\((\d+)\) /.exec(await page.title())?.[1] ?? 0);
}

/** Sends a request from the public /contact page as a visitor, in a browser of its own, under `lastName`. */
async function visitorWrites(page: Page, lastName: string): Promise<void> {
  const visitor = await page.context().browser()!.newContext({ viewport: PHONE });
  try {
    const form = await visitor.newPage();
    await form.goto(`${own.site.url}/contact`);
    await field(form, "Prénom").fill(validRequest.firstName);
    await field(form, "Nom").fill(lastName);
    await field(form, "Adresse e-mail").fill(`${lastName.toLowerCase()}@example.ch`);
    await field(form, "Téléphone").fill(validRequest.phone);
    await field(form, "Service souhaité").selectOption({ label: validRequest.serviceLabel });
    await form.getByRole("button", { name: "Envoyer" }).click();
    await expect(form.getByRole("heading", { level: 1 })).toHaveText(contactMessages.successTitle);
  } finally {
    await visitor.close();
  }
}

test("a request sent from the public form appears in the open desk, with its badge and tab title, without a reload", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  await openInboxSignedIn(page, own.site.url, own.owners.live);
  const before = await requestsBadge(page);
  expect(await titleCount(page)).toBe(before);
  // A reload would lose this mark.
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

  await visitorWrites(page, "Direct");

  await expect(page.getByRole("link", { name: `${validRequest.firstName} Direct` })).toBeVisible();
  await expect.poll(() => requestsBadge(page)).toBe(before + 1);
  await expect.poll(() => titleCount(page)).toBe(before + 1);
  await expect(page).toHaveTitle(`(${before + 1}) Demandes | Bureau`);
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);

  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await photograph(page, "screenshots/desk-live-375.png");
  await page.setViewportSize({ width: 320, height: 640 });
  await expectNoHorizontalScroll(page);
});

test("without JavaScript, the desk shows the new request's count after a reload", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const page = await context.newPage();
  try {
    await openInboxSignedIn(page, own.site.url, own.owners.noScript, { javaScript: false });
    const before = await requestsBadge(page);

    await visitorWrites(page, "Rechargement");
    // Nothing moves by itself without JavaScript…
    await expect(page.getByRole("link", { name: `${validRequest.firstName} Rechargement` })).toHaveCount(0);
    // …a reload reads the new counts.
    await page.reload();
    await expect(page.getByRole("link", { name: `${validRequest.firstName} Rechargement` })).toBeVisible();
    expect(await requestsBadge(page)).toBe(before + 1);
    await expect(page).toHaveTitle(`(${before + 1}) Demandes | Bureau`);
  } finally {
    await context.close();
  }
});
