/**
 * Browser tests: Debian's Chromium headless shell (`/usr/bin/chromium-headless-shell`,
 * installed by `scripts/ensure-chromium.sh`; decision 039), against the production build served by our
 * own server on port 4173: every spec at 1280 px, the `*.responsive.spec.ts`
 * ones at 375 px too, and their layout tests (tagged `@layout`) at 320 px.
 */
import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./scripts/chromium";
import { makeScratchDir } from "./tests/support/scratch";
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from "./tooling/build-server";

// The own sites' data folders, photos and the like in memory, a folder per run (decision 040).
makeScratchDir();

const PORT = Number(process.env.E2E_PORT ?? 4173);

const launchOptions = chromiumLaunchOptions;

/**
 * A small touch screen of the given CSS size; runs the `*.responsive.spec.ts` files only, and of
 * them the tests matching `grep` when given.
 */
const phone = (name: string, width: number, height: number, grep?: RegExp) => ({
  name,
  use: {
    ...devices["Desktop Chrome"],
    viewport: { width, height },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    launchOptions,
  },
  testMatch: /\.responsive\.spec\.ts$/,
  ...(grep ? { grep } : {}),
});

export default defineConfig({
  testDir: "tests/e2e",
  globalTeardown: "./tests/e2e/global-teardown.ts",
  fullyParallel: true,
  // Three for two cores: a third keeps them busy while a worker waits on a mail, a site or the network
  // (302 s instead of about 320 s; decision 040).
  workers: 3,
  // Limits for a machine busy with other work (decision 033): what a test proves is not how fast it runs.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions,
    // A trace only when a failed test runs again (CI retries once; `--trace on` otherwise): recording one
    // for every test (DOM snapshots and a screencast at each step) took a third of the run's CPU (decision 039).
    trace: "on-first-retry",
    // Jumps instead of smooth scrolling and no transitions, as for a visitor who asks for reduced motion:
    // a test waits for no animation, and Chromium draws none (navigation.responsive.spec.ts checks the
    // smooth scrolling itself, with `no-preference`).
    reducedMotion: "reduce",
  },
  projects: [
    // HTTP-level and desktop-only tests run once; `*.responsive.spec.ts` also on a phone (the menu, the
    // dialog and the layout change below 1024 px); at 320 px, the narrowest phone served, only the tests
    // whose subject is layout (`LAYOUT` in tests/e2e/helpers.ts).
    { name: "desktop", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions } },
    phone("mobile-375", 375, 740),
    phone("mobile-320", 320, 640, /@layout/),
  ],
  webServer: {
    command: `tsx scripts/ensure-build.ts && node ${SERVER_NODE_FLAGS.join(" ")} build/${SERVER_ENTRY}`,
    url: `http://localhost:${PORT}/`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(PORT),
      ENABLE_ERROR_TEST_ROUTE: "1",
      LOG_LEVEL: "warn",
      // A folder per port: PGlite locks its folder, and two runs (E2E_PORT) may share a checkout.
      DATA_DIR: PORT === 4173 ? "./data/e2e" : `./data/e2e-${PORT}`,
      DATA_DIR_CREATE: "1",
      // Browser tests send many requests from one address.
      CONTACT_RATE_LIMIT_MAX: "100000",
      // ... book many seats from it and mail one address often (decision 028's limits, tested in
      // tests/integration/booking-limits.test.ts).
      BOOKING_SEATS_PER_ADDRESS_PER_DAY: "1000",
      MAILS_PER_RECIPIENT_PER_DAY: "1000",
      // ... and the owner gets each booking's notice, not a digest (decision 036).
      OWNER_BOOKING_NOTICES_PER_HOUR: "1000",
    },
  },
});
