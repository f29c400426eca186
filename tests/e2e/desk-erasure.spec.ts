/**
 * Issue 24, item 5, in the real browser at 375 px without JavaScript: Marie
 * and Paul Jaquet registered for a course with the same home telephone. The
 * owner searches that number: the page lists the two people apart, with a
 * checkbox each and no "Effacer cette personne"; ticking nobody asks again;
 * ticking Marie shows a confirmation that names her and spares Paul; after
 * it, the number finds Paul alone. The printable export of Paul's data
 * reads in French with Swiss times. Each state is checked with axe and
 * photographed at 1280 and 375 px (320 px: no horizontal scroll).
 */
import { expect, test } from "@playwright/test";
import { typeset } from "../../app/utils/typography";
import { checkAtBothWidthsWithoutScript, openInboxSignedIn, setUpOwnSite } from "./desk-helpers";
import { COURSE_YEAR } from "../support/course-year";

test.describe.configure({ mode: "default" });

const own = setUpOwnSite({ owner: "proprietaire@example.ch" });

test("two people share a telephone: the owner ticks one without JavaScript, and only she is erased", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const url = own.site.url;
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, javaScriptEnabled: false });
  const page = await context.newPage();
  await openInboxSignedIn(page, url, own.owners.owner, { javaScript: false });

  // A session, then the couple's two registrations from the public form (as posted without JavaScript).
  const post = (path: string, form: Record<string, string>) =>
    page.request.post(`${url}${path}`, { form, headers: { Origin: url }, maxRedirects: 0 });
  // Two sessions: one telephone books a session once (issue 24, item 6), so Marie and Paul book one each.
  const session = async (date: string) => {
    const created = await post("/admin/cours", {
      intent: "create",
      courseId: "securite",
      date,
      time: "14:00",
      durationMinutes: "120",
      placeName: "Salle paroissiale",
      placeAddress: "Rue du Lac 1, 1800 Vevey",
      placeAccess: "",
      capacity: "8",
      minimum: "4",
      priceChf: "55",
    });
    expect(created.status()).toBe(303);
    return /(\d+)$/.exec(created.headers().location!)![1]!;
  };
  for (const [firstName, email, date] of [
    ["Marie", "marie.jaquet@example.ch", `${COURSE_YEAR}-01-12`],
    ["Paul", "paul.jaquet@example.ch", `${COURSE_YEAR}-01-19`],
  ]) {
    const registered = await post("/cours/securite", {
      sessionId: await session(date!),
      firstName: firstName!,
      lastName: "Jaquet",
      phone: "021 555 66 77",
      email: email!,
      seats: "1",
      website: "",
    });
    expect(registered.status()).toBe(303);
  }

  const search = async () => {
    await page.goto(`${url}/admin/personne`);
    await page.getByLabel("Numéro de téléphone").fill("021 555 66 77");
    await page.getByRole("button", { name: "Chercher" }).click();
    await expect(page).toHaveURL(/\/admin\/personne\?/);
  };
  await search();
  const people = page.getByRole("region", { name: "2 personnes trouvées" });
  await expect(people.getByRole("checkbox")).toHaveCount(2);
  await expect(people.getByLabel(/Marie Jaquet/)).toBeVisible();
  await expect(people.getByLabel(/Paul Jaquet/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Effacer cette personne" })).toHaveCount(0);
  await checkAtBothWidthsWithoutScript(page, "desk-person-shared");

  // Ticking nobody erases nobody, and says what to do.
  await people.getByRole("button", { name: "Effacer les personnes cochées" }).click();
  await expect(page.getByText(typeset("Cochez au moins une personne à effacer."))).toBeVisible();
  await expect(page.getByRole("button", { name: "Oui, effacer définitivement" })).toHaveCount(0);

  await page
    .getByRole("region", { name: "2 personnes trouvées" })
    .getByLabel(/Marie Jaquet/)
    .check();
  await page.getByRole("button", { name: "Effacer les personnes cochées" }).click();
  const confirmation = page.getByRole("region", { name: typeset("Effacer Marie Jaquet ?") });
  await expect(confirmation).toContainText(typeset("Rien n’est effacé pour Paul Jaquet."));
  await expect(confirmation).toContainText("1 inscription à un cours");
  await checkAtBothWidthsWithoutScript(page, "desk-person-shared-confirm");
  await confirmation.getByRole("button", { name: "Oui, effacer définitivement" }).click();
  await expect(page.getByRole("status")).toContainText(typeset("Effacement terminé"));

  // The number now finds Paul alone, with his registration.
  await search();
  await expect(page.getByRole("region", { name: /personnes trouvées/ })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 2, name: "Inscriptions aux cours (1)" })).toBeVisible();
  await expect(page.getByText("Paul Jaquet").first()).toBeVisible();
  await expect(page.getByText("Marie Jaquet")).toHaveCount(0);

  // His data as a page to print: French labels, Swiss times in words.
  await page.getByRole("link", { name: "Voir l’export à imprimer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vos données enregistrées");
  await expect(page.getByText(/^Participant\(e\)$/)).toBeVisible();
  await expect(
    page.getByText(new RegExp(String.raw`mardi 19 janvier ${COURSE_YEAR}, 14\sh\s00`)).first(),
  ).toBeVisible();
  await checkAtBothWidthsWithoutScript(page, "desk-person-export");
  await context.close();
});
