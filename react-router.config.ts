import path from "node:path";
import type { Config } from "@react-router/dev/config";
import { buildServer } from "./tooling/build-server";
import { precompressAssets } from "./tooling/precompress";

/**
 * React Router framework configuration.
 * SSR on, nothing prerendered: every public page is rendered by the server
 * and kept in its render cache until what it shows changes
 * (server/render-cache.ts, docs/decisions/018-one-render-cache.md); the
 * cache is warmed when the server starts. `BUILD_DIR` lets tests build
 * elsewhere. After the build, the hashed assets are compressed once
 * (brotli and gzip) and the Express server is compiled to
 * `build/start/index.js` (tooling/build-server.ts).
 */
export default {
  appDirectory: "app",
  buildDirectory: process.env.BUILD_DIR ?? "build",
  ssr: true,
  // Middleware and typed request context (app/context.server.ts, decision 030).
  future: { v8_middleware: true },
  async buildEnd({ reactRouterConfig }) {
    const clientDirectory = path.join(reactRouterConfig.buildDirectory, "client");
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const assets = precompressAssets(path.join(clientDirectory, "assets"));
    console.log(`Precompressed ${assets.files} assets: ${kb(assets.bytes)}, ${kb(assets.brotliBytes)} with brotli.`);
    await buildServer(reactRouterConfig.buildDirectory);
    console.log(`Server compiled to ${path.join(reactRouterConfig.buildDirectory, "start", "index.js")}.`);
  },
} satisfies Config;
