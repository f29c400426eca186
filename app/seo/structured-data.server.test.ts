/** The article's dates in its structured data and in the sitemap (front matter `date`, optional `updated`). */
import { describe, expect, it } from "vitest";
import type { ArticleSummary } from "~/blog/types";
import { sitemapPages } from "./sitemap.server";
import { articleStructuredData } from "./structured-data.server";

const article: ArticleSummary = {
  slug: "mon-article",
  title: "Un titre",
  excerpt: "Un résumé.",
  category: "Sécurité",
  date: "2024-11-15",
  dateLabel: "15 novembre 2024",
  readTime: 5,
  author: "Prénom Nom",
  icon: "ShieldAlert",
  color: "primary",
  featured: false,
};
const image = { path: "/og/blog/mon-article.png", alt: "Un titre" };

/** The BlogPosting node of an article's structured data. */
function posting(summary: ArticleSummary) {
  const data = articleStructuredData(summary, "https://site.ch", image) as unknown as {
    "@graph": Array<Record<string, unknown>>;
  };
  return data["@graph"].find((node) => node["@type"] === "BlogPosting")!;
}

describe("an article's dates", () => {
  it("count the publication as the last change when there is no revision date", () => {
    expect(posting(article)).toMatchObject({ datePublished: "2024-11-15", dateModified: "2024-11-15" });
    expect(sitemapPages([article]).find((page) => page.path === "/blog/mon-article")).toEqual({
      path: "/blog/mon-article",
      lastmod: "2024-11-15",
    });
  });

  it("give the revision date as dateModified and lastmod when the front matter has one", () => {
    const revised = { ...article, updated: "2025-03-03", updatedLabel: "3 mars 2025" };
    expect(posting(revised)).toMatchObject({ datePublished: "2024-11-15", dateModified: "2025-03-03" });
    expect(sitemapPages([revised]).find((page) => page.path === "/blog/mon-article")).toEqual({
      path: "/blog/mon-article",
      lastmod: "2025-03-03",
    });
  });
});
