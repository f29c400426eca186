/**
 * Whether `build/` of the repository at `root` matches its sources: `"missing"` (no compiled server),
 * `"stale"` (a file of app/, server/, public/, tooling/, the operator's
 * commands, the configuration or the lockfile changed after it was built) or
 * `"current"`. Compares modification times (ms) of the compiled server with
 * the newest source file; reads the file tree, throws only on an unreadable
 * folder.
 */
import fs from "node:fs";
import path from "node:path";
import { COMMANDS, SERVER_ENTRY } from "./build-server";

const SOURCES = [
  "app",
  "server",
  ...Object.values(COMMANDS),
  "public",
  "tooling",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
  "tsconfig.json",
];

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

export function buildState(root = "."): "missing" | "stale" | "current" {
  const marker = path.join(root, "build", SERVER_ENTRY);
  if (!fs.existsSync(marker)) return "missing";
  const changedAt = Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))));
  return fs.statSync(marker).mtimeMs > changedAt ? "current" : "stale";
}
