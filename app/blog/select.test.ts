import { describe, expect, it } from "vitest";
import { ARTICLES_PER_PAGE, featuredArticle, homeArticles, pageCount } from "./select";
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
});
