/**
 * The owner's desk in the real browser (issue 13, "Must show"): an account
 * made with `npm run owner:add`, sign-in with a TOTP code computed here,
 * the inbox at 375 and 1280 px, a request sent from the public form shown
 * there, a status change with its history, a note; sign-in with the
 * keyboard alone; axe on every desk page; the desk without JavaScript;
 * after a stranger's 5 wrong passwords, the owner's combined step (e-mail,
 * password and code at once, issue 24) at 375 px.
 *
 * The embedded database allows one process at a time, so the desk runs on
 * a site of its own (`setUpOwnSite`), whose DATA_DIR receives the owners
 * before it starts. Each test signs in a different owner: a TOTP code opens
 * one session only, and the tests may run within one 30-second step.
 */
import { expect, test, type Page } from "@playwright/test";
import { contactMessages } from "../../app/contact/schema";
import { signInMessages } from "../../app/desk/sign-in-form";
import { CookieJar, postPassword, totpCode } from "../support/harness";
import { fillValidRequest, validRequest } from "./contact-helpers";
import { checkAtBothWidths, signInWithMouse, setUpOwnSite } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, photograph } from "./helpers";

// One site and its owners for the whole file: its tests run in order, in one worker.
test.describe.configure({ mode: "default" });

// The first owner is made by the operator's own command, as in production; the others in this process.
const own = setUpOwnSite(
  {
    mouse: "proprietaire@example.ch",
    keyboard: "clavier@example.ch",
    noScript: "sans-js@example.ch",
    combined: "essais@example.ch",
  },
  () => ({}),
  { byCommand: ["mouse"] },
);
const requester = `${validRequest.firstName} ${validRequest.lastName}`;

/** The page checked and photographed at both widths: `screenshots/desk-{name}-{width}.png`. */
const atBothWidths = (page: Page, name: string) => checkAtBothWidths(page, `desk-${name}`);

test("a request from the public form reaches the inbox; the owner changes its status and writes a note", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // A visitor writes from the public /contact page.
  await page.goto(`${own.site.url}/contact`);
  await fillValidRequest(page);
  await page.getByRole("button", { name: "Envoyer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(contactMessages.successTitle);

  // The desk sends a stranger to the sign-in page.
  await page.goto(`${own.site.url}/admin`);
  await expect(page).toHaveURL(`${own.site.url}/admin/connexion`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connexion au bureau");
  await atBothWidths(page, "sign-in");

  await page.getByLabel("Adresse e-mail").fill(own.owners.mouse.email);
  await page.getByLabel("Mot de passe").fill(own.owners.mouse.password);
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByLabel("Code de vérification")).toBeVisible();
  await expect(page.getByLabel("Mot de passe")).toHaveCount(0);
  await atBothWidths(page, "sign-in-code");

  // A wrong code is refused with a message; the right one opens the inbox.
  const wrongCode = String((Number(totpCode(own.owners.mouse)) + 500_000) % 1_000_000).padStart(6, "0");
  await page.getByLabel("Code de vérification").fill(wrongCode);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page.getByRole("alert")).toContainText("Ce code ne convient pas");
  await expectNoAxeViolations(page);
  await page.getByLabel("Code de vérification").fill(totpCode(own.owners.mouse));
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(`${own.site.url}/admin`);

  // The inbox lists the request, marked new, and the header counts it.
  const item = page.getByRole("listitem").filter({ hasText: requester });
  await expect(item).toContainText("Nouveau");
  await expect(item.getByRole("link", { name: validRequest.email })).toHaveAttribute(
    "href",
    `mailto:${validRequest.email}`,
  );
  await expect(item.getByRole("link", { name: validRequest.phone })).toHaveAttribute("href", "tel:+41791234567");
  await expect(page.getByRole("navigation", { name: "Bureau" }).getByRole("link", { name: /Demandes/ })).toHaveText(
    /1\s*nouvelle/,
  );
  await atBothWidths(page, "inbox");

  // Its page shows what the visitor wrote.
  await item.getByRole("link", { name: requester }).click();
  await expect(page).toHaveURL(new RegExp(`${own.site.url}/admin/demandes/\\d+$`));
  await expect(page.getByText(validRequest.message)).toBeVisible();
  await expect(page.getByText("Aucun changement de statut pour l’instant.")).toBeVisible();
  await atBothWidths(page, "request");

  // Status: "À rappeler", then its history.
  await page.getByLabel("Statut").selectOption({ label: "À rappeler" });
  await page.getByRole("button", { name: "Changer le statut" }).click();
  await expect(page.getByRole("status")).toHaveText("Statut changé : À rappeler.");
  const history = page.getByRole("heading", { name: "Historique" }).locator("xpath=following-sibling::ol[1]");
  await expect(history.getByRole("listitem")).toHaveCount(1);
  await expect(history).toContainText("Nouveau → À rappeler");
  // No new request left: the header's count is gone.
  await expect(page.getByRole("navigation", { name: "Bureau" }).getByRole("link", { name: /Demandes/ })).toHaveText(
    "Demandes",
  );

  // A note, kept after a reload.
  const note = "Rappeler mardi matin : préfère le téléphone fixe.";
  await page.getByLabel("Votre note (visible de vous seul)").fill(note);
  await page.getByRole("button", { name: "Enregistrer la note" }).click();
  await expect(page.getByRole("status")).toHaveText("Note enregistrée.");
  await page.reload();
  await expect(page.getByLabel("Votre note (visible de vous seul)")).toHaveValue(note);
  await expect(page.getByLabel("Statut")).toHaveValue("a-rappeler");

  // The inbox's filter finds it under its new status only.
  await page.getByRole("link", { name: "← Toutes les demandes" }).click();
  // The request page has a "Statut" field too: wait for the inbox's.
  await expect(page).toHaveURL(`${own.site.url}/admin`);
  await page.getByLabel("Statut").selectOption({ label: "À rappeler" });
  await page.getByRole("button", { name: "Filtrer" }).click();
  await expect(page).toHaveURL(/statut=a-rappeler/);
  await expect(page.getByRole("listitem").filter({ hasText: requester })).toBeVisible();
  await page.getByLabel("Statut").selectOption({ label: "Nouveau" });
  await page.getByRole("button", { name: "Filtrer" }).click();
  await expect(page.getByText("Aucune demande pour ce filtre")).toBeVisible();
});

