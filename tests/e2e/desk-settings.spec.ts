/**
 * Réglages (issue 21 item 1, "Must show"), at 375 px and at 1280 px: the
 * owner changes his telephone, his street and the price of the one-to-one
 * course; `/`, `/contact`, `/mentions-legales` and the JSON-LD of `/` show
 * the new values, with no restart (waited for, not timed: how soon every
 * process's cache changes is the render cache's tests' subject). Before that, a wrong
 * telephone and a wrong price get their French message beside their field
 * and nothing is saved. `/admin` lists the example values still to replace
 * (an example e-mail saved here, whatever the content files ship), each a
 * link to its field. Screenshots: `screenshots/desk-settings-*`.
 */
import { expect, test, type Page } from "@playwright/test";
import { encodeContact } from "../../app/contact/obfuscate";
import { formatChf } from "../../app/utils/format";
import { defaultSettings } from "../../app/settings/site.server";
import { checkAtBothWidths, openInboxSignedIn, setUpOwnSite } from "./desk-helpers";
import { photograph } from "./helpers";

test.describe.configure({ mode: "default" });

// One owner per test: a two-factor code is accepted once (the next sign-in may fall in the same 30 s).
const own = setUpOwnSite({
  r375: "reglages-375@example.ch",
  r1280: "reglages-1280@example.ch",
  list: "liste@example.ch",
});
const shipped = defaultSettings();

/** The WhatsApp number the first run gives (the shipped one is an example that the form refuses). */
let whatsapp = { digits: shipped.identity.whatsapp, display: shipped.identity.whatsappDisplay };

/** The contact channels as every page carries them encoded (decision 001), for `phone`/`display`. */
const channelsWith = (phone: string, display: string) =>
  encodeContact({
    phone,
    phoneDisplay: display,
    email: shipped.identity.email,
    whatsapp: whatsapp.digits,
    whatsappDisplay: whatsapp.display,
  });

/** The business node of `/`'s JSON-LD. */
async function businessOnHome(page: Page): Promise<{ priceRange: string; address: { streetAddress: string } }> {
  const html = await (await page.request.get(`${own.site.url}/`)).text();
  const json = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(html)![1]!;
  const graph = (JSON.parse(json) as { "@graph": { "@type": string }[] })["@graph"];
  return graph.find((node) => node["@type"] === "ProfessionalService") as never;
}

/** The HTML of `path`, as a visitor's browser gets it. */
const htmlOf = async (page: Page, path: string) => (await page.request.get(`${own.site.url}${path}`)).text();

/** What each width's run types. */
const RUNS = [
  {
    width: 375,
    phone: "021 601 12 34",
    e164: "+41216011234",
    display: "+41 21 601 12 34",
    street: "Avenue de Cour 12",
    price: "105",
  },
  {
    width: 1280,
    phone: "+41 79 555 44 33",
    e164: "+41795554433",
    display: "+41 79 555 44 33",
    street: "Rue du Bourg 3",
    price: "112.50",
  },
] as const;

