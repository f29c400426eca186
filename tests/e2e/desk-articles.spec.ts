/**
 * The owner writes an article on his phone (issue 21, "Must show"), at
 * 375 px: a new article from its title, the text typed with the toolbar, a
 * photo added from a file, the preview, a mistake shown beside its field,
 * publication; `/blog`, `/`, the RSS feed and the sitemap list it at once,
 * its page passes axe at both widths and shows the photo as AVIF and WebP at
 * three widths, and its share image is a 1200×630 PNG made at publication;
 * unpublished, it is gone everywhere (404 on its address and its image's).
 * Then the same editor without JavaScript: the "Aperçu" button shows the
 * preview and keeps what was typed. Screenshots: `screenshots/desk-article-*`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { checkAtBothWidths, openInboxSignedIn, setUpOwnSite } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, photograph } from "./helpers";

test.describe.configure({ mode: "default" });

const own = setUpOwnSite({ phone: "telephone@example.ch", noScript: "sans-js-articles@example.ch" });
const slug = "agrandir-le-texte-de-votre-telephone";

test("the owner writes, previews, publishes and unpublishes an article with a photo, on a phone", async ({ page }) => {
  test.setTimeout(180_000);
  const photoFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "photo-")), "IMG_2041.jpg");
  fs.writeFileSync(
    photoFile,
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 40, g: 110, b: 170 } } })
      .jpeg()
      .toBuffer(),
  );
  await page.setViewportSize({ width: 375, height: 740 });
  await openInboxSignedIn(page, own.site.url, own.owners.phone);
  await page.getByRole("navigation", { name: "Bureau" }).getByRole("link", { name: "Articles" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Articles du blog");
  // The repository's articles are there, published.
  await expect(page.getByText(/^Publié le/).first()).toBeVisible();

  await page.getByLabel("Titre de l’article").fill("Agrandir le texte de votre téléphone");
  await page.getByRole("button", { name: "Écrire cet article" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Écrire l’article");
  await expect(page.getByText("Brouillon : pas encore sur le site.")).toBeVisible();

  await page
    .getByLabel("Résumé (sur les cartes du blog)")
    .fill("Les lettres sont trop petites ? Deux réglages suffisent.");
  await page.getByLabel("Catégorie").fill("Applications");
  const text = page.getByLabel("Texte de l’article");
  await text.fill("Ouvrez les réglages de votre téléphone.");
  await page.getByRole("toolbar", { name: "Mise en forme" }).getByRole("button", { name: "Intertitre" }).click();
  // The placeholder is selected: what the owner types replaces it (issue 33, item 8).
  await page.keyboard.type("Le réglage Taille du texte");
  await expect(text).toHaveValue(/## Le réglage Taille du texte\n/);
  await expect(text).not.toHaveValue(/Intertitre/);

  // A photo from a file, with its description.
  await page.getByLabel("Photo (JPEG, PNG ou WebP, 15 Mo au plus)").setInputFiles(photoFile);
  await page
    .getByLabel("Description de la photo (lue aux personnes qui ne la voient pas)")
    .fill("L’écran Taille du texte");
  await page.getByRole("button", { name: "Ajouter la photo au texte" }).click();
  await expect(page.getByRole("status")).toContainText("Photo ajoutée à la fin du texte");
  await expect(page.getByLabel("Texte de l’article")).toHaveValue(/!\[L’écran Taille du texte\]\(\/images\/\d+-/);

  // The preview is the page: its title, its heading, its photo.
  await page.getByRole("button", { name: "Aperçu", exact: true }).click();
  const preview = page.getByRole("region", { name: "Aperçu" });
  await expect(preview.getByRole("heading", { name: "Agrandir le texte de votre téléphone" })).toBeVisible();
  await expect(preview.getByRole("heading", { name: "Le réglage Taille du texte" })).toBeVisible();
  await expect(preview.getByRole("img", { name: "L’écran Taille du texte" })).toBeVisible();

  // A mistake: its French message beside the field, nothing published.
  await page.getByLabel("Vidéo YouTube (facultatif)").fill("https://example.com/video");
  await page.getByRole("button", { name: "Publier maintenant" }).click();
  await expect(page.locator("#video-error")).toContainText("Donnez l’adresse d’une vidéo YouTube");
  await expect(page.getByLabel("Vidéo YouTube (facultatif)")).toHaveAttribute("aria-invalid", "true");
  expect((await page.request.get(`${own.site.url}/blog/${slug}`)).status()).toBe(404);
  await expectNoHorizontalScroll(page);
  await photograph(page, "screenshots/desk-article-editor-375.png", { fullPage: true });
  await expectNoAxeViolations(page);

  await page.getByLabel("Vidéo YouTube (facultatif)").fill("");
  await page.getByRole("button", { name: "Publier maintenant" }).click();
  await expect(page.getByRole("status")).toContainText("Article publié");

  // Everywhere at once.
  for (const address of ["/blog", "/"]) {
    await page.goto(`${own.site.url}${address}`);
    await expect(page.locator(`a[href="/blog/${slug}"]`).first()).toBeVisible();
  }
  expect(await (await page.request.get(`${own.site.url}/blog/rss.xml`)).text()).toContain(`/blog/${slug}</link>`);
  expect(await (await page.request.get(`${own.site.url}/sitemap.xml`)).text()).toContain(`/blog/${slug}</loc>`);
  await page.goto(`${own.site.url}/blog/${slug}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Agrandir le texte de votre téléphone");
  const photo = page.getByRole("img", { name: "L’écran Taille du texte" });
  await expect(photo).toBeVisible();
  // AVIF first, then WebP, each at three widths, served.
  const sources = await page
    .locator("article picture source")
    .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute("type"), node.getAttribute("srcset")]));
  expect(sources.map(([type]) => type)).toEqual(["image/avif", "image/webp"]);
  for (const [type, srcset] of sources) {
    const files = srcset!.split(", ").map((entry) => entry.split(" ")[0]!);
    expect(files).toHaveLength(3);
    for (const file of files) {
      const answer = await page.request.get(`${own.site.url}${file}`);
      expect(answer.status(), file).toBe(200);
      expect(answer.headers()["content-type"]).toBe(type);
    }
  }
  // Its share image, made at publication (decision 029): a 1200×630 PNG on the site.
  const shareImage = new URL((await page.locator('meta[property="og:image"]').getAttribute("content"))!).pathname;
  expect(shareImage).toMatch(new RegExp(`^/og/articles/${slug}-[0-9a-f]{12}\\.png$`));
  const shared = await page.request.get(`${own.site.url}${shareImage}`);
  expect([shared.status(), shared.headers()["content-type"]]).toEqual([200, "image/png"]);
  const sharedPng = await shared.body();
  expect(await sharp(sharedPng).metadata()).toMatchObject({ width: 1200, height: 630 });
  fs.writeFileSync("screenshots/desk-article-share-image.png", sharedPng);
  await checkAtBothWidths(page, "article-written-in-desk");

  // Unpublished: gone from every page, 404 on its address.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${own.site.url}/admin/articles`);
  await page.getByRole("link", { name: "Agrandir le texte de votre téléphone" }).click();
  await page.getByRole("button", { name: "Retirer du site" }).click();
  await expect(page.getByRole("status")).toContainText("n’est plus sur le site");
  expect((await page.request.get(`${own.site.url}/blog/${slug}`)).status()).toBe(404);
  expect((await page.request.get(`${own.site.url}${shareImage}`)).status()).toBe(404);
  for (const address of ["/blog", "/", "/blog/rss.xml", "/sitemap.xml"])
    expect(await (await page.request.get(`${own.site.url}${address}`)).text(), address).not.toContain(`/blog/${slug}`);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the editor's Aperçu button shows the preview and keeps what was typed", async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 375, height: 740 });
    await openInboxSignedIn(page, own.site.url, own.owners.noScript, { javaScript: false });
    await page.goto(`${own.site.url}/admin/articles`);
    await page.getByLabel("Titre de l’article").fill("Sans JavaScript");
    await page.getByRole("button", { name: "Écrire cet article" }).click();
    await expect(page.getByRole("toolbar", { name: "Mise en forme" })).toHaveCount(0);
    await page.getByLabel("Texte de l’article").fill("## Un intertitre\n\nUn paragraphe **important**.");
    await page.getByRole("button", { name: "Aperçu", exact: true }).click();
    await expect(
      page.getByRole("region", { name: "Aperçu" }).getByRole("heading", { name: "Un intertitre" }),
    ).toBeVisible();
    await expect(page.getByLabel("Texte de l’article")).toHaveValue("## Un intertitre\n\nUn paragraphe **important**.");
    await expect(page.getByText("Brouillon : pas encore sur le site.")).toBeVisible();
  });
});
