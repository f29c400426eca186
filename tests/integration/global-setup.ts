/**
 * Before the integration tests: builds the site once (they serve the
 * production build), and prepares the PGlite folder that test servers copy.
 */
import { execFileSync } from "node:child_process";
import { ensurePgliteTemplate } from "../support/harness";

export default async function setup() {
  execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: "inherit" });
  await ensurePgliteTemplate();
}
