/**
 * Prints how long `react-router build` takes with the site's articles and
 * with 60 generated articles (tests/fixtures), in a temporary folder, then
 * how long the server of the 60-article build takes to warm its render cache
 * (every page of the sitemap rendered once at start, server/render-cache.ts):
 * the build renders no page since the render cache replaced prerendering.
 *
 *   npx tsx scripts/bench-blog-build.ts
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { writeFixtureArticles } from "../tests/fixtures/blog-articles";
import { spawnBenchSite, waitFor } from "../tests/support/harness";

// Inside the project: the build's server bundle must resolve the project's node_modules.
const testBuilds = path.resolve(".test-builds");
fs.mkdirSync(testBuilds, { recursive: true });

function timeBuild(env: Record<string, string>): number {
  const started = performance.now();
  execFileSync("npx", ["react-router", "build"], { env: { ...process.env, ...env }, stdio: "ignore" });
  return (performance.now() - started) / 1000;
}

/** The server's own line once its warm-up ends: `render cache: 78 pages ready in 2882 ms`. */
const WARMED = /render cache: (\d+) pages ready in (\d+) ms/;

const work = fs.mkdtempSync(path.join(testBuilds, "blog-bench-"));
try {
  const site = timeBuild({ BUILD_DIR: path.join(work, "build-site") });
  const content = path.join(work, "content");
  writeFixtureArticles(content, 60);
  const sixty = timeBuild({ BLOG_CONTENT_DIR: content, BUILD_DIR: path.join(work, "build-60") });
  console.log(`build with the site's articles: ${site.toFixed(1)} s`);
  console.log(`build with 60 fixture articles: ${sixty.toFixed(1)} s (no page rendered at build time)`);

  const server = await spawnBenchSite({
    BUILD_DIR: path.relative(process.cwd(), path.join(work, "build-60")),
    BLOG_CONTENT_DIR: content,
    RENDER_CACHE_WARM_UP: "1",
  });
  try {
    await server.ready();
    await waitFor(() => server.log.some((line) => WARMED.test(line)), 120_000, "the render cache's warm-up");
    const [, pages, ms] = WARMED.exec(server.log.find((line) => WARMED.test(line))!)!;
    console.log(`its server's render cache, warmed at start: ${pages} pages in ${(Number(ms) / 1000).toFixed(1)} s`);
  } finally {
    await server.stop();
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
