import { describe, expect, it } from "vitest";
import { buildSitemap, sitemapPages } from "~/seo/sitemap.server";
import { pathsOfSitemap, warmUpOrder } from "./render-cache-warm-up";

describe("the warm-up's reading of the sitemap", () => {
  it("finds every page the site's own sitemap lists, in its order", async () => {
    const articles = Array.from({ length: 30 }, (_, index) => ({
      slug: `conseil-${index}-l-ete`,
      date: "2026-06-01",
      updated: index % 2 ? "2026-07-01" : undefined,
    }));
    const pages = sitemapPages(articles, [{ slug: "2026-06-lettre-de-juin-3", sentAt: "2026-06-02T08:00:00.000Z" }]);
    const xml = await buildSitemap(pages, "https://www.example.ch");
    expect(pathsOfSitemap(xml)).toEqual(pages.map((page) => page.path));
    // Every article is kept by the warm-up, the newest first.
    const order = warmUpOrder(pathsOfSitemap(xml));
    for (const article of articles) expect(order).toContain(`/blog/${article.slug}`);
    expect(order.indexOf("/blog/conseil-0-l-ete")).toBeLessThan(order.indexOf("/blog/conseil-29-l-ete"));
  });
});
