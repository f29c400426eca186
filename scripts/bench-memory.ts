/**
 * `npm run bench:memory`: how much memory the site's server process holds
 * (resident set size, VmRSS in /proc/{pid}/status) on the embedded PGlite
 * and on PostgreSQL.
 *
 * For each database, starts `server/index.ts` in production as its own
 * process (`spawnSite` from tests/support/harness.ts: a fresh `DATA_DIR`
 * under the OS temp folder, logs at the default level "info", the outbox
 * worker delivering to a local SMTP peer, the contact rate limit raised) and
 * reads its RSS:
 * - at start: once `/healthz` answers 200 (migrations applied);
 * - after 1,000 page views: GET of `/`, `/blog`, the newest article,
 *   `/contact` and a missing page (404), in turn, 10 at a time;
 * - after 1,000 requests: valid POSTs to `/contact` (each with its own
 *   e-mail), 10 at a time, all answered 200, and their 1,000 notifications
 *   delivered to the SMTP peer;
 * - peak seen: the largest RSS sampled every 50 ms from start to the end.
 * Each reading is taken 1 s after its step ends. Only the Node process is
 * counted: PGlite runs inside it, while PostgreSQL's own processes (a
 * throwaway cluster from `startPostgres`, fsync off) are not. PostgreSQL is
 * skipped, with a line saying so, when `postgresBinaries()` finds no
 * installation.
 *
 *   npm run bench:memory                  builds first when build/ is stale
 *   npm run bench:memory -- --no-build    uses build/ as it is
 *
 * Builds the site first when `build/` is missing or stale
 * (`scripts/ensure-build.ts`), unless `--no-build`. Prints a Markdown table to stdout and writes
 * it to `reports/bench-memory.md` (git-ignored); progress and the server's
 * errors (pino level >= 50) go to stderr as they come. Takes about five
 * minutes, most of it the outbox delivering 2,000 mails (the server opens
 * one SMTP connection a mail: about 9 a second here).
 * Exits 1 on any failure (a server that does not start, an unexpected
 * status, mails not delivered in 3 minutes), after stopping every process it
 * started and removing their folders, as it does on SIGINT or SIGTERM.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadArticles } from "../app/blog/articles.server";
import {
  postgresBinaries,
  residentMegabytes,
  spawnBenchSite,
  startPostgres,
  startSmtp,
  validForm,
  waitFor,
  type SpawnedSite,
} from "../tests/support/harness";
import { publishReport } from "./bench-report";

const COUNT = 1000;
const CONCURRENCY = 10;
const SAMPLE_MS = 50;
const SETTLE_MS = 1000;
const REPORT = path.join("reports", "bench-memory.md");
const BUILD = !process.argv.includes("--no-build");

// ---------------------------------------------------------------- clean-up

/** What to undo, last first: stop processes, remove folders. */
const cleanups: (() => void | Promise<void>)[] = [];

/** The clean-up in progress: another one waits for it, so that nobody exits while a process is being stopped. */
let cleaning: Promise<void> | undefined;

