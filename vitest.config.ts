import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Unit and integration tests sit beside their module (`*.test.ts`); byte budgets of the build in tests/budgets;
// the README's map, the decision records and the docs' links in tests/docs.
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
      "tests/docs/**/*.test.ts",
    ],
    globalSetup: ["tests/integration/global-setup.ts"],
    // One file at a time: builds and database servers are heavy for two cores.
    fileParallelism: false,
    environment: "node",
    // The blog build test runs a whole production build.
    testTimeout: 30_000,
    // Starting a test server (a copy of the prepared database, migrations) can take several
    // seconds on a busy two-core machine.
    hookTimeout: 60_000,
  },
});
