import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { loadArticles } from "./articles.server";
import { buildRssFeed } from "./feed.server";

describe("RSS feed", () => {
  const articles = loadArticles();
  const xml = buildRssFeed(articles, "https://www.example.ch");
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml);

  it("is RSS 2.0 that an XML parser reads", () => {
    expect(parsed.rss["@_version"]).toBe("2.0");
    expect(parsed.rss.channel.link).toBe("https://www.example.ch/blog");
    expect(parsed.rss.channel.language).toBe("fr-CH");
  });

  it("lists every article with an absolute link on SITE_URL", () => {
    const items = [parsed.rss.channel.item].flat();
    expect(items.map((item: { link: string }) => item.link)).toEqual(
      articles.map((article) => `https://www.example.ch/blog/${article.slug}`),
    );
    for (const item of items) {
      expect(item.title).toBeTruthy();
      expect(new Date(item.pubDate).getUTCFullYear()).toBe(2024);
    }
  });
});
