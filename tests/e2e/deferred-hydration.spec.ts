/**
 * Deferred hydration (docs/decisions/010-valid-deferred-hydration.md): a page's JavaScript starts loading
 * only after the page has painted its first content, then loads in
 * parallel and hydrates, on pages of the render cache (their scripts
 * allowed by hash) and on a page rendered for one request (by nonce: a
 * mail's link page) alike.
 */
import { expect, test } from "@playwright/test";
import { watchConsoleErrors, waitForHydration } from "./helpers";

for (const path of ["/", "/blog", "/contact", `/newsletter/confirmer/${"a".repeat(43)}`]) {
  test(`${path}: the JavaScript loads after the first contentful paint, then the page hydrates`, async ({ page }) => {
    const errors = watchConsoleErrors(page);
    // Records each <link rel="modulepreload"> put into the document, by the parser or by a script.
    await page.addInitScript(() => {
      const added: string[] = [];
      Object.assign(window, { addedModulePreloads: added });
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            if (node instanceof HTMLLinkElement && node.rel === "modulepreload")
              added.push(new URL(node.href).pathname);
      }).observe(document, { childList: true, subtree: true });
    });
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

    // Nothing stays deferred: the starter ran the bootstrap and preloaded every module of the list, which were fetched.
    expect(await page.locator("script[type='text/x-deferred-module']").count()).toBe(0);
    const listed = JSON.parse((await page.locator("#deferred-module-preloads").textContent()) ?? "[]") as string[];
    expect(listed, "the list of module preloads").toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/assets\/entry\.client-/)]),
    );
    const preloaded = await page.evaluate(
      () => (window as unknown as { addedModulePreloads: string[] }).addedModulePreloads,
    );
    expect(preloaded, "the starter added a module preload for each listed URL").toEqual(listed);
    expect(timing.scripts.map((script) => script.url)).toEqual(expect.arrayContaining(listed));
    expect(errors).toEqual([]);
  });
}
