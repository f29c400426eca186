/**
 * The article editor's photo upload with JavaScript (issue 33, item 8): the
 * photo on its way shows a labelled progress bar, and « Publier maintenant »
 * pressed meanwhile says « Une photo est encore en cours d’envoi… » and
 * publishes nothing until the photo has arrived, then publishes the article
 * with it. The upload is held by route interception until the test lets it
 * go (no waiting on the clock).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { openInboxSignedIn, setUpOwnSite } from "./desk-helpers";

const own = setUpOwnSite({ owner: "photo-en-route@example.ch" });
const slug = "une-photo-en-route";

test("a photo on its way shows its progress, and « Publier maintenant » waits for it", async ({ page }) => {
  const photoFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "photo-")), "IMG_3001.jpg");
  fs.writeFileSync(
    photoFile,
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 170, g: 110, b: 40 } } })
      .jpeg()
      .toBuffer(),
  );
  await openInboxSignedIn(page, own.site.url, own.owners.owner);
  await page.goto(`${own.site.url}/admin/articles`);
  await page.getByLabel("Titre de l’article").fill("Une photo en route");
  await page.getByRole("button", { name: "Écrire cet article" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Écrire l’article");
  await page.getByLabel("Résumé (sur les cartes du blog)").fill("Une photo envoyée pendant qu’on écrit.");
  await page.getByLabel("Catégorie").fill("Applications");
  await page.getByLabel("Texte de l’article").fill("Le premier paragraphe.");

  // The photo's upload is held until the test releases it.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let uploads = 0;
  await page.route(/\/admin\/articles\/\d+$/, async (route) => {
    const sent = route.request().postDataBuffer()?.toString("latin1") ?? "";
    if (route.request().method() === "POST" && /name="intent"\r\n\r\nupload\r\n/.test(sent)) {
      uploads += 1;
      await held;
    }
    await route.continue();
  });

  await page.getByLabel("Photo (JPEG, PNG ou WebP, 15 Mo au plus)").setInputFiles(photoFile);
  await page
    .getByLabel("Description de la photo (lue aux personnes qui ne la voient pas)")
    .fill("Un écran de réglages");
  await page.getByRole("button", { name: "Ajouter la photo au texte" }).click();
  await expect(page.getByRole("progressbar", { name: "Envoi de la photo" })).toBeVisible();

  await page.getByRole("button", { name: "Publier maintenant" }).click();
  await expect(page.getByRole("status")).toContainText("Une photo est encore en cours d’envoi…");
  await expect(page.getByText("Brouillon : pas encore sur le site.")).toBeVisible();
  expect((await page.request.get(`${own.site.url}/blog/${slug}`)).status()).toBe(404);

  release();
  await expect(page.getByRole("status")).toContainText("Article publié");
  expect(uploads).toBe(1);
  await expect(page.getByLabel("Texte de l’article")).toHaveValue(
    /^Le premier paragraphe\.\n\n!\[Un écran de réglages\]\(\/images\/\d+-[0-9a-f]{12}-800\.webp\)\n$/,
  );
  await page.goto(`${own.site.url}/blog/${slug}`);
  await expect(page.getByRole("img", { name: "Un écran de réglages" })).toBeVisible();
});
