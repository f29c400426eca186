/** Builds the site once before the integration tests (they serve the production build). */
import { execFileSync } from "node:child_process";

export default function setup() {
  execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: "inherit" });
}
