/** Shared checks for the browser tests. */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";

/**
 * The details of a test whose subject is layout (sideways scroll, sizes,
 * what covers what): the `*.responsive.spec.ts` tests run at 1280 and
 * 375 px, and these also at 320 px (playwright.config.ts).
 */
export const LAYOUT = { tag: "@layout" };

/** WCAG tags the site must pass with 0 violations (DESIGN.md, "Accessibility for seniors"). */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"];

/** Collects console errors and uncaught page errors from now on. */
export function watchConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** Waits until React has hydrated the page (the header's menu link became a button, or the desktop nav is used). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

/**
 * axe (`AXE_TAGS`) finds nothing on the page as it stands; with `aaaContrast`, in the same run, nor
 * does WCAG AAA's `color-contrast-enhanced` (7:1 for text, 4.5:1 for large text; issue 23, item 5).
 */
export async function expectNoAxeViolations(page: Page, { aaaContrast = false } = {}): Promise<void> {
  // axe in the page itself (`axe.run`) when every frame is the site's, which it then checks too; its
  // default, a run per frame gathered in a new blank page, costs a renderer process more each time and
  // is needed only to reach another site's frame (decision 041).
  const origin = new URL(page.url()).origin;
  const ownFramesOnly = page
    .frames()
    .every((frame) => ["about:blank", ""].includes(frame.url()) || new URL(frame.url()).origin === origin);
  const builder = new AxeBuilder({ page }).setLegacyMode(ownFramesOnly);
  // Only the violations are gathered (`resultTypes`): a CSS selector for every node that passes took
  // over a third of axe's time on a long page (`/`: 625 → 389 ms) and 420 KB sent back to the test, which reads
  // the violations alone.
  builder.options({
    resultTypes: ["violations"],
    ...(aaaContrast ? { rules: { "color-contrast-enhanced": { enabled: true } } } : {}),
  });
  const results = await builder.withTags(AXE_TAGS).analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(summary, "axe violations").toEqual([]);
}

export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, "page width must not exceed the viewport").toBeLessThanOrEqual(clientWidth);
}

/**
 * Whether the browser tests write their screenshots (`E2E_SCREENSHOTS=1 npx playwright test`): pictures
 * for a person to look at, which prove nothing by themselves, and the slowest step of many tests (a
 * full page at a phone's pixel ratio takes seconds), so off by default.
 */
export const SCREENSHOTS_WANTED = process.env.E2E_SCREENSHOTS === "1";

/**
 * Writes a screenshot of `target` (a page, or one element of it) to `path` when `SCREENSHOTS_WANTED`
 * or `always` (the pictures kept in git); an element must be visible either way, as the screenshot
 * would require.
 */
export async function photograph(
  target: Page | Locator,
  path: string,
  { fullPage = false, always = false }: { fullPage?: boolean; always?: boolean } = {},
): Promise<void> {
  const wanted = SCREENSHOTS_WANTED || always;
  if ("goto" in target) {
    if (wanted) await target.screenshot({ path, fullPage });
  } else if (wanted) await target.screenshot({ path });
  else await expect(target).toBeVisible();
}
