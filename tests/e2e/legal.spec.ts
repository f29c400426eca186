/**
 * The legal pages on a desktop screen: `/mentions-legales` and
 * `/confidentialite` are rendered by the server (readable without JavaScript),
 * not indexed, say who runs the site and what happens to the visitor's
 * data; the footer and the contact form's consent notice lead to them; the
 * owner's e-mail shows only after "Révéler"; the site sets no cookie.
 */
import { expect, test, type Page } from "@playwright/test";
import { identity } from "../../app/content/identity";
import { legalPagesOf, legalSettings } from "../../app/content/legal";
import { PROCESSINGS } from "../../app/features.server";
import { noticeSummary } from "../../app/privacy/register.server";

// A fresh database: the pages show the content files' defaults (Réglages changes nothing yet); the privacy
// notice lists the register's processings (decision 046).
const { legalNotice, privacyNotice } = legalPagesOf(
  identity.name,
  legalSettings,
  noticeSummary(PROCESSINGS, legalSettings),
);
import { openDialogFromHeader } from "./contact-helpers";
import { waitForHydration, watchConsoleErrors } from "./helpers";

const PAGES = [
  { path: "/mentions-legales", content: legalNotice },
  { path: "/confidentialite", content: privacyNotice },
];

/** The text of `main`, whitespace normalised. */
async function mainText(page: Page): Promise<string> {
  return ((await page.locator("main").textContent()) ?? "").replace(/\s+/g, " ");
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const { path: url, content } of PAGES) {
    test(`${url} answers 200 with its heading, every section and noindex`, async ({ page }) => {
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(new RegExp(`^${content.title} \\|`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(content.title);
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
      await expect(page.getByRole("heading", { level: 2 })).toContainText(content.sections.map((s) => s.title));
      // Who runs the site, with a postal address (LCD art. 3 al. 1 let. s).
      const operator = page.locator("main address");
      await expect(operator).toContainText(identity.address.street);
      await expect(operator).toContainText(`${identity.address.postalCode} ${identity.address.locality}`);
      await expect(page.locator("main")).toContainText(identity.businessName);
      await expect(page.getByRole("button", { name: "Révéler" })).toBeVisible();
    });
  }

  test("the legal notice names the host and links to the privacy notice", async ({ page }) => {
    await page.goto("/mentions-legales");
    const text = await mainText(page);
    expect(text).toContain(legalSettings.hosting.name);
    expect(text).toContain("Droits d’auteur");
    expect(text).toContain("Liens vers d’autres sites");
    await page.getByRole("link", { name: "politique de confidentialité" }).click();
    await expect(page).toHaveURL(/\/confidentialite$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(privacyNotice.title);
  });

  test("the privacy notice says what is kept and how long, who receives it, no cookie, the rights and the PFPDT", async ({
    page,
  }) => {
    await page.goto("/confidentialite");
    const text = await mainText(page);
    const expected = [
      "Le responsable du traitement de vos données personnelles est",
      // The form's fields, the newsletter wish and the consent timestamp.
      "votre prénom et votre nom",
      "votre adresse e-\u2060mail et votre numéro de téléphone",
      "le service qui vous intéresse",
      "votre message",
      "la date et l’heure de l’envoi",
      "lettre d’information",
      "vous désabonner à tout moment",
      `pendant ${legalSettings.retentionMonths} mois après notre dernier échange, puis je les efface`,
      legalSettings.hosting.name,
      legalSettings.mailProvider.name,
      "Ce site ne dépose aucun cookie",
      "Il ne note ni votre adresse IP",
      "youtube-nocookie.com",
      "Google reçoit votre adresse IP",
      "art. 25 LPD",
      "art. 28 LPD",
      "dans les 30 jours",
      "Préposé fédéral à la protection des données et à la transparence (PFPDT)",
      "Dernière mise à jour :",
    ];
    for (const phrase of expected) expect(text, `"${phrase}" on the page`).toContain(phrase);
    await expect(page.getByRole("link", { name: "www.edoeb.admin.ch" })).toHaveAttribute(
      "href",
      /^https:\/\/www\.edoeb\.admin\.ch/,
    );
  });

  test("without JavaScript, Révéler on a legal page leads to the page that shows the e-mail", async ({ page }) => {
    await page.goto("/confidentialite");
    await page.getByRole("button", { name: "Révéler" }).click();
    await expect(page).toHaveURL(/\/coordonnees/);
    await expect(page.locator(`a[href="mailto:${identity.email}"]`).first()).toBeVisible();
  });
});

test("the e-mail is in no legal page's HTML or data as plain text, and Révéler shows it as a link", async ({
  page,
  request,
}) => {
  const secrets = [identity.email, identity.phone, identity.phoneDisplay, identity.whatsapp];
  for (const { path: url } of PAGES) {
    const html = await (await request.get(url)).text();
    // What a client-side navigation to the page fetches.
    const answer = await request.get(`${url}.data`);
    expect(answer.status(), `${url}.data`).toBe(200);
    const data = await answer.text();
    for (const secret of secrets) {
      expect(html, `${url} HTML`).not.toContain(secret);
      expect(data, `${url}.data`).not.toContain(secret);
    }
  }

  const errors = watchConsoleErrors(page);
  await page.goto("/mentions-legales");
  await waitForHydration(page);
  const main = page.locator("main");
  await expect(main).not.toContainText(identity.email);
  const toggle = main.getByRole("button", { name: "Révéler" });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await toggle.click();
  await expect(main.locator(`a[href="mailto:${identity.email}"]`)).toHaveText(identity.email);
  await main.getByRole("button", { name: "Masquer" }).click();
  await expect(main).not.toContainText(identity.email);
  expect(errors).toEqual([]);
});

test("the footer of the home page leads to both legal pages", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  const legal = page.locator("footer").getByRole("navigation", { name: "Informations légales" });
  await expect(legal.getByRole("link")).toHaveText(["Mentions légales", "Confidentialité"]);
  await expect(legal.getByRole("link", { name: "Mentions légales" })).toHaveAttribute("href", "/mentions-legales");

  await legal.getByRole("link", { name: "Confidentialité" }).click();
  await expect(page).toHaveURL(/\/confidentialite$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(privacyNotice.title);

  await page.locator("footer").getByRole("link", { name: "Mentions légales" }).click();
  await expect(page).toHaveURL(/\/mentions-legales$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(legalNotice.title);
});

test("the privacy notice's table of contents jumps to its sections", async ({ page }) => {
  await page.goto("/confidentialite");
  await waitForHydration(page);
  const toc = page.getByRole("navigation", { name: privacyNotice.tocTitle });
  await expect(toc.getByRole("link")).toHaveText(privacyNotice.sections.map((section) => section.title));
  await toc.getByRole("link", { name: "Vos droits" }).click();
  await expect(page).toHaveURL(/#droits$/);
  await expect(page.getByRole("heading", { level: 2, name: "Vos droits" })).toBeInViewport();
});

for (const { path: url, content } of PAGES) {
  test(`${url}: each section is a region named by its own heading, and the skip link still leads to the main content`, async ({
    page,
  }) => {
    await page.goto(url);
    await waitForHydration(page);
    for (const section of content.sections)
      await expect(page.getByRole("region", { name: section.title, exact: true })).toHaveCount(1);
    await page.keyboard.press("Tab");
    const skipLink = page.getByRole("link", { name: "Aller au contenu" });
    await expect(skipLink).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator("main")).toBeFocused();
  });
}

test("the consent notice of the contact dialog tells the truth and leads to the privacy notice", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  const { dialog } = await openDialogFromHeader(page);
  const notice = dialog.getByText("En envoyant ce formulaire", { exact: false });
  await expect(notice).toContainText("selon la loi suisse sur la protection des données");
  await expect(notice).not.toContainText("jamais transmises à des tiers");
  const link = notice.getByRole("link", { name: "politique de confidentialité" });
  await expect(link).toHaveAttribute("href", "/confidentialite");
  await link.click();
  await expect(page).toHaveURL(/\/confidentialite$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(privacyNotice.title);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("the consent notice of the /contact page leads to the privacy notice", async ({ page }) => {
  await page.goto("/contact");
  const notice = page.locator("main").getByText("En envoyant ce formulaire", { exact: false });
  await notice.getByRole("link", { name: "politique de confidentialité" }).click();
  await expect(page).toHaveURL(/\/confidentialite$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(privacyNotice.title);
});

test("as the privacy notice says, the site sets no cookie", async ({ page, context }) => {
  const setCookies: string[] = [];
  page.on("response", async (response) => {
    const header = await response.headerValue("set-cookie");
    if (header) setCookies.push(`${response.url()}: ${header}`);
  });
  for (const url of ["/", "/blog", "/confidentialite", "/mentions-legales", "/contact", "/coordonnees"]) {
    await page.goto(url);
    await waitForHydration(page);
  }
  await openDialogFromHeader(page);
  expect(setCookies).toEqual([]);
  expect(await context.cookies()).toEqual([]);
  expect(await page.evaluate(() => document.cookie)).toBe("");
});
