import { fileURLToPath } from "node:url";
import { defaultExternalConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// Unit and integration tests sit beside their module (`*.test.ts`); byte budgets of the build in tests/budgets;
// the README's map, the decision records and the docs' links in tests/docs.
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  // Packages resolved as Node 20 resolves them (`module-sync`: React Router's ES module, not its
  // CommonJS copy): the server's `getLoadContext` (app/context.server.ts) must make the
  // `RouterContextProvider` of the copy that @react-router/express and the build load.
  ssr: {
    resolve: {
      conditions: ["module-sync", ...defaultServerConditions],
      externalConditions: ["module-sync", ...defaultExternalConditions],
    },
  },
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
