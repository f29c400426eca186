/**
 * `npm run bench:scale -- [articles]`: the site with a long archive (issue
 * 34, item 3). Fills a database with `articles` articles (1000 by default;
 * about 8 KB of Markdown each, one every few days back from today, every
 * tenth featured), then starts the compiled server (`spawnSite`, as
 * production runs it; `BUILD_DIR` names another build) twice:
 *
 * 1. with the warm-up (`RENDER_CACHE_WARM_UP=1`): the time from start to
 *    the first answer (a static file), to the warm-up's end (its log line;
 *    5 minutes at most, `BENCH_WARM_UP_LIMIT_SECONDS`), and the longest wait of a static file
 *    (`/favicon.svg`, asked every 20 ms) meanwhile; pages kept;
 * 2. without it: the first render of each public page (the home page, the
 *    blog's first and last pages, the newest and oldest articles, the feed,
 *    the sitemap, `/cours`, a 404), then 20 connections at `/blog.data` for
 *    10 s (non-2xx, the process alive), 20 connections at random articles
 *    for 10 s (req/s, p99, non-2xx, the server's CPU a request); then (up
 *    to 2,000 articles) every article asked for once, 4 at a time, and the
 *    random walk again: what the render cache holds once it has seen the
 *    archive; the feed's size.
 *
 * Peak RSS of the Node process is sampled every 50 ms throughout (PGlite
 * runs inside it; PostgreSQL's processes are not counted). The database is
 * a fresh PGlite folder, or with `--postgres` a throwaway PostgreSQL cluster
 * (`startPostgres`). A server that dies (heap exhaustion) is reported as
 * such, with its last log line, and the steps after it are skipped.
 *
 *   npm run bench:scale                    1,000 articles on PGlite
 *   npm run bench:scale -- 5000 --postgres 5,000 on PostgreSQL
 *
 * Prints figures only (Markdown lines on stdout); asserts nothing. Builds
 * first when `build/` is stale, unless `--no-build` or `BUILD_DIR` is set.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import autocannon from "autocannon";
import { openDatabase } from "../app/db/client.server";
import { articles } from "../app/db/schema";
import {
  archiveArticleBody,
  freshDataDir,
  residentMegabytes,
  spawnBenchSite,
  startPostgres,
  waitFor,
  type SpawnedSite,
} from "../tests/support/harness";

const COUNT = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 1000);
const POSTGRES = process.argv.includes("--postgres");
const CONNECTIONS = 20;
const SECONDS = 10;
/** Beyond this many articles, the walk is not repeated after asking for each one (a cache of 32 MB does not hold them). */
const PRIMED_AT_MOST = 2000;
/** How long the warm-up run waits for the warm-up's end (an old build took 11 minutes at 1,000 articles). */
const WARM_UP_LIMIT_MS = Number(process.env.BENCH_WARM_UP_LIMIT_SECONDS ?? 300) * 1000;

if (!process.argv.includes("--no-build") && !process.env.BUILD_DIR)
  execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: "inherit" });

const CATEGORIES = ["Sécurité", "Applications", "Intelligence artificielle", "Smartphone"];

const slugOf = (n: number) => `article-archive-${n}`;

/** Article n's date: article COUNT is today's, each earlier one three days before. */
function dateOf(n: number): string {
  return new Date(Date.now() - (COUNT - n) * 3 * 86_400_000).toISOString().slice(0, 10);
}

async function fill(env: { DATA_DIR?: string; DATABASE_URL?: string }): Promise<void> {
  const database = await openDatabase({ dataDir: env.DATA_DIR ?? "unused", databaseUrl: env.DATABASE_URL });
  try {
    for (let start = 1; start <= COUNT; start += 250) {
      const batch = Array.from({ length: Math.min(250, COUNT - start + 1) }, (_, index) => {
        const n = start + index;
        return {
          slug: slugOf(n),
          title: `Article ${n} : un guide pas à pas`,
          excerpt: `Ce que l’article ${n} explique, en deux phrases simples pour savoir s’il vous sera utile.`,
          category: CATEGORIES[n % CATEGORIES.length]!,
          author: "Marie Dupont",
          body: archiveArticleBody(n),
          icon: "ShieldAlert",
          color: "primary",
          featured: n % 10 === 0,
          readTime: 6,
          date: dateOf(n),
          publishedAt: `${dateOf(n)}T00:00:00Z`,
        };
      });
      await database.db.insert(articles).values(batch);
    }
  } finally {
    await database.close();
  }
}

