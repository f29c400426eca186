import { fileURLToPath } from "node:url";
import { defaultExternalConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";
import { makeScratchDir } from "./tests/support/scratch";
import CostSequencer from "./tests/support/sequencer";

// Throw-away files in memory, a folder per run (removed by tests/integration/global-setup.ts's teardown).
makeScratchDir();

/** Integration test files run each in a process of its own. */
const OWN_PROCESS = ["tests/integration/database-down.test.ts"];

// Unit and integration tests sit beside their module (`*.test.ts`); byte budgets of the build in tests/budgets;
// the README's map, the decision records and the docs' links in tests/docs.
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  // Packages resolved as Node 20 resolves them (`module-sync`: React Router's ES module, not its
  // CommonJS copy): the server's `getLoadContext` (app/context.server.ts) must make the
  // `RouterContextProvider` of the copy that @react-router/express and the build load.
  // JSX compiled for React's production build, which `env` below loads (its runtime has no `jsxDEV`).
  oxc: { jsx: { development: false } },
  ssr: {
    resolve: {
      conditions: ["module-sync", ...defaultServerConditions],
      externalConditions: ["module-sync", ...defaultExternalConditions],
    },
  },
  test: {
    projects: [
      {
        // Modules imported once per process for these files (`isolate: false`): none replaces a module
        // (no vi.mock) or leaves a global changed, and each opens its own databases and servers. Unit and
        // integration files are one project: Vitest keeps a worker only for a next file of the same
        // project, so two projects ordered by cost side by side would start a worker for nearly every
        // file (30 workers instead of 3, 29 s more CPU: each imports the app again).
        extends: true,
        test: {
          name: "tests",
          include: [
            "app/**/*.test.{ts,tsx}",
            "server/**/*.test.ts",
            "scripts/**/*.test.ts",
            "tooling/**/*.test.ts",
            "tests/budgets/**/*.test.ts",
            "tests/docs/**/*.test.ts",
            "tests/support/**/*.test.ts",
            // Servers, processes and outages.
            "tests/integration/**/*.test.ts",
          ],
          // The files whose subject is state a module holds for its process (the database's outage) run
          // each in a fresh process.
          exclude: OWN_PROCESS,
          isolate: false,
        },
      },
      { extends: true, test: { name: "integration-alone", include: OWN_PROCESS } },
    ],
    globalSetup: ["tests/integration/global-setup.ts"],
    // With TEST_CPU_LOG=<file>, each test file's CPU and wall seconds (scripts/test-cpu.ts prints the table).
    setupFiles: ["tests/support/file-cpu.ts"],
    // The longest files first, by tests/file-costs.json (a fresh clone has no Vitest cache to order by).
    sequence: { sequencer: CostSequencer },
    // Files run side by side: every file owns its ports, folders and databases (a copy of the PGlite
    // template, a database of the run's one PostgreSQL cluster), so no two files meet.
    // Three processes for two cores: a third keeps the cores busy while a file waits on a child process,
    // a socket or a timer (242 s instead of 261 s, the same CPU; decision 040).
    // The in-process servers (tests/support/sites.ts's startTestServer) render as production does:
    // React, React Router and Express read NODE_ENV when first imported, and Vitest's default, `test`,
    // loads React's development build, several times slower to render (server/index.ts sets it the same
    // way for the real server).
    env: { NODE_ENV: "production" },
    pool: "forks",
    // The embedded database's WebAssembly compiled by Liftoff alone, as the server does (SERVER_NODE_FLAGS):
    // TurboFan's compiles of it never pay back in a test worker (6 integration files: 56.8 → 50.1 cpu-s).
    execArgv: ["--liftoff-only"],
    maxWorkers: 3,
    environment: "node",
    // Generous: a test that does a lot at once (40 sign-ins, 50 registrations) on a machine busy with
    // other work; what a test proves is in its assertions, not in this limit.
    testTimeout: 120_000,
    // Starting a test server (a copy of the prepared database, migrations) takes seconds, and a
    // minute or more on a two-core machine that also runs the browser tests (`npm test` runs both
    // halves at once) and other work.
    hookTimeout: 180_000,
  },
});
