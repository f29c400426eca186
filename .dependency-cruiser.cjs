/**
 * The direction of imports inside app/ (decision 030, DESIGN.md section 10),
 * checked by `npm run lint`:
 * 1. a mechanism never imports a feature (features plug into mechanisms
 *    through app/features.server.ts, the composition root);
 * 2. no folder imports a folder that imports it back (no folder cycle);
 * 3. app/db/ imports nothing of app/ outside app/db/;
 * 4. app/ never imports server/.
 * Tests are left out: a test composes whatever it proves.
 */
/* global module */
const MECHANISMS = "^app/(db|mail|desk|config|settings|components|utils|guards|tokens|content|paper)/";
const FEATURES =
  "^app/(contact|callback|courses|newsletter|invoices|quotes|blog|pictures|trust|seo|home|legal|privacy|letters)/";

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "mechanism-imports-feature",
      comment:
        "A mechanism (db, mail, the desk's shell, config, settings, components, utils, guards, tokens, content) imports no feature: the feature gives its contribution in app/<feature>/plug.server.ts, listed by app/features.server.ts.",
      severity: "error",
      from: { path: MECHANISMS },
      to: { path: FEATURES },
    },
    {
      name: "two-way-folders",
      comment:
        "No folder of app/ imports a folder that imports it back, directly or through others: move what both need down into a mechanism, or hand it over as a contribution.",
      severity: "error",
      scope: "folder",
      from: { path: "^app/[^/]+" },
      to: { circular: true },
    },
    {
      name: "db-imports-only-db",
      comment: "app/db/ is the bottom: its schema and client import nothing of app/ outside app/db/.",
      severity: "error",
      from: { path: "^app/db/" },
      to: { path: "^app/", pathNot: "^app/db/" },
    },
    {
      name: "app-imports-no-server",
      comment: "app/ never imports server/ (the Express host imports the app, not the other way).",
      severity: "error",
      from: { path: "^app/" },
      to: { path: "^server/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|build|\\.react-router)/|\\.test\\.tsx?$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