test("signing in with the keyboard alone: Tab, typing and Enter", async ({ page }) => {
  await page.goto(`${own.site.url}/admin/connexion`);
  /** Presses Tab until `id` has the focus (at most 10 times); returns every element focused on the way. */
  const tabTo = async (id: string) => {
    const visited: string[] = [];
    for (let presses = 0; presses < 10; presses++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName || "");
      visited.push(focused);
      if (focused === id) return visited;
    }
    throw new Error(`Tab never reached #${id}: ${visited.join(", ")}`);
  };
  const visited = await tabTo("email");
  await page.keyboard.type(own.owners.keyboard.email);
  visited.push(...(await tabTo("password")));
  await page.keyboard.type(own.owners.keyboard.password);
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Code de vérification")).toBeVisible();
  visited.push(...(await tabTo("code")));
  await page.keyboard.type(totpCode(own.owners.keyboard));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`${own.site.url}/admin`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demandes de contact");
  // The bots' hidden field is never on the way.
  expect(visited).not.toContain("website");
});

test("the desk without JavaScript: sign in, change a status, write a note, sign out", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto(`${own.site.url}/admin`);
    await expect(page).toHaveURL(`${own.site.url}/admin/connexion`);
    await signInWithMouse(page, own.site.url, own.owners.noScript);

    await page.getByRole("link", { name: requester }).first().click();
    await expect(page).toHaveURL(new RegExp(`${own.site.url}/admin/demandes/\\d+$`));
    const before = await page.getByLabel("Statut").inputValue();
    await page.getByLabel("Statut").selectOption({ label: "En cours" });
    const posted = page.waitForResponse((response) => response.request().method() === "POST");
    await page.getByRole("button", { name: "Changer le statut" }).click();
    expect((await posted).status()).toBe(200);
    await expect(page.getByRole("status")).toHaveText("Statut changé : En cours.");
    await expect(page.getByLabel("Statut")).toHaveValue("en-cours");
    const history = page.getByRole("heading", { name: "Historique" }).locator("xpath=following-sibling::ol[1]");
    await expect(history.getByRole("listitem").last()).toContainText(
      `${before === "nouveau" ? "Nouveau" : "À rappeler"} → En cours`,
    );

    const note = "Note écrite sans JavaScript.";
    await page.getByLabel("Votre note (visible de vous seul)").fill(note);
    await page.getByRole("button", { name: "Enregistrer la note" }).click();
    await expect(page.getByRole("status")).toHaveText("Note enregistrée.");
    await page.goto(page.url());
    await expect(page.getByLabel("Votre note (visible de vous seul)")).toHaveValue(note);

    await page.getByRole("button", { name: "Se déconnecter", exact: true }).click();
    await expect(page).toHaveURL(`${own.site.url}/admin/connexion`);
    await page.goto(`${own.site.url}/admin`);
    await expect(page).toHaveURL(`${own.site.url}/admin/connexion`);
  } finally {
    await context.close();
  }
});

test("after a stranger's 5 wrong passwords, the owner signs in with e-mail, password and code in one step (375 px)", async ({
  page,
}) => {
  const owner = own.owners.combined;
  // A stranger tries 5 passwords for the owner's e-mail, each from an address of its own.
  for (let attempt = 1; attempt <= 5; attempt++) {
    const guess = { email: owner.email, password: `Not-The-Password-${attempt}` };
    expect((await postPassword(own.site.url, new CookieJar(), guess, `203.0.113.${attempt}`)).status).toBe(401);
  }

  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${own.site.url}/admin/connexion`);
  await page.getByLabel("Adresse e-mail").fill(owner.email);
  await page.getByLabel("Mot de passe").fill(owner.password);
  await page.getByRole("button", { name: "Continuer" }).click();
  // The password alone is not answered: the page asks for the code with it, and says why.
  await expect(page.getByRole("status")).toHaveText(signInMessages.codeRequired);
  await expect(page.getByLabel("Adresse e-mail")).toHaveValue(owner.email);
  await expect(page.getByLabel("Mot de passe")).toHaveValue("");
  await expect(page.getByLabel("Code de vérification")).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await photograph(page, "screenshots/desk-sign-in-combined-375.png", { fullPage: true });

  // A wrong code: the answer does not say which part was wrong.
  const wrongCode = String((Number(totpCode(owner)) + 500_000) % 1_000_000).padStart(6, "0");
  await page.getByLabel("Mot de passe").fill(owner.password);
  await page.getByLabel("Code de vérification").fill(wrongCode);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page.getByRole("alert")).toHaveText(signInMessages.combinedRefused);
  await expectNoAxeViolations(page);

  await page.getByLabel("Mot de passe").fill(owner.password);
  await page.getByLabel("Code de vérification").fill(totpCode(owner));
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(`${own.site.url}/admin`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demandes de contact");
});
