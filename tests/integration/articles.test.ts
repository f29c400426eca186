/**
 * Articles from the desk (issue 21, item 2) on a real server (embedded
 * database, render cache on): the repository's Markdown files are the first
 * rows; the owner creates an article, a mistake gets its French message
 * beside its field and saves nothing, publishing shows the article at once
 * on `/blog`, `/`, the RSS feed and the sitemap (pages that were in the
 * cache), a scheduled one waits for its moment, unpublishing takes it off
 * everywhere (404 on its address). And the import: a file added, changed,
 * edited in the desk, or broken.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTICLE_HTML_VERSION, loadArticles } from "../../app/blog/articles.server";
import { publishedArticles, importArticleFiles } from "../../app/blog/store.server";
import { articles, auditLog } from "../../app/db/schema";
import {
  createOwner,
  deskFetch,
  dataDirWithoutArticles,
  openTestDatabase,
  signIn,
  startTestServer,
  type CookieJar,
  type TestDatabase,
} from "../support/harness";

const shippedFiles = loadArticles();

/** The visible text of an HTML answer, tags removed, spaces collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/[ \t\r\n]+/g, " ");

/** The French message shown under field `name` of the editor, or null. */
const fieldError = (html: string, name: string) => {
  const line = new RegExp(`<p id="${name}-error"[^>]*>([\\s\\S]*?)</p>`).exec(html)?.[1];
  return line === undefined ? null : line.replace(/<[^>]+>/g, "").trim();
};

const written = {
  title: "Agrandir le texte de votre téléphone",
  excerpt: "Les lettres sont trop petites ? Deux réglages suffisent, sur iPhone comme sur Android.",
  category: "Applications",
  body: "## Sur iPhone\n\nOuvrez **Réglages**, puis *Luminosité et affichage*.\n\n- Taille du texte\n- Texte en gras\n",
  icon: "Lightbulb",
  color: "secondary",
  video: "",
};

describe("articles written in the desk", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  let jar: CookieJar;
  let id = 0;
  let dataDir: string | undefined;
  const get = (pathname: string) => fetch(`${site.url}${pathname}`);
  const editor = (form: Record<string, string>) => deskFetch(site.url, `/admin/articles/${id}`, { jar, form });

  beforeAll(async () => {
    // A database without articles (the tests' template holds the repository's): the start imports them.
    dataDir = await dataDirWithoutArticles();
    site = await startTestServer({ DATA_DIR: dataDir });
    jar = await signIn(site.url, await createOwner(site.database.db));
  }, 60_000);
  // A DATA_DIR given to the server stays when it closes: removed here.
  afterAll(async () => {
    await site?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts with the repository's Markdown articles, as before", async () => {
    const blog = await get("/blog").then((answer) => answer.text());
    for (const article of shippedFiles) expect(blog).toContain(`href="/blog/${article.slug}"`);
    const rows = await site.database.db.select({ slug: articles.slug, file: articles.sourceFile }).from(articles);
    expect(rows.map((row) => row.slug).sort()).toEqual(shippedFiles.map((article) => article.slug).sort());
  });

  it("creates a draft from a title, which no public page shows", async () => {
    const created = await deskFetch(site.url, "/admin/articles", { jar, form: { title: written.title } });
    expect(created.status).toBe(303);
    const location = created.headers.get("location")!;
    expect(location).toMatch(/^\/admin\/articles\/\d+$/);
    id = Number(location.split("/").pop());
    expect((await get("/blog/agrandir-le-texte-de-votre-telephone")).status).toBe(404);
    // Without a session, the editor is closed.
    expect((await deskFetch(site.url, location)).status).toBe(303);
    expect((await deskFetch(site.url, location, { form: { ...written, intent: "publish" } })).status).toBe(303);
  });

  it("refuses a wrong value with its French message beside the field, and saves nothing", async () => {
    // The pages in the render cache before the change, to see them change.
    for (const page of ["/blog", "/", "/blog/rss.xml", "/sitemap.xml"]) await get(page).then((answer) => answer.text());
    const badVideo = await editor({ ...written, video: "pas une adresse", intent: "publish" });
    expect(badVideo.status).toBe(400);
    const html = await badVideo.text();
    expect(fieldError(html, "video")).toMatch(/^Donnez l’adresse d’une vidéo YouTube/);
    expect(html).toContain("Rien n’a été enregistré");
    const missing = await editor({ ...written, excerpt: "", category: "", intent: "publish" });
    expect(missing.status).toBe(400);
    const missingHtml = await missing.text();
    expect(fieldError(missingHtml, "excerpt")).toMatch(/^Écrivez un résumé avant de publier/);
    expect(fieldError(missingHtml, "category")).toBe("Choisissez une catégorie avant de publier.");
    // What was typed is given back in the form.
    expect(missingHtml).toContain("Sur iPhone");
    const [row] = await site.database.db.select().from(articles).where(eq(articles.id, id));
    expect(row).toMatchObject({ body: "", excerpt: "", publishedAt: null });
  });

  it("previews the article as its page will look, without saving it", async () => {
    const answer = await editor({ ...written, intent: "preview" });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toMatch(/<h2[^>]*id="sur-iphone"[^>]*>Sur iPhone<\/h2>/);
    expect(html).toContain("<strong>Réglages</strong>");
    const [row] = await site.database.db.select({ body: articles.body }).from(articles).where(eq(articles.id, id));
    expect(row!.body).toBe("");
  });

  it("publishes: /blog, /, the feed, the sitemap and the article's page show it at once", async () => {
    const published = await editor({ ...written, featured: "on", intent: "publish" });
    expect(published.status).toBe(200);
    expect(textOf(await published.text())).toContain("Article publié");
    const slug = "agrandir-le-texte-de-votre-telephone";
    const page = await get(`/blog/${slug}`);
    expect(page.status).toBe(200);
    const article = await page.text();
    expect(article).toContain("Agrandir le texte de votre téléphone");
    expect(textOf(article)).toContain("Les lettres sont trop petites\u202f?");
    // Its text as HTML, stored when it was saved (decision 067).
    expect(article).toMatch(/<h2[^>]*id="sur-iphone"[^>]*>Sur iPhone<\/h2>/);
    const [stored] = await site.database.db
      .select({ html: articles.html, htmlVersion: articles.htmlVersion })
      .from(articles)
      .where(eq(articles.id, id));
    expect(stored).toEqual({
      html: expect.stringContaining("<strong>Réglages</strong>"),
      htmlVersion: ARTICLE_HTML_VERSION,
    });
    expect(await get("/blog").then((answer) => answer.text())).toContain(`href="/blog/${slug}"`);
    // Featured: the home page's first card.
    const home = await get("/").then((answer) => answer.text());
    expect(home).toContain(`href="/blog/${slug}"`);
    expect(await get("/blog/rss.xml").then((answer) => answer.text())).toContain(`/blog/${slug}</link>`);
    expect(await get("/sitemap.xml").then((answer) => answer.text())).toContain(`/blog/${slug}</loc>`);
    const actions = await site.database.db.select({ action: auditLog.action }).from(auditLog);
    expect(actions.map((row) => row.action)).toEqual(expect.arrayContaining(["article-created", "article-published"]));
    // Saved again with a new paragraph: its page (kept in the cache) shows it.
    const body = `${written.body}\n## Sur Android\n\nOuvrez *Paramètres*.\n`;
    expect((await editor({ ...written, featured: "on", body, intent: "save" })).status).toBe(200);
    expect(await get(`/blog/${slug}`).then((answer) => answer.text())).toMatch(
      /<h2[^>]*id="sur-android"[^>]*>Sur Android<\/h2>\s*<p>Ouvrez <em>Paramètres<\/em>.<\/p>/,
    );
  });

  it("unpublishing takes it off every page (404 on its address)", async () => {
    expect((await editor({ intent: "unpublish" })).status).toBe(200);
    const slug = "agrandir-le-texte-de-votre-telephone";
    expect((await get(`/blog/${slug}`)).status).toBe(404);
    for (const pathname of ["/blog", "/", "/blog/rss.xml", "/sitemap.xml"])
      expect(await get(pathname).then((answer) => answer.text()), pathname).not.toContain(`/blog/${slug}`);
  });

  it("a scheduled article waits for its moment", async () => {
    const refused = await editor({ ...written, intent: "schedule", publishDate: "2020-01-01", publishTime: "08:00" });
    expect(refused.status).toBe(400);
    expect(fieldError(await refused.text(), "publishDate")).toBe(
      "Choisissez un moment à venir, ou publiez maintenant.",
    );
    const nextYear = new Date().getUTCFullYear() + 1;
    const scheduled = await editor({
      ...written,
      intent: "schedule",
      publishDate: `${nextYear}-03-02`,
      publishTime: "09:30",
    });
    expect(scheduled.status).toBe(200);
    expect(textOf(await scheduled.text())).toMatch(
      new RegExp(`Article programmé : il paraîtra le \\p{L}+ 2 mars ${nextYear}, 9\\s?h\\s?30`, "u"),
    );
    expect((await get("/blog/agrandir-le-texte-de-votre-telephone")).status).toBe(404);
    const later = await publishedArticles(site.database.db, new Date(`${nextYear}-03-02T08:31:00Z`));
    expect(later.articles.map((article) => article.slug)).toContain("agrandir-le-texte-de-votre-telephone");
  });
});

