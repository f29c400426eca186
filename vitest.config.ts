import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Unit and integration tests sit beside their module (`*.test.ts`); byte budgets of the build in tests/budgets.
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "server/**/*.test.ts",
      "scripts/**/*.test.ts",
      "tooling/**/*.test.ts",
      "tests/integration/**/*.test.ts",
      "tests/budgets/**/*.test.ts",
    ],
    globalSetup: ["tests/integration/global-setup.ts"],
    // Files run side by side, each in a process of its own: every file owns its ports, folders and
    // databases (a copy of the PGlite template, a database of the run's one PostgreSQL cluster).
    // Most of a file's time is spent waiting on servers, child processes and SMTP peers, so three
    // processes keep two cores busy.
    pool: "forks",
    maxWorkers: 3,
    environment: "node",
    // The blog build test runs a whole production build.
    testTimeout: 30_000,
    // Starting a test server (a copy of the prepared database, migrations) can take several
    // seconds on a busy two-core machine.
    hookTimeout: 60_000,
  },
});
