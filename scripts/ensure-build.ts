/**
 * Builds the site when `build/` is missing or older than any source file
 * (app/, server/, public/, the operator's commands, configuration, lockfile).
 * Used by `npm start`, so that a fresh clone starts with `npm install && npm
 * start`, by the operator's commands (`npm run owner:add`, `npm run backup`…,
 * compiled into the build), and by the tests and benchmarks before they
 * start the compiled server.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { SERVER_ENTRY } from "../tooling/build-server";

const sources = [
  "app",
  "server",
  // The operator's commands compiled into the build (tooling/build-server.ts's COMMANDS).
  "scripts/owner.ts",
  "scripts/backup.ts",
  "public",
  "tooling",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
  "tsconfig.json",
];
const marker = path.join("build", SERVER_ENTRY);

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

if (builtAt > changedAt) {
  console.log("Build is up to date.");
} else {
  console.log(!builtAt ? "No build yet: building…" : "Sources changed since the last build: building…");
  // Always a production build: Vitest sets NODE_ENV=test, which would otherwise ship React's development build.
  const result = spawnSync("npx", ["react-router", "build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
