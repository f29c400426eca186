/**
 * The placeholders of app/content/: listed while they are there (each with
 * the desk's field that changes it), and no test or content check depends on
 * them. An owner who edits the files rather than the desk is replayed on
 * copies in a temporary folder: identity.ts, legal.ts's providers and the
 * articles' author and video get realistic values.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadArticles } from "~/blog/articles.server";
import type * as IdentityModule from "./identity";
import type * as LegalModule from "./legal";
import type { LegalPage } from "./legal";
import { defaultSettings } from "~/settings/site.server";
import { findPlaceholders, placeholderWarning } from "~/settings/placeholders.server";

const contentDir = path.dirname(new URL(import.meta.url).pathname);
const copyDir = fs.mkdtempSync(path.join(os.tmpdir(), "owner-content-"));
afterAll(() => fs.rmSync(copyDir, { recursive: true, force: true }));

/** `text` with each [placeholder, real value] replaced; fails when a placeholder is not there. */
function replaceAll(text: string, replacements: [string | RegExp, string][]): string {
  return replacements.reduce((current, [placeholder, value]) => {
    expect(current, `${placeholder} is in the file`).toMatch(placeholder);
    return current.replace(placeholder, value);
  }, text);
}

/** What an owner in Lausanne would write. */
const ownerIdentity: [string | RegExp, string][] = [
  ['name: "Prénom Nom (exemple)"', 'name: "Jean-Marc Rochat"'],
  ['"Prénom Nom (exemple), Formation', '"Jean-Marc Rochat, Formation'],
  ['"CHE-000.000.000 (exemple)"', '"CHE-123.456.789"'],
  ['"Chemin de l’Exemple 1"', '"Avenue de Cour 12"'],
  ['postalCode: "0000"', 'postalCode: "1007"'],
  ['"Localité (exemple)"', '"Lausanne"'],
  ['phone: "+41000000000"', 'phone: "+41216011234"'],
  ['phoneDisplay: "+41 00 000 00 00"', 'phoneDisplay: "+41 21 601 12 34"'],
  ['email: "contact@example.com"', 'email: "contact@rochat-informatique.ch"'],
  ['whatsapp: "41000000000"', 'whatsapp: "41791234567"'],
  ['whatsappDisplay: "+41 00 000 00 00"', 'whatsappDisplay: "+41 79 123 45 67"'],
];

const ownerProviders: [string | RegExp, string][] = [
  [/"Hébergeur \(exemple\) SA"/, '"Infomaniak Network SA"'],
  [/"Rue de l’Exemple 2, 0000 Localité \(exemple\), Suisse"/, '"Rue Eugène-Marziano 25, 1227 Les Acacias, Suisse"'],
  ['"https://hebergeur.example.com"', '"https://www.infomaniak.com"'],
  [/"Fournisseur e-mail \(exemple\) SA"/, '"Infomaniak Network SA"'],
  [/"Rue de l’Exemple 3, 0000 Localité \(exemple\), Suisse"/, '"Rue Eugène-Marziano 25, 1227 Les Acacias, Suisse"'],
  ['"https://e-mail.example.com"', '"https://www.infomaniak.com"'],
];

/** Copies `file` of app/content/ into the temporary folder, with the owner's values. */
function copyWith(file: string, replacements: [string | RegExp, string][]): string {
  const target = path.join(copyDir, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, replaceAll(fs.readFileSync(path.join(contentDir, file), "utf8"), replacements));
  return target;
}

/** The articles as the placeholders' check reads them (ids as the desk would number them). */
const authorship = (list: ReturnType<typeof loadArticles>) =>
  list.map((article, index) => ({ ...article, id: index + 1, video: article.video ?? null }));

describe("placeholders", () => {
  it("lists the fictitious values the site ships with, each with the desk's field that changes it", () => {
    const found = findPlaceholders(defaultSettings(), authorship(loadArticles()));
    for (const value of ["contact@example.com", "+41 00 000 00 00", "0000", "https://hebergeur.example.com"])
      expect(found.map((placeholder) => placeholder.value)).toContain(value);
    expect(found).toContainEqual({
      where: "Réglages identity.name",
      label: "Votre nom (prénom et nom)",
      value: "Prénom Nom (exemple)",
      href: "/admin/reglages#identity-name",
    });
    expect(found).toContainEqual(
      expect.objectContaining({
        where: "Réglages legal.hostingWebsite",
        href: "/admin/reglages#legal-hostingWebsite",
      }),
    );
    expect(found).toContainEqual(
      expect.objectContaining({
        where: "article reconnaitre-email-frauduleux video",
        value: "https://www.youtube.com/watch?v=XXXXXXXXXXX",
      }),
    );
    const warning = placeholderWarning(found)!;
    expect(warning).not.toContain("\n");
    expect(warning).toContain(`${found.length} placeholder(s) to replace before going online`);
    expect(warning).toContain('Réglages identity.email "contact@example.com"');
  });

  it("lists nothing, and the content checks pass, once the owner has replaced every placeholder in the files", async () => {
    // identity.ts and legal.ts side by side.
    const identityFile = copyWith("identity.ts", ownerIdentity);
    const legalFile = copyWith("legal.ts", ownerProviders);
    for (const file of fs.readdirSync(path.join(contentDir, "blog")))
      copyWith(path.join("blog", file), [
        ['author: "Prénom Nom (exemple)"', 'author: "Jean-Marc Rochat"'],
        ...(file === "reconnaitre-email-frauduleux.md"
          ? ([["watch?v=XXXXXXXXXXX", "watch?v=dQw4w9WgXcQ"]] as [string, string][])
          : []),
      ]);
    const { identity } = (await import(/* @vite-ignore */ identityFile)) as typeof IdentityModule;
    const legal = (await import(/* @vite-ignore */ legalFile)) as typeof LegalModule;
    const articles = loadArticles(path.join(copyDir, "blog"));
    const settings = defaultSettings({ identity, legalSettings: legal.legalSettings });

    expect(findPlaceholders(settings, authorship(articles))).toEqual([]);
    expect(placeholderWarning([])).toBeNull();
    // The checks of legal.test.ts and the articles' validation hold with the real values.
    const allText = (page: LegalPage) => JSON.stringify(page.sections);
    const pages = legal.legalPagesOf(settings.identity.name, settings.legal);
    for (const page of [pages.legalNotice, pages.privacyNotice]) {
      const ids = page.sections.map((section) => section.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(allText(page)).toContain("Infomaniak Network SA");
    }
    expect(allText(pages.legalNotice)).toContain("Jean-Marc Rochat");
    expect(articles.map((article) => article.author)).toEqual(articles.map(() => "Jean-Marc Rochat"));
    expect(settings.identity.email).toBe("contact@rochat-informatique.ch");
  });
});