/** Runs the clean-ups registered after the first `keep`, last first; one that fails does not stop the others. */
async function cleanUp(keep = 0): Promise<void> {
  while (cleaning) await cleaning;
  cleaning = (async () => {
    while (cleanups.length > keep) {
      try {
        await cleanups.pop()!();
      } catch (error) {
        console.error(`clean-up: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  try {
    await cleaning;
  } finally {
    cleaning = undefined;
  }
}

/** Set by SIGINT or SIGTERM. */
let interrupted = false;
// `on`, not `once`: a second signal (Ctrl-C again, or tsx relaying the first) must not end the process mid-clean-up.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal} received: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/** Stops `site` with SIGTERM, and SIGKILL if it is still running 15 s later. */
async function stopSite(site: SpawnedSite): Promise<void> {
  const force = setTimeout(() => site.child.kill("SIGKILL"), 15_000);
  await site.stop();
  clearTimeout(force);
}

// ---------------------------------------------------------------- steps

/** Runs `task(0)` to `task(count - 1)`, `concurrency` at a time. */
async function inParallel(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

/** The pages a visitor reads, with the status each must answer. */
function pages(): { path: string; status: number }[] {
  const article = loadArticles()[0];
  if (!article) throw new Error("No article in app/content/blog: nothing to read at /blog/{slug}.");
  return [
    { path: "/", status: 200 },
    { path: "/blog", status: 200 },
    { path: `/blog/${article.slug}`, status: 200 },
    { path: "/contact", status: 200 },
    { path: "/page-qui-n-existe-pas", status: 404 },
  ];
}

interface Measure {
  database: string;
  start: number;
  afterPages: number;
  afterRequests: number;
  peak: number;
}

/**
 * Starts the site on `databaseUrl` (PGlite when undefined), runs the two
 * steps and returns its RSS readings in MB. Stops the site, the SMTP peer
 * and removes the data folder before returning or throwing.
 */
async function measure(database: string, databaseUrl?: string): Promise<Measure> {
  const depth = cleanups.length;
  const smtp = await startSmtp();
  cleanups.push(() => smtp.close());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-memory-data-"));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const site = await spawnBenchSite({
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    SMTP_URL: smtp.url,
    OUTBOX_POLL_SECONDS: "5",
  });
  cleanups.push(() => stopSite(site));

  let peak = 0;
  let printed = 0;
  const sampler = setInterval(() => {
    const rss = residentMegabytes(site.child.pid!);
    if (rss > peak) peak = rss;
    // The server's errors as they come: pino level >= 50, or a line that is not pino's.
    for (const line of site.log.slice(printed)) {
      const level = /^\{"level":(\d+)/.exec(line)?.[1];
      if (!level || Number(level) >= 50) console.error(`  server: ${line}`);
    }
    printed = site.log.length;
  }, SAMPLE_MS);
  cleanups.push(() => clearInterval(sampler));

  const reading = async () => {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const rss = residentMegabytes(site.child.pid!);
    if (!Number.isFinite(rss)) throw new Error(`Cannot read the memory of process ${site.child.pid}.`);
    peak = Math.max(peak, rss);
    return rss;
  };

  let stepStarted = performance.now();
  const progress = (rss: number, what: string) => {
    const seconds = ((performance.now() - stepStarted) / 1000).toFixed(1);
    console.error(`${database}: ${rss.toFixed(0)} MB ${what} (${seconds} s)`);
    stepStarted = performance.now();
  };

  try {
    await site.ready();
    const start = await reading();
    progress(start, "at start");

    const visits = pages();
    await inParallel(COUNT, CONCURRENCY, async (index) => {
      const page = visits[index % visits.length]!;
      const response = await fetch(site.url + page.path);
      await response.arrayBuffer();
      if (response.status !== page.status)
        throw new Error(`GET ${page.path} answered ${response.status}, not ${page.status}.`);
    });
    const afterPages = await reading();
    progress(afterPages, `after ${COUNT} page views`);

    const runId = Date.now().toString(36);
    await inParallel(COUNT, CONCURRENCY, async (index) => {
      const response = await fetch(`${site.url}/contact`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(validForm(`memory-${runId}-${index}@example.ch`)).toString(),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`POST /contact answered ${response.status}, not 200.`);
    });
    await waitFor(() => smtp.mails.length >= COUNT, 180_000, `${COUNT} notifications delivered`);
    const afterRequests = await reading();
    progress(afterRequests, `after ${COUNT} requests, their mails delivered`);

    return { database, start, afterPages, afterRequests, peak };
  } catch (error) {
    if (!interrupted && site.log.length)
      console.error(`The server's log (last 50 lines):\n${site.log.slice(-50).join("\n")}`);
    throw error;
  } finally {
    // The sampler, the site, the data folder and the SMTP peer of this database.
    await cleanUp(depth);
  }
}

function gitCommit(): string {
  const run = (args: string[]) => spawnSync("git", args, { encoding: "utf8" }).stdout.trim();
  const commit = run(["rev-parse", "--short", "HEAD"]) || "unknown";
  const dirty = run(["status", "--porcelain", "--untracked-files=no"]) ? ", with uncommitted changes" : "";
  return `${commit}${dirty}`;
}

// ---------------------------------------------------------------- main

try {
  if (BUILD) execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: ["ignore", process.stderr, "inherit"] });
  else if (!fs.existsSync(path.join("build", "server", "index.js")))
    throw new Error("No build in build/: run without --no-build.");
  const results: string[] = [];
  const row = ({ database, start, afterPages, afterRequests, peak }: Measure) =>
    `| ${database} | ${[start, afterPages, afterRequests, peak].map((mb) => `${mb.toFixed(0)} MB`).join(" | ")} |`;

  results.push(row(await measure("PGlite (embedded)")));
  const bin = postgresBinaries();
  if (bin) {
    const postgres = await startPostgres();
    cleanups.push(() => postgres.destroy());
    results.push(row(await measure(`PostgreSQL ${path.basename(path.dirname(bin))}`, postgres.url)));
  } else {
    results.push("| PostgreSQL | skipped: not installed (apt-get install -y postgresql) | | | |");
  }
  await cleanUp();

  const markdown = [
    "# Memory of the server process (RSS)",
    "",
    `- date: ${new Date().toISOString()}`,
    `- commit: ${gitCommit()}`,
    `- Node ${process.version}, ${os.cpus().length} CPUs, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GB of memory`,
    `- ${COUNT} page views (/, /blog, an article, /contact, a 404, in turn) then ${COUNT} valid contact requests, ${CONCURRENCY} at a time; notifications delivered to a local SMTP peer before the reading`,
    `- RSS of the Node process only (PGlite runs inside it; PostgreSQL's processes are not counted); peak sampled every ${SAMPLE_MS} ms`,
    "",
    `| database | RSS at start | after ${COUNT.toLocaleString("en")} page views | after ${COUNT.toLocaleString("en")} requests | peak seen |`,
    "|---|---:|---:|---:|---:|",
    ...results,
    "",
  ].join("\n");
  publishReport(REPORT, markdown);
  process.exit(0);
} catch (error) {
  if (!interrupted) console.error(`bench:memory failed: ${error instanceof Error ? error.message : String(error)}`);
  await cleanUp();
  process.exit(interrupted ? 130 : 1);
}
