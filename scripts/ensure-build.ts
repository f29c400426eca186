/**
 * Builds the site when `build/` is missing or older than any source file
 * (app/, public/, configuration, lockfile), or was made with another
 * `SITE_URL` (the prerendered pages carry it). Used by `npm start`, so that a
 * fresh clone starts with `npm install && npm start`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { readBuildSiteUrl } from "../app/config/build-info.server";
import { builtSiteUrl } from "../tooling/site-url";

const sources = [
  "app",
  "public",
  "tooling",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
  "tsconfig.json",
];
const marker = path.join("build", "server", "index.js");

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const builtAt = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
const changedAt = Math.max(...sources.map(newestMtime));
const siteUrl = builtSiteUrl();
const sameSiteUrl = readBuildSiteUrl("build") === siteUrl;

if (builtAt > changedAt && sameSiteUrl) {
  console.log("Build is up to date.");
} else {
  console.log(
    !builtAt
      ? "No build yet: building…"
      : builtAt <= changedAt
        ? "Sources changed since the last build: building…"
        : `SITE_URL is now ${siteUrl}: building…`,
  );
  // Always a production build: Vitest sets NODE_ENV=test, which would otherwise ship React's development build.
  const result = spawnSync("npx", ["react-router", "build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
