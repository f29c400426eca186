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
      "tests/integration/**/*.test.ts",
      "tests/budgets/**/*.test.ts",
    ],
    globalSetup: ["tests/integration/global-setup.ts"],
    // One file at a time: builds and database servers are heavy for two cores.
    fileParallelism: false,
    environment: "node",
    // The blog build test runs a whole production build.
    testTimeout: 30_000,
    // A hook that starts the site creates a PGlite database: 3-5 s alone, several times that on a busy 2-core machine.
    hookTimeout: 60_000,
  },
});