for (const run of RUNS) {
  test(`at ${run.width} px, a new telephone, street and price show on every page without a restart; a wrong value saves nothing`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: run.width, height: run.width === 375 ? 740 : 900 });
    await openInboxSignedIn(page, own.site.url, run.width === 375 ? own.owners.r375 : own.owners.r1280);
    const before = { home: await businessOnHome(page) };

    await page.getByRole("navigation", { name: "Bureau" }).getByRole("link", { name: "Réglages" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Réglages");
    const identity = page.getByRole("region", { name: "Vos coordonnées" });
    const prices = page.getByRole("region", { name: "Vos tarifs" });

    // Wrong values: each message beside its field, nothing saved.
    await identity.getByLabel("Téléphone").fill("021 55");
    await identity.getByLabel("Rue et numéro").fill(run.street);
    await identity.getByRole("button", { name: "Enregistrer" }).click();
    await expect(identity.getByRole("alert")).toContainText("Rien n’a été enregistré");
    await expect(page.locator("#identity-phone-error")).toHaveText(/Ce numéro de téléphone n’est pas valable/);
    await expect(identity.getByLabel("Téléphone")).toHaveAttribute("aria-invalid", "true");
    await expect(identity.getByLabel("Rue et numéro")).toHaveValue(run.street);
    await prices.getByLabel("Cours individuel (prix par heure)").fill("95 francs");
    await prices.getByRole("button", { name: "Enregistrer" }).click();
    await expect(page.locator("#prices-one-to-one-course-error")).toHaveText(
      "Écrivez un prix en francs, par exemple 55 ou 62.50.",
    );
    expect(await businessOnHome(page)).toEqual(before.home);
    const previous =
      run === RUNS[0] ? { e164: shipped.identity.phone, display: shipped.identity.phoneDisplay } : RUNS[0];
    expect(await htmlOf(page, "/contact")).toContain(channelsWith(previous.e164, previous.display));
    if (run.width === 375) await photograph(page, "screenshots/desk-settings-error-375.png");

    // Right values (the first time, the site's examples that are not valid values are replaced too).
    if (run === RUNS[0]) {
      await identity.getByLabel("Numéro IDE (facultatif)").fill("");
      await identity.getByLabel("NPA").fill("1003");
      await identity.getByLabel("Numéro WhatsApp").fill("079 123 45 67");
    }
    await identity.getByLabel("Téléphone").fill(run.phone);
    await identity.getByLabel("Rue et numéro").fill(run.street);
    await identity.getByRole("button", { name: "Enregistrer" }).click();
    whatsapp = { digits: "41791234567", display: "+41 79 123 45 67" };
    await expect(identity.getByRole("status")).toContainText("Enregistré. Le site affiche déjà ces valeurs.");
    // As stored: the number written the international way.
    await expect(identity.getByLabel("Téléphone")).toHaveValue(run.display);
    await prices.getByLabel("Cours individuel (prix par heure)").fill(run.price);
    await prices.getByRole("button", { name: "Enregistrer" }).click();
    await expect(prices.getByRole("status")).toContainText("Enregistré.");

    // On every process's cached pages, without a restart (waited for: the delay is not this test's subject).
    const channels = channelsWith(run.e164, run.display);
    const amount = Number(run.price);
    await expect
      .poll(async () => businessOnHome(page))
      .toMatchObject({ priceRange: `CHF 55–${amount}`, address: { streetAddress: run.street } });
    for (const path of ["/", "/contact", "/mentions-legales"])
      await expect.poll(async () => (await htmlOf(page, path)).includes(channels)).toBe(true);
    await expect.poll(async () => htmlOf(page, "/mentions-legales")).toContain(run.street);

    // As a visitor sees them.
    await page.goto(`${own.site.url}/`);
    await expect(page.locator("#services")).toContainText(formatChf(amount));
    await page.locator("#contact").getByRole("button", { name: "Révéler" }).click();
    await expect(page.locator("#contact").getByRole("link", { name: run.display })).toHaveAttribute(
      "href",
      `tel:${run.e164}`,
    );
    await page.goto(`${own.site.url}/mentions-legales`);
    await expect(page.locator("main")).toContainText(run.street);
    if (run.width === 375) {
      // "Appeler" in the header of /contact shows the new number.
      await page.goto(`${own.site.url}/contact`);
      await page
        .getByRole("banner")
        .getByRole("button", { name: /Appeler/ })
        .click();
      await expect(page.getByRole("link", { name: run.display }).first()).toHaveAttribute("href", `tel:${run.e164}`);
    }
  });
}

test("the desk lists the example values still to replace, each a link to its field; Réglages passes axe", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 740 });
  await openInboxSignedIn(page, own.site.url, own.owners.list);
  // An example e-mail, whatever the content files ship (a deployment may have put its own there).
  await page.goto(`${own.site.url}/admin/reglages`);
  const details = page.getByRole("region", { name: "Vos coordonnées" });
  await details.getByLabel("Adresse e-mail").fill("contact@example.com");
  await details.getByRole("button", { name: "Enregistrer" }).click();
  await expect(details.getByRole("status")).toContainText("Enregistré.");
  await page.goto(`${own.site.url}/admin`);
  const list = page.getByRole("region", { name: "À remplacer avant la mise en ligne" });
  await expect(list).toBeVisible();
  await photograph(page, "screenshots/desk-placeholders-375.png", { fullPage: true });
  // The telephone was replaced above: no longer listed; the e-mail still is.
  await expect(list.getByRole("link", { name: "Pour vous joindre : Téléphone" })).toHaveCount(0);
  await list.getByRole("link", { name: "Pour vous joindre : Adresse e-mail" }).click();
  await expect(page).toHaveURL(`${own.site.url}/admin/reglages#identity-email`);
  await expect(page.getByLabel("Adresse e-mail")).toHaveAccessibleDescription(/Encore un exemple du site/);
  await page.getByLabel("Adresse e-mail").fill("contact@rochat-informatique.ch");
  await page.getByRole("region", { name: "Vos coordonnées" }).getByRole("button", { name: "Enregistrer" }).click();
  await expect(page.getByRole("region", { name: "Vos coordonnées" }).getByRole("status")).toBeVisible();
  await page.goto(`${own.site.url}/admin`);
  await expect(list.getByRole("link", { name: "Pour vous joindre : Adresse e-mail" })).toHaveCount(0);
  await page.goto(`${own.site.url}/admin/reglages`);
  await checkAtBothWidths(page, "desk-settings");
});
