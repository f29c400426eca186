/**
 * What a build records about itself: the `SITE_URL` its prerendered pages,
 * sitemap and feed were made with, in `{build}/server/site-url.txt` (outside
 * `build/client`: never served). Written by the build's `buildEnd` hook
 * (react-router.config.ts), read by `npm start` (rebuilds when it differs)
 * and by the server (refuses to start when it differs).
 */
import fs from "node:fs";
import path from "node:path";

export const SITE_URL_MARKER = "site-url.txt";

/** The SITE_URL the build in `buildDirectory` was made with, or null when it has no record. */
export function readBuildSiteUrl(buildDirectory: string): string | null {
  try {
    return fs.readFileSync(path.join(buildDirectory, "server", SITE_URL_MARKER), "utf8").trim();
  } catch {
    return null;
  }
}

/** Records `siteUrl` as the build's. */
export function writeBuildSiteUrl(buildDirectory: string, siteUrl: string): void {
  fs.writeFileSync(path.join(buildDirectory, "server", SITE_URL_MARKER), siteUrl);
}
