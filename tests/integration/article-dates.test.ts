/**
 * Issue 33, item 13: an article imported from a file (its front matter gives
 * a day, no hour) shows that day in the desk, without an hour nobody chose
 * (it was « Publié le 1er novembre 2024, 01 h 00 »: midnight UTC in Swiss
 * time); an article the owner publishes at a moment keeps its hour.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { articles } from "../../app/db/schema";
import { deskFetch, pageText, startArticleDesk } from "../support/harness";

let desk: Awaited<ReturnType<typeof startArticleDesk>>;
beforeAll(async () => {
  desk = await startArticleDesk();
}, 60_000);
afterAll(() => desk?.site.close());

const deskText = async (pathname: string) =>
  pageText(await (await deskFetch(desk.site.url, pathname, { jar: desk.jar })).text());

it("shows an imported article's day without an hour, in the list and on its page", async () => {
  const [imported] = await desk.site.database.db
    .select()
    .from(articles)
    .where(eq(articles.slug, "application-cff-guide-complet"));
  expect(imported!.sourceFile).not.toBeNull();
  const list = await deskText("/admin/articles");
  expect(list).toContain("Publié le 1er novembre 2024");
  expect(list).not.toMatch(/Publié le [^.]*\d+ h \d\d/);
  const page = await deskText(`/admin/articles/${imported!.id}`);
  expect(page).toContain("Publié le 1er novembre 2024.");
});

it("keeps the hour of an article the owner published at a chosen moment", async () => {
  const id = await desk.create("Un article du bureau");
  await desk.site.database.db
    .update(articles)
    .set({ publishedAt: "2026-03-10T13:30:00.000Z", date: "2026-03-10" })
    .where(eq(articles.id, id));
  expect(await deskText(`/admin/articles/${id}`)).toContain("Publié le mardi 10 mars 2026, 14 h 30.");
});
