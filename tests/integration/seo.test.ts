/**
 * Search-engine metadata as the production server serves it (the build
 * made once by the global setup, tests/integration/global-setup.ts; the
 * server started here with its own SITE_URL, which it reads at run time):
 * the title, description, canonical URL and share image of every page of
 * the sitemap and of every noindex page, from the render cache; the
 * metadata each page must have (`metadataProblems`, which the build
 * checked while it prerendered pages); the sitemap (with the newsletter's
 * letters) and robots.txt; the JSON-LD of the home page, of each
 * article and of /questions (FAQPage). Expected values are computed from app/content/ and the
 * articles, never written out here.
 */
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadArticles } from "../../app/blog/articles.server";
import { ARTICLES_PER_PAGE } from "../../app/blog/select";
import type { Article } from "../../app/blog/types";
import { courses } from "../../app/content/courses";
import { faqOf } from "../../app/content/faq";
import { defaultHours, openingHoursOf } from "../../app/content/hours";
import { defaultSettings } from "../../app/settings/site.server";
import { identity } from "../../app/content/identity";
import { services } from "../../app/content/services";
import { defaultZones, zonesOf } from "../../app/content/zones";

// A fresh database: the pages show the content files' defaults.
const faq = faqOf(defaultSettings());
const openingHours = openingHoursOf(defaultHours);
const zones = zonesOf(defaultZones);
import { siteName } from "../../app/content/site-name";
import { isNoindex, metadataProblems, readHeadMetadata, type HeadMetadata } from "../../tooling/page-metadata";
import { newsletterSubscribers } from "../../app/db/schema";
import { createLetter, letterSlug, sendLetter } from "../../app/newsletter/letters.server";
import { NOINDEX_PAGES, publicPagePaths, servedPages, startTestServer } from "../support/harness";

/** The public address the server is started with: not the build's, not the test server's own. */
const siteUrl = "https://www.formation-seo.ch";
/** A kept page of the render cache (server/render-cache.ts). */
const CACHED = "public, max-age=0, must-revalidate, s-maxage=10, stale-while-revalidate=20";

type Node = Record<string, unknown> & { "@type"?: string };
const nodes = (metadata: HeadMetadata): Node[] =>
  metadata.jsonLd.flatMap((block) => ((block as { "@graph"?: Node[] })["@graph"] ?? [block]) as Node[]);
const nodeOfType = (metadata: HeadMetadata, type: string) => {
  const found = nodes(metadata).filter((node) => node["@type"] === type);
  expect(found, `one ${type} node`).toHaveLength(1);
  return found[0]!;
};

type Page = { path: string; metadata: HeadMetadata; html: string; cacheControl: string | null };
/** Every page of the sitemap, then the noindex pages, as the server serves them. */
let pages: Page[] = [];
let articles: Article[] = [];
let site: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  site = await startTestServer({ SITE_URL: siteUrl });
  pages = (await servedPages(site.url, await publicPagePaths())).map((page) => ({
    path: page.path,
    metadata: readHeadMetadata(page.html),
    html: page.html,
    cacheControl: page.headers.get("cache-control"),
  }));
  articles = loadArticles();
});

afterAll(async () => {
  await site?.close();
});

