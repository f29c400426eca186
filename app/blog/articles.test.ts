import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  ARTICLE_HTML_VERSION,
  ArticleError,
  loadArticles,
  parseArticle,
  renderArticleBody,
  youtubeId,
} from "./articles.server";

const valid = {
  title: "Un titre",
  excerpt: "Un résumé.",
  category: "Sécurité",
  date: "2024-11-15",
  readTime: 5,
  author: "Prénom Nom",
  icon: "ShieldAlert",
  color: "primary",
};

/** An article file with the given front matter (values written as YAML/JSON scalars). */
function source(
  frontMatter: Record<string, unknown>,
  body = "## Premier pas\n\nVoir [le site](https://www.antiphishing.ch) ou [l’accueil](/).\n",
) {
  const lines = Object.entries(frontMatter).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join("\n")}\n---\n\n${body}`;
}

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ArticleError);
    return (error as Error).message;
  }
  throw new Error("expected an ArticleError");
}

describe("parseArticle", () => {
  it("gives the title, excerpt, text and dates French spaces, and leaves code and addresses alone", () => {
    const article = parseArticle(
      "blog/mon-article.md",
      source(
        { ...valid, title: "Un e-mail: vrai ou faux?", excerpt: "Attention !", date: "2024-11-01" },
        "## Pourquoi?\n\n**Important** : tapez `a:b?c` puis lisez « SBB » sur https://www.sbb.ch/fr?x=1!\n\n```\nif (a) { b; }\n```\n",
      ),
    );
    expect(article.title).toBe("Un e-\u2060mail\u00a0: vrai ou faux\u202f?");
    expect(article.excerpt).toBe("Attention\u202f!");
    expect(article.dateLabel).toBe("1er novembre 2024");
    // The heading's id is made from the words as written.
    expect(article.html).toContain('<h2 id="pourquoi">Pourquoi\u202f?</h2>');
    expect(article.html).toContain("</strong>\u00a0: tapez <code>a:b?c</code> puis lisez «\u00a0SBB\u00a0» sur ");
    expect(article.html).toContain('<a href="https://www.sbb.ch/fr?x=1"');
    expect(article.html).toContain("</a>\u202f!</p>");
    expect(article.html).toContain("if (a) { b; }");
  });

  it("reads the front matter and turns the Markdown into HTML", () => {
    const article = parseArticle(
      "blog/mon-article.md",
      source({ ...valid, featured: true, video: "https://youtu.be/abcdefghijk" }),
    );
    expect(article).toMatchObject({
      slug: "mon-article",
      title: "Un titre",
      readTime: 5,
      featured: true,
      color: "primary",
      date: "2024-11-15",
      dateLabel: "15 novembre 2024",
    });
    expect(article.html).toContain('<h2 id="premier-pas">Premier pas</h2>');
  });

  it("marks links to other sites rel=noopener and leaves the site's own links alone", () => {
    const { html } = parseArticle("blog/a.md", source(valid));
    const external = html.match(/<a href="https:\/\/www\.antiphishing\.ch"[^>]*>.*?<\/a>/)?.[0] ?? "";
    expect(external).toContain('rel="noopener noreferrer"');
    expect(external).toContain('target="_blank"');
    expect(external).toContain("(nouvel onglet)");
    expect(html).toContain('<a href="/">l’accueil</a>');
  });

  it("reads an optional revision date, and refuses one before the publication", () => {
    const revised = parseArticle("blog/revise.md", source({ ...valid, updated: "2025-03-03" }));
    expect(revised).toMatchObject({ updated: "2025-03-03", updatedLabel: "3 mars 2025" });
    expect(parseArticle("blog/neuf.md", source(valid))).not.toHaveProperty("updated");
    expect(errorOf(() => parseArticle("blog/avant.md", source({ ...valid, updated: "2024-11-14" })))).toBe(
      'blog/avant.md: front matter "updated" must not be before date (got "2024-11-14")',
    );
  });

  it("defaults featured to false", () => {
    expect(parseArticle("blog/a.md", source(valid)).featured).toBe(false);
  });

  it("names the file and the field when the title is missing", () => {
    const withoutTitle: Partial<typeof valid> = { ...valid };
    delete withoutTitle.title;
    const message = errorOf(() => parseArticle("app/content/blog/sans-titre.md", source(withoutTitle)));
    expect(message).toMatch(/^app\/content\/blog\/sans-titre\.md: /);
    expect(message).toMatch(/"title" is required/);
  });

  it("names the file and the field when the colour is not a theme colour", () => {
    const message = errorOf(() => parseArticle("app/content/blog/rouge.md", source({ ...valid, color: "red" })));
    expect(message).toContain("app/content/blog/rouge.md");
    expect(message).toMatch(/"color" must be primary, secondary or accent \(got "red"\)/);
  });

  it.each(["15 novembre 2024", "2024-13-01", "2024-02-30", 20241115])("refuses the date %j", (date) => {
    const message = errorOf(() => parseArticle("app/content/blog/date.md", source({ ...valid, date })));
    expect(message).toMatch(/^app\/content\/blog\/date\.md: front matter "date" /);
  });

  it("refuses unknown fields, unknown icons, non-YouTube videos and a missing front matter", () => {
    expect(errorOf(() => parseArticle("b/x.md", source({ ...valid, tags: "a" })))).toMatch(/unknown field\(s\) "tags"/);
    expect(errorOf(() => parseArticle("b/x.md", source({ ...valid, icon: "Rocket" })))).toMatch(
      /"icon" must be one of/,
    );
    expect(errorOf(() => parseArticle("b/x.md", source({ ...valid, video: "https://vimeo.com/1" })))).toMatch(
      /"video" must be a YouTube address/,
    );
    expect(errorOf(() => parseArticle("b/x.md", "## Pas de front matter"))).toMatch(/front matter .* is missing/);
    expect(errorOf(() => parseArticle("b/Mon Article.md", source(valid)))).toMatch(/file name must be a slug/);
  });
});

describe("youtubeId", () => {
  it.each([
    ["https://www.youtube.com/watch?v=abcdefghijk", "abcdefghijk"],
    ["https://youtu.be/abcdefghijk", "abcdefghijk"],
    ["https://www.youtube-nocookie.com/embed/abcdefghijk", "abcdefghijk"],
    ["https://www.youtube.com/watch?v=short", null],
    ["https://example.com/watch?v=abcdefghijk", null],
    ["not a url", null],
  ])("%s gives %s", (address, id) => {
    expect(youtubeId(address)).toBe(id);
  });
});

describe("the site's articles", () => {
  const articles = loadArticles();
  const words = (html: string) =>
    html
      .replace(/<[^>]+>/g, " ")
      .split(/\s+/)
      .filter(Boolean).length;

  it("are the three guides of spec section 3, dated November 2024, newest first", () => {
    expect(articles.map((article) => [article.slug, article.category, article.readTime])).toEqual([
      ["reconnaitre-email-frauduleux", "Sécurité", 5],
      ["chatgpt-pour-emails", "Intelligence Artificielle", 7],
      ["application-cff-guide-complet", "Applications", 6],
    ]);
    for (const article of articles) expect(article.date).toMatch(/^2024-11-/);
  });

  it("feature the fraud guide, with its video", () => {
    const featured = articles.filter((article) => article.featured);
    expect(featured.map((article) => article.slug)).toEqual(["reconnaitre-email-frauduleux"]);
    expect(youtubeId(featured[0]!.video!)).not.toBeNull();
  });

  it("are full guides: at least 700 words, with headings and a summary", () => {
    for (const article of articles) {
      expect(words(article.html), article.slug).toBeGreaterThanOrEqual(700);
      expect(article.html).toMatch(/<h2 id="/);
      expect(article.html).toMatch(/En résumé/);
    }
  });
});

describe("ARTICLE_HTML_VERSION", () => {
  it("changes whenever the pipeline renders an article differently, so that stored pages are rendered again", () => {
    const markdown = [
      "## Un titre: avec « guillemets »?",
      "Du **gras**, de l’*italique*, du `code: brut`, [un site](https://www.example.ch) et [l’accueil](/).[^1]",
      "- une liste\n- [ ] une case",
      "| Jour | Heure |\n| --- | --- |\n| lundi | 9h00–18h00 |",
      "```\nif (a) { b; }\n```",
      "[piège](javascript:alert(1)) et <b>brut</b>",
      "![Une photo](/images/7-0123456789ab-800.webp)",
      "[^1]: Une note !",
    ].join("\n\n");
    const pictures = new Map([[7, { id: 7, hash: "0123456789ab", width: 1600, height: 1200 }]]);
    const html = renderArticleBody(markdown, pictures);
    const fingerprint = crypto.createHash("sha256").update(html).digest("hex").slice(0, 16);
    // Failing: the pipeline's HTML changed. Bump ARTICLE_HTML_VERSION (app/blog/articles.server.ts), then write the new pair here.
    expect({ version: ARTICLE_HTML_VERSION, fingerprint }).toEqual({ version: 1, fingerprint: "e3f2a7a7d16a03b0" });
  });
});
