/**
 * Deferred hydration (decision 009): a page's JavaScript starts loading
 * only after the page has painted its first content, then loads in
 * parallel and hydrates, on prerendered pages and on pages rendered on
 * request alike.
 */
import { expect, test } from "@playwright/test";
import { watchConsoleErrors, waitForHydration } from "./helpers";

for (const path of ["/", "/blog", "/contact"]) {
  test(`${path}: the JavaScript loads after the first contentful paint, then the page hydrates`, async ({ page }) => {
    const errors = watchConsoleErrors(page);
    const response = await page.goto(path);
    const served = (await response!.text()).replace(/<script[^>]*>[\s\S]*?<\/script>/g, "");
    expect(served, "no module preload in the HTML as served").not.toMatch(/\srel="modulepreload"/);
    await waitForHydration(page);

    const timing = await page.evaluate(() => ({
      firstContentfulPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      scripts: performance
        .getEntriesByType("resource")
        .filter((entry) => new URL(entry.name).pathname.startsWith("/assets/") && entry.name.endsWith(".js"))
        .map((entry) => ({ url: new URL(entry.name).pathname, start: entry.startTime })),
    }));
    expect(timing.firstContentfulPaint, "the browser reported a first contentful paint").toBeGreaterThan(0);
    expect(timing.scripts.map((script) => script.url)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/assets\/entry\.client-/)]),
    );
    for (const script of timing.scripts)
      expect(script.start, `${script.url} started after the first paint`).toBeGreaterThanOrEqual(
        timing.firstContentfulPaint,
      );

    // Nothing stays deferred: the starter gave every preload its rel back and ran the bootstrap.
    const deferred = await page.locator("link[data-deferred-rel], script[type='text/x-deferred-module']").count();
    expect(deferred).toBe(0);
    expect(errors).toEqual([]);
  });
}
