/**
 * How every tool of this repository launches Debian's Chromium, never a
 * downloaded one, with the flags that keep it off the network (no background
 * updates, sync or QUIC):
 * - `chromiumLaunchOptions`: the browser tests and screenshots, in Debian's
 *   `chromium-headless-shell` (Chromium's own headless browser, the one
 *   Playwright runs for headless tests: a third less CPU than the desktop
 *   browser in headless mode; decision 039);
 * - `VISITOR_CHROMIUM`: the desktop browser a visitor runs (`chromium`), for
 *   `npm run bench:web`'s Lighthouse figures.
 * `CHROMIUM_PATH` replaces the first (either package's binary works).
 */
/** Flags that keep Chromium off the network: no background updates, sync or QUIC. */
const args = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
  // No renderer started ahead for the next page: each test's page opens in a new browser context,
  // which never uses the one started for the last (decision 039). The pages' scripts run without
  // V8's optimising compiler: a test's page lives seconds, too short for its compiles to pay back
  // (3 responsive specs, 39 tests, twice each: renderers 27.3 and 27.6 cpu-s → 25.8 and 25.1).
  // One renderer process for all the pages of a browser (a worker's), where each new context started
  // its own (300 in a run): 4 spec files, 52 tests, Chromium 64.9 and 64.6 cpu-s → 59.6, 56.3, 56.5.
  // The tests' pages all come from one trusted site: process isolation protects nothing here.
  args: [
    ...args,
    "--disable-features=SpareRendererForSitePerProcess",
    "--js-flags=--no-opt",
    "--renderer-process-limit=1",
  ],
};

/** The desktop Chromium (Debian's `chromium`) and its flags. */
export const VISITOR_CHROMIUM = { executablePath: "/usr/bin/chromium", args };
