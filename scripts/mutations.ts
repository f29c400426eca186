/**
 * `npm run mutations`: breaks one guard, lock or invalidation at a time,
 * runs the test files that must catch it, puts the code back, and prints
 * one line per mutation: CAUGHT (a test failed) or MISSED (all passed).
 * The list the test loop's changes must keep failing (issue 29, item 4);
 * each run rebuilds the site, as the integration tests serve the build.
 * `npm run mutations -- guard` runs the mutations whose name contains "guard".
 * Exits 1 when a mutation is missed that the list says is caught.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";

interface Mutation {
  name: string;
  file: string;
  /** Replaced everywhere in `file`. */
  find: string;
  replace: string;
  tests: string[];
  /** False where no test catches it yet (said in the closing note of 2026-11-27). */
  caught: boolean;
}

const MUTATIONS: Mutation[] = [
  {
    name: "guard: the desk accepts a cross-origin change",
    file: "app/desk/guard.server.ts",
    find: "!isSameOrigin(request)",
    replace: "false",
    tests: ["tests/integration/desk-guard.test.ts"],
    caught: true,
  },
  {
    name: "guard: the desk accepts a session without its second factor",
    file: "app/desk/guard.server.ts",
    find: "!session || !session.user.twoFactorEnabled",
    replace: "!session",
    tests: ["tests/integration/desk-guard.test.ts", "tests/integration/desk-auth.test.ts"],
    caught: true,
  },
  {
    name: "lock: the seat locks without FOR UPDATE",
    file: "app/courses/seats.server.ts",
    find: '.for("update")',
    replace: "",
    tests: [
      "app/courses/booking.server.test.ts",
      "tests/integration/course-series.test.ts",
      "tests/integration/courses-shared.test.ts",
    ],
    caught: true,
  },
  {
    name: "invalidation: the render cache ignores announcements",
    file: "server/render-cache.ts",
    find: "  invalidate(tag: string): void {\n",
    replace: "  invalidate(tag: string): void {\n    return;\n",
    tests: ["tests/integration/render-cache.test.ts", "tests/integration/render-cache-pglite.test.ts"],
    caught: true,
  },
];

const only = process.argv.slice(2);
let unexpected = 0;
for (const mutation of MUTATIONS) {
  if (only.length > 0 && !only.some((word) => mutation.name.includes(word))) continue;
  const source = fs.readFileSync(mutation.file, "utf8");
  if (!source.includes(mutation.find)) {
    console.log(`GONE   ${mutation.name}: "${mutation.find}" is no longer in ${mutation.file}; update this list`);
    unexpected += 1;
    continue;
  }
  fs.writeFileSync(mutation.file, source.replaceAll(mutation.find, mutation.replace));
  const began = performance.now();
  try {
    const run = spawnSync("npx", ["vitest", "run", ...mutation.tests], { encoding: "utf8", env: process.env });
    const caught = run.status !== 0;
    const summary = `${run.stdout}${run.stderr}`
      .replace(/\x1b\[[0-9;]*m/g, "") // eslint-disable-line no-control-regex
      .split("\n")
      .filter((line) => /^\s*(Test Files|Tests)\s/.test(line))
      .map((line) => line.trim())
      .join(" | ");
    const seconds = ((performance.now() - began) / 1000).toFixed(0);
    console.log(`${caught ? "CAUGHT" : "MISSED"} ${mutation.name} (${seconds} s): ${summary}`);
    if (caught !== mutation.caught) unexpected += 1;
  } finally {
    fs.writeFileSync(mutation.file, source);
  }
}
process.exit(unexpected > 0 ? 1 : 0);
