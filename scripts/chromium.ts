/**
 * How every tool of this repository launches Debian's Chromium (Playwright
 * tests, screenshots): the system binary, never a downloaded one, with the
 * flags that keep it off the network (no background updates, sync or QUIC).
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};
