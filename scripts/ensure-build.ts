/**
 * Builds the site when `build/` is missing or older than any source file
 * (`buildState`, tooling/build-freshness.ts). Used by `npm start`, so that a
 * fresh clone starts with `npm install && npm start`, and by the tests and
 * benchmarks before they start the compiled server.
 */
import { spawnSync } from "node:child_process";
import { buildState } from "../tooling/build-freshness";

const state = buildState();
if (state === "current") {
  console.log("Build is up to date.");
} else {
  console.log(state === "missing" ? "No build yet: building…" : "Sources changed since the last build: building…");
  // Always a production build: Vitest sets NODE_ENV=test, which would otherwise ship React's development build.
  const result = spawnSync("npx", ["react-router", "build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
