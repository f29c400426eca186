/**
 * Compiles the Express server (`server/index.ts` and the app modules it
 * imports) to plain JavaScript in `build/start/`, so that production runs
 * it with `node build/start/index.js`: no TypeScript compiler in the
 * process (issue 20). Called by the build's `buildEnd` hook
 * (react-router.config.ts).
 *
 * esbuild (https://esbuild.github.io/api/): bundled, ESM for Node 20,
 * packages left as imports (`packages: "external"`: node_modules are loaded
 * as they are), the `~/` alias from tsconfig.json, source maps for stack
 * traces. `splitting` keeps each dynamic `import()` a module of its own, so
 * that `server/index.ts` sets `NODE_ENV` before the libraries load, as it
 * does under tsx.
 * @throws esbuild's error (with the file and line) when the code does not compile.
 */
import path from "node:path";
import { build } from "esbuild";

/** The compiled server, in the build directory. */
export const SERVER_ENTRY = path.join("start", "index.js");

/**
 * Node's flags for the production server (also in package.json's `start`
 * and docs/deploy.md's unit): source maps for stack traces, and a heap kept
 * small (young generation 4 MB per semi-space, old generation 192 MB), so
 * that the process, with the embedded PostgreSQL's fixed 128 MB of
 * WebAssembly memory beside it, stays within a 512 MB server
 * (docs/performance.md, "Memory of the server").
 */
export const SERVER_NODE_FLAGS = ["--enable-source-maps", "--max-semi-space-size=4", "--max-old-space-size=192"];

export async function buildServer(buildDirectory: string): Promise<void> {
  await build({
    entryPoints: { index: "server/index.ts" },
    outdir: path.join(buildDirectory, "start"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
}
