/**
 * `npm run bench:render -- [articles] [--postgres] [--rounds=N]`: what a miss
 * of the render cache costs, page by page, in CPU time of the process
 * (issue 34, « every public page's first render ≤ 50 ms »; decision 063).
 *
 * The site runs in this process (`startTestServer`: a fresh PGlite folder,
 * or with `--postgres` a throwaway PostgreSQL database), its articles the
 * repository's own (app/content/blog) copied `articles` times (1000 by
 * default; one every three days back from today), imported at start as
 * `BLOG_CONTENT_DIR`. Each build named by `BUILDS` (`name=dir,…`;
 * `build=build` by default) gets the cache's renderer (`createPageRenderer`),
 * and the script prints, for `/`, `/cours`, a course's page, `/blog`, the
 * newest article, `/contact`, the sitemap and a 404:
 *
 * 1. the first render of each page by the first build: the process's first
 *    pass through that code (V8's interpreter, nothing compiled yet), what a
 *    process started without the warm-up pays once;
 * 2. whether the builds render the same pages (the asset names and the
 *    manifest's version aside);
 * 3. a miss on a warm process: the cache emptied, then the page rendered,
 *    every build in turn, `rounds` times (30 by default), median and mean of
 *    the CPU each render used (process.cpuUsage: the database's work on
 *    PGlite and the compressions in libuv's threads included; PostgreSQL's
 *    own processes not).
 *
 * Runs itself again under production's flags (`SERVER_NODE_FLAGS`,
 * `NODE_ENV=production`). The machine is shared: read CPU, not wall time,
 * and compare builds within one run. Asserts nothing.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { systemClock } from "../app/context.server";
import { createPageRenderer, type PageRenderer } from "../server/render-cache";
import { RenderCache } from "../server/render-cache-store";
import { identityOf } from "../server/render-cache-bodies";
import { SERVER_NODE_FLAGS } from "../tooling/build-server";

if (!process.env.BENCH_RENDER_FLAGS_SET) {
  const { status } = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, "--import", "tsx", ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", BENCH_RENDER_FLAGS_SET: "1" },
  });
  process.exit(status ?? 1);
}

const { freshDataDir, silentLogger, startPostgres, startTestServer, testSettings } =
  await import("../tests/support/harness");

const COUNT = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 1000);
const ROUNDS = Number(process.argv.find((arg) => arg.startsWith("--rounds="))?.slice("--rounds=".length) ?? 30);
const POSTGRES = process.argv.includes("--postgres");

/** `COUNT` article files made from the repository's own, the last one dated today: their slugs, newest first. */
function writeArchive(directory: string): string[] {
  const sources = fs.readdirSync(path.join("app", "content", "blog")).filter((name) => name.endsWith(".md"));
  const slugs: string[] = [];
  for (let n = COUNT; n >= 1; n--) {
    const name = sources[n % sources.length]!;
    const source = fs.readFileSync(path.join("app", "content", "blog", name), "utf8");
    const date = new Date(Date.now() - (COUNT - n) * 3 * 86_400_000).toISOString().slice(0, 10);
    const slug = `${name.slice(0, -".md".length)}-${n}`;
    fs.writeFileSync(path.join(directory, `${slug}.md`), source.replace(/^date: .*$/m, `date: ${date}`));
    slugs.push(slug);
  }
  return slugs;
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
/** A page's HTML without what a build names differently (its assets' hashes, its manifest's version). */
const comparable = (body: Buffer) =>
  body
    .toString("utf8")
    .replace(/-[\w-]{8}\.(js|css)/g, ".$1")
    .replace(/(\\?"version\\?": ?\\?")[0-9a-f]+/g, "$1");

const archive = fs.mkdtempSync(path.join(os.tmpdir(), "bench-render-"));
const postgres = POSTGRES ? await startPostgres() : undefined;
const dataDir = postgres ? undefined : freshDataDir();
const env: Record<string, string> = postgres ? { DATABASE_URL: postgres.url } : { DATA_DIR: dataDir! };
try {
  const slugs = writeArchive(archive);
  process.env.BLOG_CONTENT_DIR = archive;
  // The outbox waits: its rounds would count in the renders' CPU.
  const server = await startTestServer({ ...env, OUTBOX_POLL_SECONDS: "3600" });
  try {
    const settings = testSettings({ ...env, OUTBOX_POLL_SECONDS: "3600" });
    const cache = new RenderCache({ maxBytes: 64 * 1024 * 1024 });
    cache.setListening(true);
    const renderers = new Map<string, PageRenderer>();
    for (const [name, dir] of (process.env.BUILDS ?? "build=build").split(",").map((pair) => pair.split("="))) {
      const build = (await import(pathToFileURL(path.resolve(dir!, "server", "index.js")).href)) as ServerBuild;
      const loadContext = () => ({ settings, db: server.database.db, logger: silentLogger, clock: systemClock });
      renderers.set(
        name!,
        createPageRenderer({
          build,
          mode: "production",
          cache,
          siteUrl: settings.SITE_URL,
          loadContext,
          logger: silentLogger,
        }),
      );
    }
    const pages = [
      "/",
      "/cours",
      "/cours/applications-mobiles",
      "/blog",
      `/blog/${slugs[0]}`,
      "/contact",
      "/sitemap.xml",
      "/page-qui-n-existe-pas",
    ];
    const miss = async (renderer: PageRenderer, page: string) => {
      cache.clear();
      const started = cpuMs();
      const answer = await renderer.answer(renderer.pageOf(page)!);
      return { ms: cpuMs() - started, answer };
    };
    console.log(
      `## ${COUNT} articles on ${postgres ? "PostgreSQL" : "PGlite"}, builds ${[...renderers.keys()].join(", ")} (load ${load()})`,
    );
    const [firstName, first] = [...renderers][0]!;
    console.log(`- first render after start (${firstName}), CPU:`);
    for (const page of pages) {
      const { ms, answer } = await miss(first, page);
      console.log(`  - ${page}: ${ms.toFixed(1)} ms (${answer.status}, ${Math.round(answer.length / 1024)} KB)`);
    }
    for (const page of pages) {
      const bodies: string[] = [];
      for (const renderer of renderers.values())
        bodies.push(comparable(identityOf((await miss(renderer, page)).answer)));
      if (bodies.some((body) => body !== bodies[0])) console.log(`- ${page}: the builds render DIFFERENT pages`);
    }
    const spent = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS + 5; round++) {
      for (const page of pages) {
        for (const [name, renderer] of renderers) {
          const { ms } = await miss(renderer, page);
          // The first five rounds let the JIT compile what the pages run often.
          if (round >= 5) spent.set(`${page} (${name})`, [...(spent.get(`${page} (${name})`) ?? []), ms]);
        }
      }
    }
    console.log(`- a miss on a warm process, CPU, median / mean of ${ROUNDS} (load ${load()}):`);
    for (const [label, values] of spent)
      console.log(`  - ${label}: ${median(values).toFixed(1)} / ${mean(values).toFixed(1)} ms`);
  } finally {
    await server.close();
  }
} finally {
  postgres?.destroy();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(archive, { recursive: true, force: true });
}
