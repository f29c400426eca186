/**
 * Writes full-page screenshots of the given paths (default `/` and the 404
 * page) at 1280, 375 and 320 px (or the widths of `--widths`) to
 * `screenshots/` (git-ignored), with Debian's Chromium. Builds if needed and
 * starts the site as the tests do (`spawnSite`, tests/support/harness.ts).
 *
 *   npm run screenshots [-- [--widths 1024,414] /path /other]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { chromium } from "@playwright/test";
import { spawnSite } from "../tests/support/harness";
import { chromiumLaunchOptions } from "./chromium";

const args = process.argv.slice(2);
const widthsAt = args.indexOf("--widths");
const widths = widthsAt === -1 ? [1280, 375, 320] : args.splice(widthsAt, 2)[1]!.split(",").map(Number);
if (widths.some((width) => !Number.isInteger(width) || width < 200)) {
  console.error("--widths takes pixel widths separated by commas, e.g. --widths 1024,414");
  process.exit(1);
}
const paths = args.length ? args : ["/", "/une-page-qui-n-existe-pas"];

if (spawnSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: "inherit" }).status !== 0) process.exit(1);
const site = await spawnSite({ LOG_LEVEL: "warn" });

try {
  await site.ready();
  fs.mkdirSync("screenshots", { recursive: true });
  const browser = await chromium.launch(chromiumLaunchOptions);
  for (const width of widths) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    for (const path of paths) {
      await page.goto(`${site.url}${path}`, { waitUntil: "networkidle" });
      // Scroll through the page so that lazy pictures load before the full-page shot.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          window.scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
        window.scrollTo(0, 0);
      });
      await page.waitForFunction(() => [...document.images].every((image) => image.complete));
      const name = path === "/" ? "home" : path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "");
      const file = `screenshots/${name}-${width}.png`;
      await page.screenshot({ path: file, fullPage: true });
      console.log(`wrote ${file}`);
    }
    await page.close();
  }
  await browser.close();
} finally {
  await site.stop();
}
