/**
 * The newsletter in the real browser (issue 14, "Must show"), on a site of
 * its own whose mails reach an SMTP peer (`startSmtp`):
 * - subscribing at 375 px with JavaScript (the home page's box answers in
 *   place) and without (the blog's box posts, `/newsletter` shows the
 *   answer); each confirmation mail's link opens a page whose button
 *   confirms;
 * - in the desk: the subscribers, a letter written in Markdown with its live
 *   preview, "M'envoyer un test" (the owner gets "[Test] ..."), the sending
 *   to the confirmed subscribers after a confirmation, its progress, the
 *   letter in the public archive;
 * - the letter's unsubscribe link: GET shows a button and changes nothing,
 *   the button unsubscribes;
 * - axe and screenshots at 1280 and 375 px of every page, and the letter as
 *   a mail client shows it (`screenshots/newsletter-mail-{375,1280}.png`).
 *
 * The tests build on each other (subscribers, then the letter, then its
 * unsubscribe link): they run in order, and stop at the first failure.
 */
import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { blogSection } from "../../app/content/home";
import { newsletterMessages } from "../../app/newsletter/words";
import { linkIn, startSmtp, waitFor, type ReceivedMail } from "../support/harness";
import { checkAtBothWidths, checkAtBothWidthsWithoutScript, openInboxSignedIn, setUpOwnSite } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, photograph, waitForHydration } from "./helpers";

test.describe.configure({ mode: "serial" });

let smtp: Awaited<ReturnType<typeof startSmtp>>;
// The site's mails go to the SMTP peer, started first.
const own = setUpOwnSite({ writer: "proprietaire@example.ch", checker: "verification@example.ch" }, async () => {
  smtp = await startSmtp();
  return { SMTP_URL: smtp.url };
});

/** The two readers: one subscribes with JavaScript, the other without. */
const readers = { withScript: "lucie.favre@example.ch", withoutScript: "andre.blanc@example.ch" };
const box = blogSection.newsletter;
const confirmSubject = "Confirmez votre abonnement à la lettre d’information";

const letter = {
  subject: "Le faux support technique",
  heading: "Un appel qui fait peur",
  markdown: [
    "Bonjour,",
    "",
    "## Un appel qui fait peur",
    "",
    "Un inconnu vous appelle et dit que votre ordinateur est infecté. Raccrochez.",
    "",
    "- Microsoft ne vous appelle jamais.",
    "- Ne laissez personne prendre la main sur votre ordinateur.",
  ].join("\n"),
};

test.afterAll(async () => {
  await smtp?.close();
});

/** The first mail to `to` whose subject is `subject`, once the SMTP peer has it. */
async function mailTo(to: string, subject: string): Promise<ReceivedMail> {
  const find = () => smtp.mails.find((mail) => mail.to === to && mail.subject === subject);
  await waitFor(() => find() !== undefined, 30_000, `the mail "${subject}" to ${to}`);
  return find()!;
}

