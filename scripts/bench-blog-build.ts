/**
 * Prints how long `react-router build` takes with the site's articles and
 * with 60 generated articles (tests/fixtures), in a temporary folder.
 *
 *   npx tsx scripts/bench-blog-build.ts
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { writeFixtureArticles } from "../tests/fixtures/blog-articles";

// Inside the project: the build's server bundle must resolve the project's node_modules.
const testBuilds = path.resolve(".test-builds");
fs.mkdirSync(testBuilds, { recursive: true });

function timeBuild(env: Record<string, string>): number {
  const started = performance.now();
  execFileSync("npx", ["react-router", "build"], { env: { ...process.env, ...env }, stdio: "ignore" });
  return (performance.now() - started) / 1000;
}

const work = fs.mkdtempSync(path.join(testBuilds, "blog-bench-"));
try {
  const site = timeBuild({ BUILD_DIR: path.join(work, "build-site") });
  writeFixtureArticles(path.join(work, "content"), 60);
  const sixty = timeBuild({ BLOG_CONTENT_DIR: path.join(work, "content"), BUILD_DIR: path.join(work, "build-60") });
  const pages = fs
    .readdirSync(path.join(work, "build-60", "client", "blog"), { recursive: true })
    .filter((file) => String(file).endsWith("index.html")).length;
  console.log(`build with the site's articles: ${site.toFixed(1)} s`);
  console.log(`build with 60 fixture articles: ${sixty.toFixed(1)} s (${pages} prerendered blog pages)`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
