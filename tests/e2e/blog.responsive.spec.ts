/** The blog index and an article at every width: no horizontal scroll, no console error, axe finds nothing. */
import { expect, test } from "@playwright/test";
import {
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  LAYOUT,
  waitForHydration,
  watchConsoleErrors,
} from "./helpers";

for (const path of ["/blog", "/blog/reconnaitre-email-frauduleux", "/blog/application-cff-guide-complet"]) {
  test(`${path}: no horizontal scroll, no console error, axe finds nothing`, LAYOUT, async ({ page }) => {
    const errors = watchConsoleErrors(page);
    await page.goto(path);
    await waitForHydration(page);
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page, { aaaContrast: true });
    expect(errors).toEqual([]);
  });
}

for (const path of ["/blog", "/blog/reconnaitre-email-frauduleux"]) {
  test(
    `${path}: the video's poster shows its whole play button and note, at this width and at 1024 px`,
    LAYOUT,
    async ({ page }) => {
      const widths = [page.viewportSize()!.width, ...(page.viewportSize()!.width > 1024 ? [1024] : [])];
      for (const width of widths) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        const poster = page.locator('a[href^="https://www.youtube.com/watch"]');
        const box = (await poster.boundingBox())!;
        // Every piece of the poster (the play button's disc, "Regarder la vidéo", the note) stands inside
        // it, with at least 16 px of the poster's colour around it.
        for (const [index, piece] of (await poster.locator(":scope > span:not(.sr-only)").all()).entries()) {
          const inner = (await piece.boundingBox())!;
          const name = `${width} px, piece ${index + 1} of the poster`;
          expect(inner.y - box.y, `${name}: room above it`).toBeGreaterThanOrEqual(16);
          expect(box.y + box.height - (inner.y + inner.height), `${name}: room below it`).toBeGreaterThanOrEqual(16);
        }
      }
    },
  );
}
