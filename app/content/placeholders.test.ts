/**
 * The placeholders' check, on values this file makes itself: example values
 * are found (each with the desk's field that changes it, and in the log's one
 * line), real ones are not, whether they come from the content files or from
 * the desk's Réglages in the database. Nothing here reads which values
 * `app/content/` ships: a deployment that writes its real details into
 * `identity.ts` and `legal.ts` keeps this file green.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadArticles } from "~/blog/articles.server";
import { articles as articleTable } from "~/db/schema";
import { defaultSettings, saveSettingsSection } from "~/settings/site.server";
import { ownerIdentity as ownerDetails, ownerProvider } from "../../tests/fixtures/owner-settings";
import { openTestDatabase, type TestDatabase } from "../../tests/support/harness";
import { identity as shippedIdentity } from "./identity";
import { legalPagesOf, legalSettings as shippedLegal, type LegalPage } from "./legal";
import { findPlaceholders, placeholderWarning, placeholdersLeft } from "~/settings/placeholders.server";

/** `T` with its string literals widened: `identity.ts` is `as const`, and a fixture holds other values. */
type Widened<T> = T extends string ? string : T extends object ? { readonly [K in keyof T]: Widened<T[K]> } : T;
type Identity = Widened<typeof shippedIdentity>;
type LegalSettings = typeof shippedLegal;

/** The settings with `identity` and `legalSettings` in place of the content files' (as an edited file gives them). */
const settingsWith = (identity: Identity, legalSettings: LegalSettings) =>
  defaultSettings({ identity: identity as typeof shippedIdentity, legalSettings });

/** The kind of values the site ships with: one of each pattern the check knows. */
const exampleIdentity: Identity = {
  ...shippedIdentity,
  name: "Prénom Nom (exemple)",
  businessName: "Prénom Nom (exemple), Formation & Assistance Informatique",
  uid: "CHE-000.000.000 (exemple)",
  address: { street: "Chemin de l’Exemple 1", postalCode: "0000", locality: "Localité (exemple)", country: "Suisse" },
  phone: "+41000000000",
  phoneDisplay: "+41 00 000 00 00",
  email: "contact@example.com",
  whatsapp: "41000000000",
  whatsappDisplay: "+41 00 000 00 00",
};
const exampleLegal: LegalSettings = {
  ...shippedLegal,
  hosting: {
    name: "Hébergeur (exemple) SA",
    address: "Rue de l’Exemple 2, 0000 Localité (exemple), Suisse",
    website: "https://hebergeur.example.com",
    country: "Suisse",
  },
};

/** What an owner in Lausanne would write. */
const ownerIdentity: Identity = { ...shippedIdentity, ...ownerDetails };
const ownerLegal: LegalSettings = { ...shippedLegal, hosting: ownerProvider, mailProvider: ownerProvider };

const copyDir = fs.mkdtempSync(path.join(os.tmpdir(), "owner-content-"));
afterAll(() => fs.rmSync(copyDir, { recursive: true, force: true }));

/**
 * The shipped articles copied with `author` and, where there is one, `video` set in their front
 * matter, whatever the files hold today.
 */
function articlesWith(author: string, video: string) {
  const source = path.join(path.dirname(new URL(import.meta.url).pathname), "blog");
  const target = fs.mkdtempSync(path.join(copyDir, "blog-"));
  for (const file of fs.readdirSync(source).filter((name) => name.endsWith(".md")))
    fs.writeFileSync(
      path.join(target, file),
      fs
        .readFileSync(path.join(source, file), "utf8")
        .replace(/^author: .*$/m, `author: "${author}"`)
        .replace(/^video: .*$/m, `video: "${video}"`),
    );
  const list = loadArticles(target);
  // The articles as the placeholders' check reads them (ids as the desk would number them).
  return list.map((article, index) => ({ ...article, id: index + 1, video: article.video ?? null }));
}