/** Peak RSS of `site`'s process, sampled every 50 ms until stopped. */
function sampleRss(site: SpawnedSite) {
  let peak = 0;
  const timer = setInterval(() => {
    const rss = residentMegabytes(site.child.pid!);
    if (Number.isFinite(rss)) peak = Math.max(peak, rss);
  }, 50);
  return {
    get peak() {
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}

/** CPU milliseconds (user + system) the process `pid` has used so far (/proc: ticks of 10 ms). */
function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** The load average now (the machine is shared: wall figures are read against it). */
const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

const alive = (site: SpawnedSite) => site.child.exitCode === null && site.child.signalCode === null;
const lastLines = (site: SpawnedSite) =>
  site.log
    .filter((line) => /FATAL|heap|error/i.test(line))
    .slice(-2)
    .map((line) => line.slice(0, 160))
    .join(" / ");

/** The time and status of one GET (identity: the bytes as they are). */
async function timed(url: string): Promise<{ ms: number; status: number; bytes: number }> {
  const started = performance.now();
  const answer = await fetch(url, { headers: { "accept-encoding": "identity" } });
  const bytes = (await answer.arrayBuffer()).byteLength;
  return { ms: performance.now() - started, status: answer.status, bytes };
}

async function warmUpRun(env: Record<string, string>): Promise<void> {
  const started = performance.now();
  const site = await spawnBenchSite({ ...env, RENDER_CACHE_WARM_UP: "1", LOG_LEVEL: "info" });
  const rss = sampleRss(site);
  try {
    let first = NaN;
    await waitFor(
      async () => {
        if (!alive(site)) throw new Error(`the server exited before answering: ${lastLines(site)}`);
        const ok = await fetch(`${site.url}/favicon.svg`).then(
          (answer) => answer.ok,
          () => false,
        );
        if (ok) first = performance.now() - started;
        return ok;
      },
      600_000,
      "the first answer",
    );
    console.log(`- start to first answer: ${Math.round(first)} ms`);
    let longest = 0;
    let ready: string | undefined;
    const giveUp = performance.now() + WARM_UP_LIMIT_MS;
    while (alive(site) && !(ready = site.log.find((line) => line.includes("pages ready")))) {
      if (performance.now() > giveUp) break;
      const { ms } = await timed(`${site.url}/favicon.svg`).catch(() => ({ ms: NaN }));
      longest = Math.max(longest, ms);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (!ready && alive(site)) {
      console.log(
        `- warm-up not done after ${WARM_UP_LIMIT_MS / 1000} s (${site.log.length} log lines; server CPU ${Math.round(cpuMs(site.child.pid!))} ms, load ${load()}): left running no longer`,
      );
    } else if (!ready) {
      console.log(`- the server DIED during the warm-up (${lastLines(site)})`);
    } else {
      const kept = /(\d+) pages ready/.exec(ready)?.[1];
      console.log(
        `- start to warm-up done: ${Math.round(performance.now() - started)} ms (${kept} pages kept; server CPU ${Math.round(cpuMs(site.child.pid!))} ms, load ${load()})`,
      );
      const stopped = site.log.find((line) => line.includes("near its bound"));
      if (stopped) console.log(`- ${JSON.parse(stopped).msg}`);
    }
    console.log(`- longest wait of a static file during the warm-up: ${Math.round(longest)} ms`);
  } finally {
    rss.stop();
    console.log(`- peak RSS (warm-up run): ${Math.round(rss.peak)} MB`);
    await site.stop();
  }
}

/** Waits until `site` answers a static file within 50 ms again (the renders a run left queued are done), 60 s at most. */
async function settle(site: SpawnedSite): Promise<void> {
  const until = performance.now() + 60_000;
  while (alive(site) && performance.now() < until) {
    const { ms } = await timed(`${site.url}/favicon.svg`).catch(() => ({ ms: Infinity }));
    if (ms < 50) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** 20 connections for 10 s at articles drawn at random: req/s, p99, errors, the server's CPU a request. */
async function randomWalk(site: SpawnedSite, label: string): Promise<void> {
  if (!alive(site)) return;
  const cpu = cpuMs(site.child.pid!);
  const random = await autocannon({
    url: site.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { "accept-encoding": "br, gzip" },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          path: `/blog/${slugOf(1 + Math.floor(Math.random() * COUNT))}`,
        }),
      },
    ],
  });
  console.log(
    `- ${CONNECTIONS} connections at ${label}: ${Math.round(random.requests.average)} req/s, p99 ${random.latency.p99} ms, ${random.non2xx} non-2xx, ${random.errors} errors, ${random.timeouts} timeouts; server CPU ${((cpuMs(site.child.pid!) - cpu) / Math.max(1, random.requests.total)).toFixed(1)} ms a request (load ${load()}); RSS after ${Math.round(residentMegabytes(site.child.pid!))} MB`,
  );
}

async function loadRun(env: Record<string, string>): Promise<void> {
  const site = await spawnBenchSite({ ...env, LOG_LEVEL: "warn" });
  const rss = sampleRss(site);
  try {
    await site.ready(600_000);
    const pages = [
      "/",
      "/cours",
      "/blog",
      `/blog/page/${Math.ceil(COUNT / 12)}`,
      `/blog/${slugOf(COUNT)}`,
      `/blog/${slugOf(1)}`,
      "/blog/rss.xml",
      "/sitemap.xml",
      "/contact",
      "/page-qui-n-existe-pas",
    ];
    console.log(`- first render of each public page (load ${load()}; server CPU in ticks of 10 ms):`);
    for (const page of pages) {
      if (!alive(site)) break;
      const cpu = cpuMs(site.child.pid!);
      const { ms, status, bytes } = await timed(`${site.url}${page}`).catch(() => ({ ms: NaN, status: 0, bytes: 0 }));
      console.log(
        `  - ${page}: ${Math.round(ms)} ms, CPU ${cpuMs(site.child.pid!) - cpu} ms (${status}, ${Math.round(bytes / 1024)} KB)`,
      );
    }
    if (alive(site)) {
      // A miss's cost, less noisy than one wall time: 100 articles not kept yet, one after another.
      const cpu = cpuMs(site.child.pid!);
      const started = performance.now();
      for (let n = 2; n <= 101; n++) await timed(`${site.url}/blog/${slugOf(n)}`);
      console.log(
        `- 100 articles not kept, one after another: ${Math.round((performance.now() - started) / 100)} ms each, server CPU ${Math.round((cpuMs(site.child.pid!) - cpu) / 100)} ms each`,
      );
    }
    if (alive(site)) {
      const data = await autocannon({
        url: `${site.url}/blog.data`,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { "accept-encoding": "br, gzip" },
      });
      console.log(
        `- ${CONNECTIONS} connections at /blog.data: ${Math.round(data.requests.average)} req/s, p99 ${data.latency.p99} ms, ${data.non2xx} non-2xx, ${data.errors} errors; RSS after ${Math.round(residentMegabytes(site.child.pid!))} MB; ${alive(site) ? "alive" : `DIED (${lastLines(site)})`}`,
      );
    }
    await settle(site);
    await randomWalk(site, "random articles");
    if (alive(site) && COUNT <= PRIMED_AT_MOST) {
      // Every article asked for once (the cache should hold them all), then the same walk again.
      const cpu = cpuMs(site.child.pid!);
      const started = performance.now();
      let next = 1;
      const asker = async () => {
        while (next <= COUNT && alive(site)) await timed(`${site.url}/blog/${slugOf(next++)}`).catch(() => undefined);
      };
      await Promise.all(Array.from({ length: 4 }, asker));
      console.log(
        `- every article asked for once (4 at a time): ${Math.round((performance.now() - started) / 1000)} s, server CPU ${Math.round((cpuMs(site.child.pid!) - cpu) / COUNT)} ms each; RSS after ${Math.round(residentMegabytes(site.child.pid!))} MB`,
      );
      await settle(site);
      await randomWalk(site, "random articles, each asked for once before");
    }
    if (alive(site)) {
      const feed = await timed(`${site.url}/blog/rss.xml`);
      console.log(`- feed: ${Math.round(feed.bytes / 1024)} KB`);
    } else {
      console.log(`- the server DIED (${lastLines(site)})`);
    }
  } finally {
    rss.stop();
    console.log(`- peak RSS (load run): ${Math.round(rss.peak)} MB`);
    await site.stop();
  }
}

const postgres = POSTGRES ? await startPostgres() : undefined;
const dataDir = postgres ? undefined : freshDataDir();
const env: Record<string, string> = postgres ? { DATABASE_URL: postgres.url } : { DATA_DIR: dataDir! };
try {
  const filling = performance.now();
  await fill(env);
  console.log(
    `## ${COUNT} articles on ${postgres ? "PostgreSQL" : "PGlite"} (build: ${process.env.BUILD_DIR ?? "build"}; filled in ${Math.round((performance.now() - filling) / 1000)} s)`,
  );
  await warmUpRun(env);
  await loadRun(env);
} finally {
  postgres?.destroy();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
