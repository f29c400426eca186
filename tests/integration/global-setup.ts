/**
 * Before the integration tests: builds the site once (they serve the
 * production build), prepares the PGlite folder that test servers copy and
 * the owner every test process copies (`ensureOwnerPattern`), and
 * starts the run's one PostgreSQL cluster with a migrated template database
 * that each file copies (`startPostgres`); removes the cluster and the run's
 * folder of throw-away files (tests/support/scratch.ts) after.
 */
import { execFileSync } from "node:child_process";
import {
  SHARED_POSTGRES_ENV,
  ensureOwnerPattern,
  ensurePgliteTemplate,
  postgresBinaries,
  preparePostgresTemplate,
  startPostgresCluster,
  withDatabase,
} from "../support/harness";
import { removeScratchDir } from "../support/scratch";

/** Set once per run: Vitest calls a global setup once for each project (two, vitest.config.ts). */
const DONE = Symbol.for("formation-assistance-informatique.test-global-setup");

/**
 * Prepares the run once, whichever project asks first, and returns the teardown; a second project
 * gets a teardown that does nothing (the first one's removes the cluster and the folder, after every
 * project's tests). Before, each project prepared its own: two clusters and two templates a run.
 */
export default async function setup(): Promise<() => void> {
  const shared = globalThis as { [DONE]?: Promise<() => void> };
  if (shared[DONE]) {
    await shared[DONE];
    return () => undefined;
  }
  shared[DONE] = prepare();
  return shared[DONE];
}

async function prepare(): Promise<() => void> {
  execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: "inherit" });
  await ensurePgliteTemplate();
  await ensureOwnerPattern();
  if (!postgresBinaries()) return removeScratchDir;
  const cluster = await startPostgresCluster();
  const adminUrl = withDatabase(cluster.url, "postgres");
  await preparePostgresTemplate(adminUrl);
  // The test files run in child processes started after this, which inherit the variable.
  process.env[SHARED_POSTGRES_ENV] = adminUrl;
  return () => {
    delete process.env[SHARED_POSTGRES_ENV];
    cluster.destroy();
    removeScratchDir();
  };
}