describe("every page of the sitemap and every noindex page", () => {
  it("is served from the render cache, and the sitemap lists every one but the noindex pages", async () => {
    expect(pages.length, "pages").toBeGreaterThan(NOINDEX_PAGES.length + articles.length);
    for (const page of pages) expect(page.cacheControl, `${page.path}: kept in the render cache`).toBe(CACHED);
    const sitemap = new XMLParser().parse(await (await fetch(`${site.url}/sitemap.xml`)).text());
    const listed = ([sitemap.urlset.url].flat() as { loc: string }[]).map((entry) => entry.loc);
    const noindex = new Set<string>(NOINDEX_PAGES);
    expect(listed.sort()).toEqual(
      pages
        .filter((page) => !noindex.has(page.path))
        .map((page) => `${siteUrl}${page.path}`)
        .sort(),
    );
  });

  it("has the metadata every page must have: title, description, and a canonical URL unless noindex", () => {
    // What the build checked on each page it prerendered (and failed on): now checked on the served pages.
    const problems = pages.flatMap((page) =>
      metadataProblems(page.html).map((problem) => `- ${page.path}: ${problem}`),
    );
    expect(
      problems,
      `${problems.length} metadata problem(s) (see app/seo/page-meta.server.ts):\n${problems.join("\n")}`,
    ).toEqual([]);
  });

  it("has a unique title and a description", () => {
    const titles = pages.map((page) => page.metadata.title);
    for (const page of pages) {
      expect(page.metadata.title?.trim(), `${page.path}: title`).toBeTruthy();
      expect(page.metadata.description?.trim().length, `${page.path}: description`).toBeGreaterThan(30);
    }
    expect(new Set(titles).size, `titles: ${titles.join(" / ")}`).toBe(titles.length);
  });

  it("has a canonical URL equal to SITE_URL + its path, unless noindex (the noindex pages, without canonical)", () => {
    for (const page of pages) {
      if (isNoindex(page.metadata)) expect(page.metadata.canonical, `${page.path}: noindex, no canonical`).toBeNull();
      else expect(page.metadata.canonical, page.path).toBe(`${siteUrl}${page.path}`);
    }
    expect(
      pages
        .filter((page) => isNoindex(page.metadata))
        .map((page) => page.path)
        .sort(),
    ).toEqual([...NOINDEX_PAGES].sort());
  });

  it("has Open Graph and Twitter tags whose image is a file the server serves, on SITE_URL", async () => {
    for (const { path: sitePath, metadata } of pages) {
      const tags = metadata.properties;
      expect(tags["og:url"], sitePath).toBe(`${siteUrl}${sitePath}`);
      expect(tags["og:title"], sitePath).toBe(metadata.title?.replace(` | ${siteName}`, ""));
      expect(tags["og:description"], sitePath).toBe(metadata.description);
      expect([tags["og:locale"], tags["og:site_name"], tags["twitter:card"]], sitePath).toEqual([
        "fr_CH",
        siteName,
        "summary_large_image",
      ]);
      const image = tags["og:image"] ?? "";
      expect(image.startsWith(`${siteUrl}/og/`), `${sitePath}: og:image ${image}`).toBe(true);
      const served = await fetch(`${site.url}${image.slice(siteUrl.length)}`);
      expect([served.status, served.headers.get("content-type")], `${image} is served`).toEqual([200, "image/png"]);
      await served.arrayBuffer();
      expect(tags["twitter:image"], sitePath).toBe(image);
      expect(tags["og:image:alt"]?.length, `${sitePath}: og:image:alt`).toBeGreaterThan(20);
    }
  });

  it("gives an article og:type article, its date, and its own share image, made by the server", () => {
    for (const article of articles) {
      const { properties } = pages.find((page) => page.path === `/blog/${article.slug}`)!.metadata;
      expect(properties["og:type"]).toBe("article");
      expect(properties["article:published_time"]).toBe(article.date);
      expect(properties["og:image"]).toMatch(new RegExp(`^${siteUrl}/og/articles/${article.slug}-[0-9a-f]{12}\\.png$`));
    }
    expect(pages.find((page) => page.path === "/")!.metadata.properties["og:type"]).toBe("website");
  });
});

