/**
 * Compiles the Express server (`server/index.ts` and the app modules it
 * imports) to plain JavaScript in `build/start/`, so that production runs
 * it with `node build/start/index.js`: no TypeScript compiler in the
 * process (issue 20). Called by the build's `buildEnd` hook
 * (react-router.config.ts).
 *
 * esbuild (https://esbuild.github.io/api/): bundled, ESM for Node 20,
 * packages included but `SERVER_EXTERNAL_PACKAGES` (decision 072), the `~/`
 * alias from tsconfig.json, source maps beside the files (their mappings
 * only) to translate a stack trace's line when needed. `splitting` keeps each dynamic `import()` a module of its own, so
 * that `server/index.ts` sets `NODE_ENV` before the libraries load, as it
 * does under tsx.
 * @throws esbuild's error (with the file and line) when the code does not compile.
 */
import path from "node:path";
import { build } from "esbuild";

/** The compiled server, in the build directory. */
export const SERVER_ENTRY = path.join("start", "index.js");

/**
 * The operator's commands compiled beside the server, by name (`npm run owner:add` runs
 * `build/start/owner.js` when the build is current: scripts/command.ts): their sources in scripts/.
 */
export const COMMANDS = { owner: "scripts/owner.ts", backup: "scripts/backup.ts" } as const;

/**
 * Node's arguments for command `name` as scripts/command.ts runs it (`node --liftoff-only
 * build/start/owner.js`: the embedded database's WebAssembly compiled by Liftoff alone, as the server
 * does), the build in `buildDirectory`.
 */
export const commandArguments = (name: keyof typeof COMMANDS, buildDirectory = "build") => [
  "--liftoff-only",
  path.join(buildDirectory, "start", `${name}.js`),
];

/**
 * Node's flags for the production server (also in package.json's `start`
 * and docs/deploy.md's unit; decision 018): a JavaScript heap kept small (young generation 4 MB per semi-space, old
 * generation 192 MB, about four times what the server holds); and the
 * embedded PostgreSQL's WebAssembly compiled once, by V8's baseline
 * compiler (`--liftoff-only`: no second, optimised copy of the hot
 * functions): 40 MB less, and 2,000 small transactions ran in 1.0–1.3 s
 * instead of 2.2–2.3 s here. Without PGlite (`DATABASE_URL`) the last flag
 * changes nothing. With PGlite's fixed 128 MB of WebAssembly memory the
 * process starts at about 200 MB (docs/performance.md, docs/deploy.md).
 * No `--enable-source-maps` (decision 072): Node would hold the parsed map
 * of the whole bundle, 50 MB; a stack trace names the function and its
 * line in `build/start/`, which is plain, unminified JavaScript, and the
 * `.map` files beside it translate a line when needed.
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=4", "--max-old-space-size=192", "--liftoff-only"];

/**
 * The packages Node loads from `node_modules` as they are, in the server (`build/start/`) and in React
 * Router's server build (vite.config.ts's `ssr.external`); every other package is bundled into them
 * (decision 072: a site started on 2.1 s of CPU instead of 2.85, with 1,425 files fewer to find,
 * read and compile). Left out:
 * - `react`, `react-dom`, `react-router` and its two adapters: one copy shared by the server and its
 *   build, as React Router checks its request context with `instanceof`;
 * - `@electric-sql/pglite` (its WebAssembly and data files), `sharp` (a native addon), `pdfkit` and
 *   `swissqrbill` (pdfkit reads its fonts and colour profile beside its own code), `pino` and
 *   `pino-http` (pino finds its transports' worker files so): each finds files relative to itself;
 * - `satori` and `opentype.js` (the share images), `vite` (development only) and `pg-native` (an
 *   optional addon `pg` asks for): loaded only when needed, if at all.
 */
export const SERVER_EXTERNAL_PACKAGES = [
  "react",
  "react-dom",
  "react-router",
  "@react-router/node",
  "@react-router/express",
  "@electric-sql/pglite",
  "sharp",
  "pdfkit",
  "swissqrbill",
  "pino",
  "pino-http",
  "satori",
  "opentype.js",
  "vite",
  "pg-native",
] as const;

export async function buildServer(buildDirectory: string): Promise<void> {
  await build({
    // The child process that makes pictures (app/pictures/child.server.ts finds it beside the server), and
    // the operator's commands (`npm run owner:add`, `npm run backup`…), which share the server's chunks:
    // started from TypeScript through tsx, each took about 4 s of CPU before doing anything.
    entryPoints: { index: "server/index.ts", "picture-child": "app/pictures/picture-child.ts", ...COMMANDS },
    outdir: path.join(buildDirectory, "start"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Node's own modules are left to Node by `platform: "node"`; each package named, with its subpaths.
    external: SERVER_EXTERNAL_PACKAGES.flatMap((name) => [name, `${name}/*`]),
    // The CommonJS packages bundled into these ES modules call `require` (for Node's own modules).
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
    sourcemap: true,
    // Translating a line needs the mappings, not the sources (which would double the maps' size).
    sourcesContent: false,
    logLevel: "warning",
  });
}
