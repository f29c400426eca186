/**
 * Only web, mail, telephone and relative addresses survive in an article's
 * rendered Markdown, on its page (the RSS feed carries no body): a `javascript:`,
 * `data:` or `vbscript:` address written by the owner (or pasted from
 * elsewhere) never reaches a reader's browser.
 */
import { describe, expect, it } from "vitest";
import { parseArticle, renderArticleBody } from "./articles.server";
import { buildRssFeed } from "./feed.server";

const HOSTILE = [
  "[Cliquez](javascript:alert(1))",
  "[ici](JaVaScRiPt:alert(2))",
  "[là](data:text/html,<script>alert(3)</script>)",
  "[vb](vbscript:msgbox(4))",
  "[espacé](%20javascript:alert(5))",
  "![image](javascript:alert(6))",
  "![image](data:image/svg+xml,<svg/onload=alert(7)>)",
  '<img src="javascript:alert(8)">',
  '<a href="javascript:alert(9)">brut</a>',
].join("\n\n");

const SAFE =
  "[cours](https://www.example.ch/cours) [vieux](http://example.ch/) [m’écrire](mailto:a@example.ch) " +
  "[appeler](tel:+41791234567) [tarifs](/tarifs) [plus bas](#contact) [article](autre-article)";

describe("links in an article's Markdown", () => {
  it("drop javascript:, data: and vbscript: addresses of links and images, keeping the words", () => {
    const html = renderArticleBody(HOSTILE);
    expect(html).not.toMatch(/javascript:|data:|vbscript:|alert\(/i);
    expect(html).toContain("Cliquez");
    expect(html).toContain("vb");
  });

  it("keep http, https, mailto, tel and relative addresses", () => {
    const html = renderArticleBody(SAFE);
    for (const href of [
      "https://www.example.ch/cours",
      "http://example.ch/",
      "mailto:a@example.ch",
      "tel:+41791234567",
      "/tarifs",
      "#contact",
      "autre-article",
    ]) {
      expect(html).toContain(`href="${href}"`);
    }
  });

  it("never reach the RSS feed, which carries the summary, not the body", () => {
    const source = [
      "---",
      "title: Un guide",
      "excerpt: Résumé",
      "category: Sécurité",
      "date: 2024-11-15",
      "readTime: 5",
      "author: Moi",
      "icon: ShieldCheck",
      "color: primary",
      "---",
      HOSTILE,
    ].join("\n");
    const xml = buildRssFeed([parseArticle("un-guide.md", source)], "https://www.example.ch");
    expect(xml).not.toMatch(/javascript:|data:text|data:image|vbscript:|alert\(/i);
    expect(xml).toContain("Résumé");
    expect(xml).not.toContain("Cliquez");
  });
});