describe("sitemap.xml and robots.txt", () => {
  it("lists exactly the indexable pages, with each article's date and each sent letter's as lastmod", async () => {
    const db = site.database.db;
    await db
      .insert(newsletterSubscribers)
      .values({ email: "lecteur@example.ch", source: "home", consentVersion: "test", status: "confirmed" });
    const letterId = await createLetter(db, { subject: "Conseils de décembre", body: "Bonjour." });
    await createLetter(db, { subject: "Brouillon", body: "Pas encore parti." });
    await sendLetter(db, letterId, { siteUrl, now: new Date("2026-12-01T08:00:00Z") });
    const answer = await fetch(`${site.url}/sitemap.xml`);
    expect(answer.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const parsed = new XMLParser().parse(await answer.text());
    const entries = [parsed.urlset.url].flat() as { loc: string; lastmod?: string }[];
    const letterPath = `/newsletter/archives/${letterSlug("Conseils de décembre", new Date("2026-12-01T08:00:00Z"), letterId)}`;
    const blogPages = Math.max(1, Math.ceil(articles.length / ARTICLES_PER_PAGE));
    const expected = [
      "/",
      // The blog's index, its further pages and each article.
      "/blog",
      ...Array.from({ length: blogPages - 1 }, (_, index) => `/blog/page/${index + 2}`),
      ...articles.map((article) => `/blog/${article.slug}`),
      // The form, the courses (live seat counts), the newsletter, its archive and the letter sent.
      "/contact",
      // The callback request, the questions and the trainer's promise (issue 23).
      "/rappel",
      "/questions",
      "/confiance",
      "/cours",
      ...courses.map((course) => `/cours/${course.id}`),
      "/newsletter",
      "/newsletter/archives",
      letterPath,
    ];
    expect(entries.map((entry) => entry.loc).sort()).toEqual(
      expected.map((sitePath) => `${siteUrl}${sitePath}`).sort(),
    );
    for (const entry of entries) {
      const article = articles.find((candidate) => entry.loc === `${siteUrl}/blog/${candidate.slug}`);
      const expectedDate = entry.loc === `${siteUrl}${letterPath}` ? "2026-12-01" : article?.date;
      expect(entry.lastmod, entry.loc).toBe(expectedDate);
    }
  });

  it("robots.txt names the sitemap", async () => {
    const answer = await fetch(`${site.url}/robots.txt`);
    expect(answer.status).toBe(200);
    expect((await answer.text()).split("\n")).toContain(`Sitemap: ${siteUrl}/sitemap.xml`);
  });
});

describe("JSON-LD", () => {
  it("describes the business on / from app/content, without telephone or e-mail", () => {
    const home = pages.find((page) => page.path === "/")!;
    const business = nodeOfType(home.metadata, "ProfessionalService");
    expect(business.name).toBe(siteName);
    expect(business.url).toBe(`${siteUrl}/`);
    expect(business.image).toBe(`${siteUrl}/og/site.png`);
    expect(business.areaServed).toEqual(
      zones.map((zone) => expect.objectContaining({ "@type": "AdministrativeArea", name: zone.canton })),
    );
    expect(business.areaServed).toHaveLength(3);
    expect(business.openingHoursSpecification).toEqual(
      openingHours
        .filter((row) => row.hours !== "Fermé")
        .map((row) => ({
          "@type": "OpeningHoursSpecification",
          dayOfWeek: row.dayOfWeek,
          opens: row.opens,
          closes: row.closes,
        })),
    );
    expect(business.contactPoint).toEqual(
      expect.objectContaining({ "@type": "ContactPoint", url: `${siteUrl}/contact`, availableLanguage: "French" }),
    );
    const prices = services.map((service) => service.price.chf);
    expect(business.priceRange).toBe(`CHF ${Math.min(...prices)}–${Math.max(...prices)}`);
    const json = JSON.stringify(home.metadata.jsonLd);
    for (const secret of [identity.email, identity.phone, identity.phoneDisplay, identity.whatsapp])
      expect(json, "contact details stay out of the JSON-LD").not.toContain(secret);
    expect(json).not.toMatch(/"(telephone|email|faxNumber)"/);

    const list = nodeOfType(home.metadata, "ItemList");
    const items = (list.itemListElement as { item: Node }[]).map((element) => element.item);
    expect(items.map((item) => [item["@type"], item.name, item.description])).toEqual(
      courses.map((course) => ["Course", course.title, course.description]),
    );
    for (const item of items) expect(item.provider).toEqual({ "@id": business["@id"] });
  });

  it("describes /questions as a FAQPage: each question shown on the page, with its answer, 10 to 15 of them", () => {
    const { metadata, html } = pages.find((page) => page.path === "/questions")!;
    const page = nodeOfType(metadata, "FAQPage");
    expect(page.url).toBe(`${siteUrl}/questions`);
    const questions = page.mainEntity as Node[];
    expect(questions.length).toBeGreaterThanOrEqual(10);
    expect(questions.length).toBeLessThanOrEqual(15);
    // Google's required properties: Question.name, Question.acceptedAnswer, Answer.text; visible on the page.
    const text = (value: string) =>
      value
        .replace(/&#x27;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, "&");
    const visible = text(html.replace(/<!-- -->/g, ""));
    expect(questions.map((question) => question.name)).toEqual(faq.map((entry) => entry.question));
    for (const [index, question] of questions.entries()) {
      expect(question["@type"]).toBe("Question");
      const answer = question.acceptedAnswer as Node;
      expect(answer["@type"]).toBe("Answer");
      expect(answer.text).toBe(faq[index]!.answer.join(" "));
      expect(String(answer.text)).not.toMatch(/<|>/);
      expect(visible, String(question.name)).toContain(`>${String(question.name)}</h2>`);
      for (const paragraph of faq[index]!.answer) expect(visible).toContain(`>${paragraph}</p>`);
    }
  });

  it("describes each article as a BlogPosting with its breadcrumb trail", () => {
    expect(articles.length).toBeGreaterThan(0);
    for (const article of articles) {
      const { metadata } = pages.find((page) => page.path === `/blog/${article.slug}`)!;
      const posting = nodeOfType(metadata, "BlogPosting");
      expect(posting).toEqual(
        expect.objectContaining({
          headline: article.title,
          description: article.excerpt,
          datePublished: article.date,
          author: { "@type": "Person", name: article.author },
          image: metadata.properties["og:image"],
          mainEntityOfPage: { "@type": "WebPage", "@id": metadata.canonical },
          inLanguage: "fr-CH",
        }),
      );
      expect(posting.publisher).toEqual(expect.objectContaining({ name: siteName }));
      const crumbs = nodeOfType(metadata, "BreadcrumbList").itemListElement as Node[];
      expect(crumbs.map((crumb) => [crumb.position, crumb.item])).toEqual([
        [1, `${siteUrl}/`],
        [2, `${siteUrl}/blog`],
        [3, metadata.canonical],
      ]);
      expect(crumbs[2]!.name).toBe(article.title);
    }
  });
});