/** Follows the confirmation mail's link, checks its page, presses its button: the page says it is confirmed. */
async function confirmFromMail(page: Page, to: string, screenshots?: string) {
  await page.goto(linkIn(await mailTo(to, confirmSubject), "/newsletter/confirmer/", own.site));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirmer votre abonnement");
  if (screenshots) await checkAtBothWidths(page, screenshots);
  await page.getByRole("button", { name: "Confirmer mon abonnement" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Abonnement confirmé");
  await expect(page.getByRole("status")).toContainText("Votre abonnement à la lettre d’information est confirmé.");
  if (screenshots) await checkAtBothWidths(page, `${screenshots}ed`);
}

/** A page of a new browser context signed in as the checking owner. */
async function deskPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await openInboxSignedIn(page, own.site.url, own.owners.checker);
  return page;
}

/** The letter laid out as its readers see it: its heading in bold, its list with bullets. */
async function expectLetterLayout(scope: Locator) {
  await expect(scope.getByRole("heading", { level: 2, name: letter.heading })).toHaveCSS("font-weight", "700");
  await expect(scope.getByRole("list")).toHaveCSS("list-style-type", "disc");
}

/** A subscriber's card on `/admin/abonnes`. */
const subscriberCard = (page: Page, email: string) => page.getByRole("listitem").filter({ hasText: email });

test("/newsletter explains the double opt-in, and the archive says the first letter is coming", async ({ page }) => {
  await page.goto(`${own.site.url}/newsletter`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lettre d’information");
  await expect(page.getByRole("heading", { level: 2, name: "Comment s’abonner" })).toBeVisible();
  await expect(page.getByText("La première lettre partira bientôt.")).toBeVisible();
  await checkAtBothWidths(page, "newsletter-page");

  await page.getByRole("link", { name: "Toutes les lettres envoyées" }).click();
  await expect(page).toHaveURL(`${own.site.url}/newsletter/archives`);
  await expect(page.getByText("Aucune lettre n’a encore été envoyée : la première partira bientôt.")).toBeVisible();
  await checkAtBothWidths(page, "newsletter-archives-empty");
});

test("with JavaScript at 375 px: the home page's box answers in place, and the mail's link confirms", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${own.site.url}/`);
  await waitForHydration(page);
  const section = page.locator("#blog");
  await section.getByLabel("Adresse e-mail").fill(readers.withScript);
  await section.getByRole("button", { name: box.button }).click();

  // The answer replaces the form, on the home page.
  const answer = section.getByRole("status");
  await expect(answer).toHaveText(newsletterMessages.received);
  await expect(page).toHaveURL(`${own.site.url}/`);
  await expect(section.getByLabel("Adresse e-mail")).toHaveCount(0);
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await photograph(answer.locator("xpath=.."), "screenshots/newsletter-box-answer-375.png");

  await confirmFromMail(page, readers.withScript, "newsletter-confirm");
});

test("without JavaScript at 375 px: the blog's box lands on /newsletter with the answer, and the mail's link confirms", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  try {
    await page.goto(`${own.site.url}/blog`);
    const form = page.locator("form", { has: page.getByRole("button", { name: box.button }) });
    await form.getByLabel("Adresse e-mail").fill(readers.withoutScript);
    await form.getByRole("button", { name: box.button }).click();

    await expect(page).toHaveURL(`${own.site.url}/newsletter`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lettre d’information");
    await expect(page.getByRole("status")).toHaveText(newsletterMessages.received);
    await checkAtBothWidthsWithoutScript(page, "newsletter-page-answer");

    await confirmFromMail(page, readers.withoutScript);
  } finally {
    await context.close();
  }
});

test("the owner writes a letter with a live preview, tests it, sends it to the subscribers; it joins the archive", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openInboxSignedIn(page, own.site.url, own.owners.writer);
  await page.getByRole("navigation", { name: "Bureau" }).getByRole("link", { name: "Lettre" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lettre d’information");
  await expect(page.getByText("2 abonnés confirmés recevront la prochaine lettre.")).toBeVisible();
  await expect(page.getByText("Aucune lettre pour l’instant.")).toBeVisible();
  await checkAtBothWidths(page, "desk-letters-empty");

  // The subscribers: both confirmed, with their dates.
  await page.getByRole("link", { name: "Voir les abonnés" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Abonnés");
  await expect(page.getByText("2 adresses, dont 2 confirmées.")).toBeVisible();
  for (const email of Object.values(readers)) {
    await expect(subscriberCard(page, email)).toContainText("Confirmé");
    await expect(subscriberCard(page, email)).toContainText("confirmé le");
  }
  await checkAtBothWidths(page, "desk-subscribers");

  // A new letter: its subject, then its page.
  await page.getByRole("link", { name: "← Lettre d’information" }).click();
  await page.getByLabel("Objet de la lettre").fill(letter.subject);
  await page.getByRole("button", { name: "Écrire cette lettre" }).click();
  await expect(page).toHaveURL(new RegExp(`${own.site.url}/admin/lettres/\\d+$`));
  const letterUrl = page.url();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Écrire la lettre");
  await expect(page.getByLabel("Objet")).toHaveValue(letter.subject);

  // Typing shows the preview in the letter's layout, without saving.
  const preview = page.getByRole("region", { name: "Aperçu" });
  await expect(preview.getByRole("heading", { name: letter.heading })).toHaveCount(0);
  await page.getByLabel("Texte de la lettre").fill(letter.markdown);
  await expect(preview.getByRole("heading", { level: 2, name: letter.heading })).toBeVisible();
  await expect(preview.getByRole("listitem")).toHaveText([
    "Microsoft ne vous appelle jamais.",
    "Ne laissez personne prendre la main sur votre ordinateur.",
  ]);

  // Saved, it is there after a reload.
  await page.getByRole("button", { name: "Enregistrer et prévisualiser" }).click();
  await expect(page.getByRole("status")).toHaveText("Brouillon enregistré.");
  await page.reload();
  await expect(page.getByLabel("Texte de la lettre")).toHaveValue(letter.markdown);
  await expectLetterLayout(preview);
  await checkAtBothWidths(page, "desk-letter-draft");

  // A test to the owner alone.
  await page.getByRole("button", { name: "M’envoyer un test" }).click();
  await expect(page.getByRole("status")).toHaveText(`Lettre de test envoyée à ${own.owners.writer.email}.`);
  const testMail = await mailTo(own.owners.writer.email, `[Test] ${letter.subject}`);
  expect(testMail.text).toContain(`## ${letter.heading}`);
  expect(testMail.html).toContain(letter.heading);
  expect(smtp.mails.filter((mail) => mail.subject === letter.subject)).toEqual([]);

  // Sending asks first, naming the number of subscribers.
  await page.getByRole("button", { name: "Envoyer à 2 abonnés…" }).click();
  const confirmation = page.getByRole("alert");
  await expect(confirmation).toContainText(`Envoyer « ${letter.subject} » à 2 abonnés ?`);
  await checkAtBothWidths(page, "desk-letter-confirm");
  await confirmation.getByRole("button", { name: "Oui, envoyer maintenant" }).click();

  // The letter's page shows the sending, until every mail has left.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(letter.subject);
  await expect(page.getByText(/Envoyée le .* à 2 abonnés\./)).toBeVisible();
  const progress = (label: string) =>
    page
      .locator("dl > div")
      .filter({ has: page.getByRole("term").filter({ hasText: label }) })
      .getByRole("definition");
  await expect(progress("Envoyées")).toHaveText("2", { timeout: 60_000 });
  await expect(progress("En attente")).toHaveText("0");
  await expect(progress("Abandonnées")).toHaveText("0");
  await expectLetterLayout(page.getByRole("region", { name: "La lettre" }));
  // On a phone, each figure and its label fit in their box.
  await page.setViewportSize({ width: 375, height: 740 });
  for (const box of await page.locator("dl > div").all())
    expect(await box.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });
  await checkAtBothWidths(page, "desk-letter-sent");

  // Each subscriber got it once, with the one-click unsubscribe headers.
  for (const email of Object.values(readers)) {
    const mail = await mailTo(email, letter.subject);
    expect(mail.headers["list-unsubscribe"]).toMatch(/^<https?:\/\/[^>]+\/newsletter\/desabonnement\/[^>]+>$/);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  }
  expect(
    smtp.mails
      .filter((mail) => mail.subject === letter.subject)
      .map((mail) => mail.to)
      .sort(),
  ).toEqual(Object.values(readers).sort());

  // The letter as a mail client shows it: readable at 375 px, its heading, its unsubscribe link.
  const mailPage = await page.context().newPage();
  await mailPage.setContent((await mailTo(readers.withScript, letter.subject)).html);
  for (const width of [375, 1280]) {
    await mailPage.setViewportSize({ width, height: 800 });
    await expectNoHorizontalScroll(mailPage);
    await expect(mailPage.getByRole("heading", { level: 2, name: letter.heading })).toBeVisible();
    await expect(mailPage.getByRole("link", { name: "Se désabonner" })).toBeVisible();
    await photograph(mailPage, `screenshots/newsletter-mail-${width}.png`, { fullPage: true });
  }
  await mailPage.close();

  // The list of letters, then the public archive.
  await page.goto(`${own.site.url}/admin/lettres`);
  await expect(page.getByRole("listitem").filter({ hasText: letter.subject })).toContainText(
    /Envoyée le .* à 2 abonnés/,
  );
  await checkAtBothWidths(page, "desk-letters");

  await page.goto(letterUrl);
  await page.getByRole("link", { name: "Voir dans les archives du site" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(letter.subject);
  await expectLetterLayout(page.getByRole("article"));
  await checkAtBothWidths(page, "newsletter-letter");

  await page.getByRole("link", { name: "← Toutes les lettres" }).click();
  await expect(page).toHaveURL(`${own.site.url}/newsletter/archives`);
  await expect(page.getByRole("link", { name: letter.subject })).toBeVisible();
  await checkAtBothWidths(page, "newsletter-archives");
  await page.goto(`${own.site.url}/newsletter`);
  await expect(page.getByRole("link", { name: letter.subject })).toBeVisible();
});

test("the letter's unsubscribe link: the page changes nothing by itself, its button unsubscribes", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const desk = await deskPage(browser);
  const subscribers = async () => {
    await desk.goto(`${own.site.url}/admin/abonnes`);
    return subscriberCard(desk, readers.withScript);
  };

  const mail = await mailTo(readers.withScript, letter.subject);
  await page.goto(linkIn(mail, "/newsletter/desabonnement/", own.site));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Se désabonner");
  await expect(page.getByRole("button", { name: "Me désabonner" })).toBeVisible();
  await checkAtBothWidths(page, "newsletter-unsubscribe");
  await expect(await subscribers()).toContainText("Confirmé");

  await page.getByRole("button", { name: "Me désabonner" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vous êtes désabonné(e)");
  await expect(page.getByRole("status")).toContainText("vous ne recevrez plus la lettre d’information");
  await checkAtBothWidths(page, "newsletter-unsubscribed");

  const card = await subscribers();
  await expect(card).toContainText("Désabonné");
  await expect(card).toContainText("désabonné le");
  await expect(subscriberCard(desk, readers.withoutScript)).toContainText("Confirmé");
  await desk.goto(`${own.site.url}/admin/lettres`);
  await expect(desk.getByText("1 abonné confirmé recevra la prochaine lettre.")).toBeVisible();
  await desk.context().close();
});