describe("placeholders", () => {
  it("lists every example value, each with the desk's field that changes it, and logs them in one line", () => {
    const articles = articlesWith("Prénom Nom (exemple)", "https://www.youtube.com/watch?v=XXXXXXXXXXX");
    const found = findPlaceholders(settingsWith(exampleIdentity, exampleLegal), articles);
    for (const value of ["contact@example.com", "+41 00 000 00 00", "0000", "https://hebergeur.example.com"])
      expect(found.map((placeholder) => placeholder.value)).toContain(value);
    expect(found).toContainEqual({
      where: "Réglages identity.name",
      label: "Votre nom (prénom et nom)",
      value: "Prénom Nom (exemple)",
      href: "/admin/reglages#identity-name",
    });
    expect(found).toContainEqual(
      expect.objectContaining({ where: "Réglages identity.uid", value: "CHE-000.000.000 (exemple)" }),
    );
    expect(found).toContainEqual(
      expect.objectContaining({ where: "Réglages legal.hostingWebsite", href: "/admin/reglages#legal-hostingWebsite" }),
    );
    const withVideo = articles.find((article) => article.video)!;
    expect(found).toContainEqual(
      expect.objectContaining({
        where: `article ${withVideo.slug} video`,
        value: "https://www.youtube.com/watch?v=XXXXXXXXXXX",
        href: `/admin/articles/${withVideo.id}#video`,
      }),
    );
    // Every article's author is listed.
    expect(found.filter((placeholder) => placeholder.where.endsWith(" author"))).toHaveLength(articles.length);
    const warning = placeholderWarning(found)!;
    expect(warning).not.toContain("\n");
    expect(warning).toContain(`${found.length} placeholder(s) to replace before going online`);
    expect(warning).toContain('Réglages identity.email "contact@example.com"');
  });

  it("lists nothing once the owner's real values are in identity.ts and legal.ts, and the legal pages name them", () => {
    const articles = articlesWith(ownerDetails.name, "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    const settings = settingsWith(ownerIdentity, ownerLegal);

    expect(findPlaceholders(settings, articles)).toEqual([]);
    expect(placeholderWarning([])).toBeNull();
    const allText = (page: LegalPage) => JSON.stringify(page.sections);
    const pages = legalPagesOf(settings.identity.name, settings.legal);
    for (const page of [pages.legalNotice, pages.privacyNotice]) {
      const ids = page.sections.map((section) => section.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(allText(page)).toContain(ownerProvider.name);
    }
    expect(allText(pages.legalNotice)).toContain(ownerDetails.name);
  });

  describe("as the desk reads them from the database", () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase();
    });
    afterAll(() => database?.close());

    it("lists an example value the owner saved in Réglages, and nothing once the sections hold real values", async () => {
      const { db } = database;
      const owner = settingsWith(ownerIdentity, ownerLegal);
      await saveSettingsSection(db, "identity", owner.identity);
      await saveSettingsSection(db, "legal", owner.legal);
      expect(await placeholdersLeft(db)).toEqual([]);

      await saveSettingsSection(db, "identity", { ...owner.identity, email: "contact@example.com" });
      expect(await placeholdersLeft(db)).toEqual([
        {
          where: "Réglages identity.email",
          label: expect.stringContaining("Adresse e-mail") as string,
          value: "contact@example.com",
          href: "/admin/reglages#identity-email",
        },
      ]);
    });

    it("lists the articles whose author or video is an example, in their order, and none of the others", async () => {
      const { db } = database;
      const owner = settingsWith(ownerIdentity, ownerLegal);
      await saveSettingsSection(db, "identity", owner.identity);
      const article = (slug: string, author: string, video: string | null = null) => ({
        slug,
        title: `Titre ${slug}`,
        excerpt: "Résumé.",
        category: "Sécurité",
        author,
        body: "Texte.",
        icon: "ShieldAlert",
        color: "primary",
        readTime: 3,
        date: "2026-11-01",
        video,
      });
      const ids = await db
        .insert(articleTable)
        .values([
          article("vrai-1", "Marie Dupont", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
          article("auteur-exemple", "Prénom Nom (exemple)"),
          ...Array.from({ length: 30 }, (_, n) => article(`vrai-${n + 2}`, "Marie Dupont")),
          article("video-exemple", "Marie Dupont", "https://www.youtube.com/watch?v=XXXXXXXXXXX"),
        ])
        .returning({ id: articleTable.id, slug: articleTable.slug });
      const idOf = (slug: string) => ids.find((row) => row.slug === slug)!.id;
      expect((await placeholdersLeft(db)).map(({ where, href }) => ({ where, href }))).toEqual([
        { where: "article auteur-exemple author", href: `/admin/articles/${idOf("auteur-exemple")}#author` },
        { where: "article video-exemple video", href: `/admin/articles/${idOf("video-exemple")}#video` },
      ]);
    });
  });
});
