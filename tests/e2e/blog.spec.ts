/** The blog as served: index, articles, unknown slug, feed, and the video that waits for a click. */
import { expect, test, type Page } from "@playwright/test";
import { loadArticles } from "../../app/blog/articles.server";

/** An article as its file says (its author is the owner's to change). */
const article = (slug: string) => loadArticles().find((candidate) => candidate.slug === slug)!;

const SLUGS = ["reconnaitre-email-frauduleux", "chatgpt-pour-emails", "application-cff-guide-complet"];

test("/blog, the three articles and an unknown slug answer 200, 200, 200, 200 and 404", async ({ request }) => {
  expect((await request.get("/blog")).status()).toBe(200);
  for (const slug of SLUGS) expect((await request.get(`/blog/${slug}`)).status(), slug).toBe(200);
  const unknown = await request.get("/blog/article-qui-n-existe-pas");
  expect(unknown.status()).toBe(404);
  const html = await unknown.text();
  expect(html).toContain("Article non trouvé");
  expect(html).toContain("L’article que vous recherchez n’existe pas.");
  expect(html).toContain("Retour au blog");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the index shows its sections, the featured guide and every card", async ({ page }) => {
    await page.goto("/blog");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Blog & Ressources");
    for (const text of [
      "Guides détaillés",
      "Vidéos explicatives",
      "Conseils sécurité",
      "À la une",
      "Tous les articles",
      "Restez informé(e)",
    ])
      await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
    await expect(page.locator("main ul li article")).toHaveCount(3);
    await expect(
      page.getByText("Vous pouvez vous désabonner à tout moment. Vos données restent privées."),
    ).toBeVisible();
  });

  test("an article shows everything the spec lists", async ({ page }) => {
    await page.goto("/blog/reconnaitre-email-frauduleux");
    await expect(page.getByRole("link", { name: "Retour au blog" })).toHaveAttribute("href", "/blog");
    // "e-mail" holds together: a word joiner (U+2060) after its hyphen.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Comment reconnaître un e-\u2060mail frauduleux");
    await expect(page.getByText("Sécurité", { exact: true }).first()).toBeVisible();
    await expect(page.getByText("15 novembre 2024").first()).toBeVisible();
    await expect(page.getByText("5 min de lecture").first()).toBeVisible();
    await expect(page.getByText(article("reconnaitre-email-frauduleux").author).first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "Articles similaires" })).toBeVisible();
    await expect(page.locator("#articles-similaires ~ ul > li")).toHaveCount(2);
    // The video poster is a plain link to the video.
    await expect(page.getByRole("link", { name: /Regarder la vidéo/ })).toHaveAttribute(
      "href",
      /^https:\/\/www\.youtube\.com\/watch\?v=/,
    );
  });
});

/** Records every request the page makes to a host other than the site's, and stubs YouTube's player. */
async function watchOtherHosts(page: Page, baseURL: string) {
  const others: string[] = [];
  const ours = new URL(baseURL).host;
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["http:", "https:"].includes(url.protocol)) return;
    if (url.host !== ours) others.push(request.url());
  });
  await page.route(/youtube-nocookie\.com/, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>player</title><p>Lecteur</p>" }),
  );
  return others;
}

test("the video loads nothing from another host until it is clicked, then loads the player", async ({
  page,
  baseURL,
}) => {
  const others = await watchOtherHosts(page, baseURL!);
  await page.goto("/blog/reconnaitre-email-frauduleux");
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await page.waitForLoadState("networkidle");
  expect(others, "requests to other hosts before the click").toEqual([]);
  await expect(page.locator("iframe")).toHaveCount(0);

  await page.getByRole("link", { name: /Regarder la vidéo/ }).click();
  const player = page.locator('iframe[src^="https://www.youtube-nocookie.com/embed/"]');
  await expect(player).toHaveCount(1);
  await expect(page).toHaveURL(/\/blog\/reconnaitre-email-frauduleux$/); // stayed on the article
  await expect.poll(() => others.some((url) => url.startsWith("https://www.youtube-nocookie.com/embed/"))).toBe(true);
  expect(others.every((url) => url.includes("youtube-nocookie.com"))).toBe(true);
});

test("the home page's blog cards lead to the articles, the featured one first", async ({ page }) => {
  await page.goto("/#blog");
  const links = page.locator("#blog").getByRole("link", { name: /^Lire l’article/ });
  await expect(links).toHaveCount(3);
  expect(await links.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("href")))).toEqual(
    SLUGS.map((slug) => `/blog/${slug}`),
  );
  await links.nth(1).click();
  await expect(page).toHaveURL(/\/blog\/chatgpt-pour-emails$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("ChatGPT");
});

test("every page links the feed, which is RSS served as such", async ({ page, request }) => {
  await page.goto("/");
  await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute(
    "href",
    "/blog/rss.xml",
  );
  const feed = await request.get("/blog/rss.xml");
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toContain("application/rss+xml");
  expect(await feed.text()).toContain('<rss version="2.0"');
});
