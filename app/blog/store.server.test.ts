/**
 * What the public pages read of the articles (app/blog/store.server.ts), on
 * a PGlite database: cards newest first, a page of them, the featured one,
 * the related ones (the same category first, then the most recent), a
 * scheduled article nowhere until its moment; an article's page shows the
 * HTML of the current pipeline, never that of an older one.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles } from "~/db/schema";
import { openTestDatabase, type TestDatabase } from "../../tests/support/harness";
import { ARTICLE_HTML_VERSION, htmlColumnsOf } from "./articles.server";
import { renderStaleArticles } from "./html.server";
import {
  articleCards,
  featuredCard,
  nextPublication,
  publishedArticle,
  publishedCount,
  relatedCards,
} from "./store.server";

const NOW = new Date("2024-12-01T12:00:00Z");

const row = (
  slug: string,
  category: string,
  date: string,
  extra: { featured?: boolean; publishedAt?: string | null } = {},
) => ({
  slug,
  title: slug,
  excerpt: "Un résumé.",
  category,
  author: "A",
  body: "Un texte.",
  ...htmlColumnsOf("Un texte."),
  icon: "ShieldAlert",
  color: "primary",
  readTime: 5,
  date,
  featured: extra.featured ?? false,
  publishedAt: extra.publishedAt === undefined ? `${date}T08:00:00Z` : extra.publishedAt,
});

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
  await database.db
    .insert(articles)
    .values([
      row("ia-2", "IA", "2024-11-20"),
      row("secu-2", "Sécurité", "2024-11-18"),
      row("apps-1", "Applications", "2024-11-16"),
      row("secu-1", "Sécurité", "2024-11-15", { featured: true }),
      row("ia-1", "IA", "2024-11-08"),
      row("secu-3", "Sécurité", "2024-12-24", { featured: true, publishedAt: "2024-12-24T08:00:00Z" }),
      row("brouillon", "IA", "2024-11-30", { publishedAt: null }),
    ]);
});
afterAll(async () => database?.close());

const slugs = (cards: { slug: string }[]) => cards.map((card) => card.slug);

describe("the public lists", () => {
  it("gives cards newest first, a page at a time, without drafts or scheduled articles", async () => {
    const { db } = database;
    expect(slugs(await articleCards(db, NOW, { limit: 10 }))).toEqual(["ia-2", "secu-2", "apps-1", "secu-1", "ia-1"]);
    expect(slugs(await articleCards(db, NOW, { limit: 2, offset: 2 }))).toEqual(["apps-1", "secu-1"]);
    expect(await publishedCount(db, NOW)).toBe(5);
    expect((await featuredCard(db, NOW))?.slug).toBe("secu-1");
    expect(await nextPublication(db, NOW)).toMatch(/^2024-12-24/);
    // At its moment, the scheduled article is the newest and the featured one.
    const later = new Date("2024-12-24T09:00:00Z");
    expect(slugs(await articleCards(db, later, { limit: 1 }))).toEqual(["secu-3"]);
    expect((await featuredCard(db, later))?.slug).toBe("secu-3");
  });

  it("shows two related articles: the same category first, then the most recent", async () => {
    const { db } = database;
    const related = async (slug: string, category: string) => slugs(await relatedCards(db, NOW, { slug, category }));
    expect(await related("secu-1", "Sécurité")).toEqual(["secu-2", "ia-2"]);
    expect(await related("ia-2", "IA")).toEqual(["ia-1", "secu-2"]);
    expect(await related("apps-1", "Applications")).toEqual(["ia-2", "secu-2"]);
  });

  it("gives cards their French date and no body", async () => {
    const [card] = await articleCards(database.db, NOW, { limit: 1 });
    expect(card).toMatchObject({ slug: "ia-2", dateLabel: "20 novembre 2024" });
    expect(card).not.toHaveProperty("body");
    expect(card).not.toHaveProperty("html");
  });
});

describe("an article's stored HTML", () => {
  it("is shown when the current pipeline made it, else the article is rendered again and stored", async () => {
    const { db } = database;
    const set = (slug: string, columns: Partial<typeof articles.$inferInsert>) =>
      db.update(articles).set(columns).where(eq(articles.slug, slug));
    // Made by an older pipeline; its text changed by a writer that does not render (migration 0036's trigger);
    // made by a newer pipeline (a newer process beside this one), which this one leaves as it is.
    await set("secu-2", { html: "<p>Ancien rendu.</p>", htmlVersion: ARTICLE_HTML_VERSION - 1 });
    await set("apps-1", { body: "Un texte **corrigé**." });
    await set("ia-1", { html: "<p>Rendu plus récent.</p>", htmlVersion: ARTICLE_HTML_VERSION + 1 });
    expect((await publishedArticle(db, NOW, "apps-1"))?.html).toBe("<p>Un texte <strong>corrigé</strong>.</p>");
    expect((await publishedArticle(db, NOW, "ia-1"))?.html).toBe("<p>Un texte.</p>");
    // The start's background pass: the row the page read is stored already.
    expect(await renderStaleArticles(db)).toBe(1);
    expect(await renderStaleArticles(db)).toBe(0);
    const stored = await db
      .select({ slug: articles.slug, html: articles.html, htmlVersion: articles.htmlVersion })
      .from(articles)
      .where(inArray(articles.slug, ["apps-1", "ia-1", "secu-2"]))
      .orderBy(articles.slug);
    expect(stored).toEqual([
      { slug: "apps-1", html: "<p>Un texte <strong>corrigé</strong>.</p>", htmlVersion: ARTICLE_HTML_VERSION },
      { slug: "ia-1", html: "<p>Rendu plus récent.</p>", htmlVersion: ARTICLE_HTML_VERSION + 1 },
      { slug: "secu-2", html: "<p>Un texte.</p>", htmlVersion: ARTICLE_HTML_VERSION },
    ]);
  });
});

describe("the render cache's trigger on articles (migration 0036)", () => {
  it("fires on a change of every column a page shows: all of them but the stored HTML and its version", async () => {
    const { db } = database;
    const columns = await db.execute<{ name: string }>(
      sql`select column_name as name from information_schema.columns where table_name = 'articles'`,
    );
    const watched = await db.execute<{ name: string }>(sql`
      select attribute.attname as name
      from pg_trigger trigger
      join pg_attribute attribute
        on attribute.attrelid = trigger.tgrelid and attribute.attnum = any (trigger.tgattr::int2[])
      where trigger.tgname = 'articles_render_cache'`);
    // Both drivers answer `{ rows }`.
    const names = (result: unknown) => (result as { rows: { name: string }[] }).rows.map((row) => row.name).sort();
    // A column added to `articles` without being added to the trigger would change a page that no
    // process's render cache drops.
    expect(names(watched)).toEqual(names(columns).filter((name) => !["html", "html_version"].includes(name)));
  });
});
