import { describe, expect, it } from "vitest";
import { ARTICLES_PER_PAGE, featuredArticle, homeArticles, pageCount, pagesAround } from "./select";
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

// Newest first, as app/blog/store.server.ts reads them.
const all = [
  make("ia-2", "IA", "2024-11-20"),
  make("secu-2", "Sécurité", "2024-11-18"),
  make("apps-1", "Applications", "2024-11-16"),
  make("secu-1", "Sécurité", "2024-11-15", true),
  make("ia-1", "IA", "2024-11-08"),
];

describe("homeArticles", () => {
  it("puts the featured article first, then the most recent", () => {
    expect(featuredArticle(all)?.slug).toBe("secu-1");
    expect(homeArticles(all).map((a) => a.slug)).toEqual(["secu-1", "ia-2", "secu-2"]);
  });
  it("shows the featured article once when it is also among the most recent (read apart, the same slug)", () => {
    expect(homeArticles([{ ...all[3]! }, ...all]).map((a) => a.slug)).toEqual(["secu-1", "ia-2", "secu-2"]);
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
  it("counts pages", () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(12)).toBe(1);
    expect(pageCount(25)).toBe(3);
  });
  it("links the first and last pages and those next to the current one, « … » between", () => {
    expect(pagesAround(1, 1)).toEqual([1]);
    expect(pagesAround(1, 3)).toEqual([1, 2, 3]);
    expect(pagesAround(1, 9)).toEqual([1, 2, null, 9]);
    expect(pagesAround(5, 9)).toEqual([1, null, 4, 5, 6, null, 9]);
    // A gap of one number shows the number.
    expect(pagesAround(3, 9)).toEqual([1, 2, 3, 4, null, 9]);
    expect(pagesAround(7, 9)).toEqual([1, null, 6, 7, 8, 9]);
    expect(pagesAround(417, 417)).toEqual([1, null, 416, 417]);
  });
});
