import path from "node:path";
import type { Config } from "@react-router/dev/config";
import { writeBuildSiteUrl } from "./app/config/build-info.server";
import { checkPrerenderedPages, htmlFiles } from "./tooling/page-metadata";
import { precompressAssets, precompressFiles } from "./tooling/precompress";
import { publicPaths } from "./tooling/prerender-paths";
import { builtSiteUrl } from "./tooling/site-url";

/**
 * React Router framework configuration.
 * SSR stays on (route actions, the 404 page, the server-rendered contact
 * details view); every public page is also prerendered to static HTML at
 * build time and served as a file by Express. `BUILD_DIR` and
 * `BLOG_CONTENT_DIR` let tests build elsewhere with other articles.
 * After the build, every prerendered page must have its title, description
 * and (unless noindex) canonical URL, or the build fails
 * (tooling/page-metadata.ts).
 */
export default {
  appDirectory: "app",
  buildDirectory: process.env.BUILD_DIR ?? "build",
  ssr: true,
  async prerender() {
    return publicPaths();
  },
  buildEnd({ reactRouterConfig }) {
    const clientDirectory = path.join(reactRouterConfig.buildDirectory, "client");
    const pages = checkPrerenderedPages(clientDirectory);
    console.log(`Metadata checked on ${pages} prerendered pages.`);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const assets = precompressAssets(path.join(clientDirectory, "assets"));
    console.log(`Precompressed ${assets.files} assets: ${kb(assets.bytes)}, ${kb(assets.brotliBytes)} with brotli.`);
    const html = precompressFiles(htmlFiles(clientDirectory));
    console.log(`Precompressed ${html.files} pages: ${kb(html.bytes)}, ${kb(html.brotliBytes)} with brotli.`);
    // scripts/ensure-build.ts rebuilds, and the server refuses to start, when SITE_URL differs.
    writeBuildSiteUrl(reactRouterConfig.buildDirectory, builtSiteUrl());
  },
} satisfies Config;
