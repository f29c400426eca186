/**
 * Compiles the Express server (`server/index.ts` and the app modules it
 * imports) to plain JavaScript in `build/start/`, so that production runs
 * it with `node build/start/index.js`: no TypeScript compiler in the
 * process (issue 20). Called by the build's `buildEnd` hook
 * (react-router.config.ts).
 *
 * esbuild (https://esbuild.github.io/api/): bundled, ESM for Node 20,
 * packages left as imports (node_modules are loaded as they are) but
 * lucide-react's icons, the `~/` alias from tsconfig.json, source maps for stack
 * traces. `splitting` keeps each dynamic `import()` a module of its own, so
 * that `server/index.ts` sets `NODE_ENV` before the libraries load, as it
 * does under tsx.
 * @throws esbuild's error (with the file and line) when the code does not compile.
 */
import path from "node:path";
import { build, type Plugin } from "esbuild";

/** The compiled server, in the build directory. */
export const SERVER_ENTRY = path.join("start", "index.js");

/**
 * Node's flags for the production server (also in package.json's `start`
 * and docs/deploy.md's unit; decision 018): source maps for stack traces; a
 * JavaScript heap kept small (young generation 4 MB per semi-space, old
 * generation 192 MB, about four times what the server holds); and the
 * embedded PostgreSQL's WebAssembly compiled once, by V8's baseline
 * compiler (`--liftoff-only`: no second, optimised copy of the hot
 * functions): 40 MB less, and 2,000 small transactions ran in 1.0–1.3 s
 * instead of 2.2–2.3 s here. Without PGlite (`DATABASE_URL`) the last flag
 * changes nothing. With PGlite's fixed 128 MB of WebAssembly memory the
 * process starts at about 215 MB (docs/performance.md, docs/deploy.md).
 */
export const SERVER_NODE_FLAGS = [
  "--enable-source-maps",
  "--max-semi-space-size=4",
  "--max-old-space-size=192",
  "--liftoff-only",
];

/**
 * An esbuild plugin that leaves every package import (`express`, `node:fs`, `@scope/name/sub`) to
 * Node, as `packages: "external"` does, except the packages named in `bundled`; relative paths and
 * the `~/` alias are bundled.
 */
function packagesExternalBut(bundled: readonly string[]): Plugin {
  return {
    name: "packages-external-but",
    setup(builder) {
      builder.onResolve({ filter: /^[^./~]/ }, ({ path: specifier }) =>
        bundled.some((name) => specifier === name || specifier.startsWith(`${name}/`))
          ? undefined
          : { path: specifier, external: true },
      );
    },
  };
}

export async function buildServer(buildDirectory: string): Promise<void> {
  await build({
    // The child process that makes pictures (app/pictures/child.server.ts finds it beside the server).
    entryPoints: { index: "server/index.ts", "picture-child": "app/pictures/picture-child.ts" },
    outdir: path.join(buildDirectory, "start"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Packages are loaded from node_modules as they are, but lucide-react, bundled as the client and the
    // server build bundle it (vite.config.ts): its entry point imports every icon (about 1,700 modules),
    // which would cost each start about a quarter of a second; bundled, only the icons used are kept.
    plugins: [packagesExternalBut(["lucide-react"])],
    sourcemap: true,
    logLevel: "warning",
  });
}
