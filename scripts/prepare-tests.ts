/**
 * What both halves of `npm test` share, made once before they start side by
 * side (package.json's `test`): the production build (`ensure-build.ts`) and
 * the migrated PGlite folder that test sites copy (`ensurePgliteTemplate`).
 * Vitest's global setup makes both too when it runs alone; made here, neither
 * half builds while the other serves the build, and the browser tests' own
 * sites copy the template instead of migrating a database each.
 */
import "./ensure-build";
import { ensurePgliteTemplate } from "../tests/support/harness";

await ensurePgliteTemplate();
