import { describe, expect, it } from "vitest";
import { ARTICLES_PER_PAGE, featuredArticle, homeArticles, pageCount, pageOf, relatedArticles } from "./select";
import type { ArticleSummary } from "./types";

const make = (slug: string, category: string, date: string, featured = false): ArticleSummary => ({
  slug,
  title: slug,
  excerpt: "",
  category,
  date,
  dateLabel: date,
  readTime: 5,
  author: "A",
  icon: "ShieldAlert",
  color: "primary",
  featured,
});

// Newest first, as getArticles() returns them.
const all = [
  make("ia-2", "IA", "2024-11-20"),
  make("secu-2", "Sécurité", "2024-11-18"),
  make("apps-1", "Applications", "2024-11-16"),
  make("secu-1", "Sécurité", "2024-11-15", true),
  make("ia-1", "IA", "2024-11-08"),
];

describe("relatedArticles", () => {
  it("shows two others: the same category first, then the most recent", () => {
    expect(relatedArticles(all[3]!, all).map((a) => a.slug)).toEqual(["secu-2", "ia-2"]);
    expect(relatedArticles(all[0]!, all).map((a) => a.slug)).toEqual(["ia-1", "secu-2"]);
    expect(relatedArticles(all[2]!, all).map((a) => a.slug)).toEqual(["ia-2", "secu-2"]);
  });
  it("never lists the article itself, and copes with a lone article", () => {
    expect(relatedArticles(all[0]!, [all[0]!])).toEqual([]);
  });
});

describe("homeArticles", () => {
  it("puts the featured article first, then the most recent", () => {
    expect(featuredArticle(all)?.slug).toBe("secu-1");
    expect(homeArticles(all).map((a) => a.slug)).toEqual(["secu-1", "ia-2", "secu-2"]);
  });
  it("takes the most recent when none is featured", () => {
    const plain = all.map((a) => ({ ...a, featured: false }));
    expect(homeArticles(plain).map((a) => a.slug)).toEqual(["ia-2", "secu-2", "apps-1"]);
  });
});

describe("pagination", () => {
  it("uses 12 articles a page (the sitemap counts the blog pages with the same constant)", () => {
    expect(ARTICLES_PER_PAGE).toBe(12);
  });
  it("counts pages and cuts them", () => {
    const many = Array.from({ length: 25 }, (_, i) => i);
    expect(pageCount(0)).toBe(1);
    expect(pageCount(12)).toBe(1);
    expect(pageCount(25)).toBe(3);
    expect(pageOf(many, 1)).toEqual(many.slice(0, 12));
    expect(pageOf(many, 3)).toEqual([24]);
    expect(pageOf(many, 4)).toBeNull();
    expect(pageOf(many, 0)).toBeNull();
    expect(pageOf(many, 1.5)).toBeNull();
  });
});
