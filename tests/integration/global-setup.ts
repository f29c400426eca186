/**
 * Before the integration tests: builds the site once (they serve the
 * production build), prepares the PGlite folder that test servers copy, and
 * starts the run's one PostgreSQL cluster with a migrated template database
 * that each file copies (`startPostgres`); removes the cluster and the run's
 * folder of throw-away files (tests/support/scratch.ts) after.
 */
import { execFileSync } from "node:child_process";
import {
  SHARED_POSTGRES_ENV,
  ensurePgliteTemplate,
  postgresBinaries,
  preparePostgresTemplate,
  startPostgresCluster,
  withDatabase,
} from "../support/harness";
import { removeScratchDir } from "../support/scratch";

export default async function setup() {
  execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: "inherit" });
  await ensurePgliteTemplate();
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