describe("importing the Markdown files", () => {
  let database: TestDatabase;
  let directory: string;
  const file = (name: string, title: string, extra = "") =>
    fs.writeFileSync(
      path.join(directory, name),
      `---\ntitle: "${title}"\nexcerpt: "Un résumé."\ncategory: "Sécurité"\ndate: 2025-01-10\nreadTime: 3\nauthor: "Moi"\nicon: "ShieldAlert"\ncolor: "primary"\n${extra}---\n\nUn texte.\n`,
    );

  beforeAll(async () => {
    database = await openTestDatabase();
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "articles-import-"));
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it("adds a new file, follows its changes, and stops following once the owner edits it in the desk", async () => {
    const { db } = database;
    file("premier.md", "Premier titre");
    expect((await importArticleFiles(db, { directory })).added).toEqual(["premier"]);
    expect((await importArticleFiles(db, { directory })).added).toEqual([]);
    file("premier.md", "Titre corrigé");
    expect((await importArticleFiles(db, { directory })).updated).toEqual(["premier"]);
    const titles = async () => (await publishedArticles(db)).articles.map((article) => article.title);
    expect(await titles()).toEqual(["Titre corrigé"]);
    await db.update(articles).set({ title: "Titre du bureau", editedInDesk: true }).where(eq(articles.slug, "premier"));
    file("premier.md", "Titre du fichier");
    expect((await importArticleFiles(db, { directory })).updated).toEqual([]);
    expect(await titles()).toEqual(["Titre du bureau"]);
  });

  it("skips a broken file with a log line naming the file and the field, and imports the others", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "error" }, { write: (line: string) => void lines.push(line) });
    file("casse.md", "Cassé", 'color: "rouge"\n'.replace("color", "colour"));
    file("second.md", "Second titre");
    const report = await importArticleFiles(database.db, { directory, logger });
    expect(report.skipped).toEqual(["casse.md"]);
    expect(report.added).toEqual(["second"]);
    expect(lines.join("")).toContain("casse.md");
    expect(lines.join("")).toContain("colour");
  });
});
