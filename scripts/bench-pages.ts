/**
 * `npm run bench:pages`: how fast the public pages and a click's data are
 * served from the render cache, against nginx serving the same bytes, and
 * the server's memory meanwhile, on the embedded PGlite and on PostgreSQL.
 *
 * For each database, starts the compiled server in production as its own
 * process (`spawnBenchSite`: `build/start/index.js`, or that of `BUILD_DIR`, with the
 * production flags `SERVER_NODE_FLAGS` (not the tests' `--no-opt`), logs
 * at "info" as in production, a fresh `DATA_DIR` or a throwaway PostgreSQL
 * cluster from `startPostgres`, fsync off, production's outbox poll, its output to a file as
 * nginx's access log) with two sessions of
 * "Applications mobiles" (so `/` and `/cours/applications-mobiles` show live
 * places), waits for `/healthz` and for the render cache's warm-up, then
 * captures each page and the data request a click on it makes
 * (`/_root.data?_routes=routes/home`, …) as sent with brotli, and the kept
 * 404 page, and starts Debian's nginx serving those bytes with the same
 * headers (scripts/bench-nginx.ts: one worker, as the site is one process;
 * skipped with a line saying so when `/usr/sbin/nginx` is missing: never
 * downloaded). After 2 s of unmeasured load on `/`, its data and the 404
 * (V8 compiles the hot paths meanwhile), loads each with autocannon: 20 connections for
 * `BENCH_SECONDS` (10 by default), `Accept-Encoding: br, gzip`, as a
 * browser sends: `/`, `/cours/applications-mobiles`, `/blog`, the newest
 * article, `/contact`, each with its data and nginx's copies of both;
 * then 1,000 distinct unknown paths and 1,000 distinct `?seance=` values
 * at random against the kept 404 and course page. What is compared (a
 * page, its data, nginx's copies; the random addresses and their kept
 * page) is loaded in turns of `BENCH_SLICE_SECONDS` (2 by default) until
 * each had `BENCH_SECONDS`: the ratios compare the same minutes of a
 * shared machine. `BENCH_ROUNDS` (1 by default) repeats the loads, each
 * round a table of its own.
 *
 * Prints, per address: requests a second (mean), p50 and p99 latency, the
 * CPU time (user + system, from /proc) the server, or nginx with its worker,
 * spent per request (steadier than wall figures on a busy machine), the
 * ratios the issue asks for (the site's cached page against nginx's
 * req/s and p99; a click's data against its page's HTML), and the machine's
 * load average when each round starts; answers other than
 * the expected status fail the run. autocannon runs in this process, on the
 * same two cores as the server and nginx: the figures are what one machine
 * does for all three.
 *
 *   npm run bench:pages                  builds first when build/ is stale
 *   npm run bench:pages -- --no-build    uses build/ as it is
 *
 * Writes the Markdown tables to stdout and to `reports/bench-pages.md`
 * (git-ignored; each round also to `reports/bench-pages.md.partial` as it
 * ends). Exits 1 when a server does not start or an answer's status
 * is not the expected one, after stopping what it started. PostgreSQL is
 * skipped, with a line saying so, when it is not installed or when
 * `BENCH_POSTGRES=0`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { loadArticles } from "../app/blog/articles.server";
import { createSession, zurichToUtc } from "../app/courses/sessions.server";
import { openDatabase } from "../app/db/client.server";
import {
  freshDataDir,
  postgresBinaries,
  residentMegabytes,
  sessionFields,
  spawnBenchSite,
  startPostgres,
  waitFor,
  type SpawnedSite,
} from "../tests/support/harness";
import { capture, NGINX, startNginx, type CapturedAnswer, type RunningNginx } from "./bench-nginx";
import { publishReport } from "./bench-report";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const CONNECTIONS = 20;
const COURSE = "applications-mobiles";
const REPORT = path.join("reports", "bench-pages.md");
/** How many distinct unknown paths and `?seance=` values the random loads draw from. */
const DISTINCT = 1000;

if (!process.argv.includes("--no-build")) {
  execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: ["ignore", process.stderr, "inherit"] });
}

const newest = loadArticles()[0]!;
/** Each page and the data request a click to it makes from another page (its own loader only). */
const PAGES: { page: string; data: string }[] = [
  { page: "/", data: "/_root.data?_routes=routes/home" },
  { page: `/cours/${COURSE}`, data: `/cours/${COURSE}.data?_routes=routes/course` },
  { page: "/blog", data: "/blog.data?_routes=blog-index" },
  { page: `/blog/${newest.slug}`, data: `/blog/${newest.slug}.data?_routes=routes/blog-article` },
  { page: "/contact", data: "/contact.data?_routes=routes/contact" },
];
const NOT_FOUND = "/page-inexistante";
/** The report's sections, one per database, as they end. */
const sections: string[] = [];

/** Two upcoming sessions of the course, written before the server starts. */
async function seed(target: { dataDir: string } | { databaseUrl: string }) {
  const database = await openDatabase({ dataDir: "unused", ...target });
  try {
    for (const day of ["2027-06-01", "2027-06-08"]) {
      await createSession(database.db, sessionFields({ courseId: COURSE, startsAt: zurichToUtc(day, "14:00") }));
    }
  } finally {
    await database.close();
  }
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  /** CPU microseconds the serving process (and its children) spent per request. */
  cpu: number;
}

/** CPU seconds (user + system) `pid` and its live children have used (Linux /proc, 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const own = (id: number) => {
    const fields = fs.readFileSync(`/proc/${id}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime: fields 14 and 15
  };
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean);
  return own(pid) + children.reduce((sum, child) => sum + own(Number(child)), 0);
}

/** One address to load: of the site or of nginx (`server`), the status each answer must have, or a new path each request. */
interface Target {
  server: { url: string; pid: number };
  address: string;
  status?: number;
  randomPath?: () => string;
}

/** How long one slice of `loads` lasts at most, in seconds (`BENCH_SLICE_SECONDS`, 2 by default). */
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 2);

/**
 * Loads each of `targets` for `SECONDS` in all, in turns of one slice each (`SLICE_SECONDS` at most,
 * `SECONDS` split evenly): what two targets are compared on is then measured in the same minutes of
 * the machine, not one after the other while other work comes and goes on its two cores. Requests a
 * second: the answers over the slices' time; p50 and p99 from the slices' latencies together; CPU: the
 * serving process's over its slices.
 * @throws when an answer's status is not the target's (200 by default), or a request fails.
 */
async function loads(targets: readonly Target[]): Promise<Load[]> {
  const slices = Math.max(1, Math.ceil(SECONDS / SLICE_SECONDS));
  const parts: Result[][] = targets.map(() => []);
  const cpu = targets.map(() => 0);
  for (let slice = 0; slice < slices; slice += 1) {
    for (const [index, { server, address, randomPath }] of targets.entries()) {
      const cpuBefore = cpuSeconds(server.pid);
      parts[index]!.push(
        (await autocannon({
          url: `${server.url}${address}`,
          connections: CONNECTIONS,
          duration: SECONDS / slices,
          headers: { "accept-encoding": "br, gzip" },
          skipAggregateResult: true,
          ...(randomPath ? { requests: [{ setupRequest: (request) => ({ ...request, path: randomPath() }) }] } : {}),
        } as autocannon.Options)) as unknown as Result,
      );
      cpu[index]! += cpuSeconds(server.pid) - cpuBefore;
    }
  }
  return targets.map(({ server, address, status = 200 }, index) => {
    const results = parts[index]!;
    const result = aggregateResult(results, { url: `${server.url}${address}` });
    const counts = result.statusCodeStats;
    const other = Object.entries(counts).filter(([code]) => Number(code) !== status);
    if (other.length > 0 || result.errors > 0 || result.timeouts > 0)
      throw new Error(`${address}: ${JSON.stringify(counts)} (expected ${status}), ${result.errors} errors`);
    const total = results.reduce((sum, part) => sum + part.totalCompletedRequests, 0);
    const seconds = results.reduce((sum, part) => sum + part.duration, 0);
    return {
      rps: Math.round(total / seconds),
      p50: result.latency.p50,
      p99: result.latency.p99,
      total,
      cpu: Math.round((cpu[index]! / Math.max(total, 1)) * 1e6),
    };
  });
}

/** What an autocannon run gives with `skipAggregateResult`: the fields `loads` reads. */
interface Result {
  totalCompletedRequests: number;
  /** Seconds. */
  duration: number;
}

/** autocannon's `aggregateResult` (documented, not in its types): the runs' latencies and counts together. */
const aggregateResult = (
  autocannon as unknown as {
    aggregateResult(
      results: Result[],
      options: { url: string },
    ): Pick<autocannon.Result, "latency" | "errors" | "timeouts"> & {
      statusCodeStats: Record<string, { count: number }>;
    };
  }
).aggregateResult;

/** A kept answer of the site, as sent with brotli. @throws when it is not kept (no public cache policy). */
async function captureKept(site: SpawnedSite, address: string, status: number): Promise<CapturedAnswer> {
  let answer: CapturedAnswer | undefined;
  await waitFor(
    async () => {
      answer = await capture(site.url, address, "br, gzip");
      const cacheControl = answer.headers.find(([name]) => name.toLowerCase() === "cache-control")?.[1] ?? "";
      return answer.status === status && cacheControl.includes("public");
    },
    30_000,
    `${address} kept`,
  );
  return answer!;
}

const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : "–");
const random = (prefix: string) => () => `${prefix}${Math.floor(Math.random() * DISTINCT)}`;

/** One round of loads: the pages against nginx, their data against their HTML, the random addresses. */
async function round(site: SpawnedSite, nginx: RunningNginx | null, label: string): Promise<string[]> {
  const own = { url: site.url, pid: site.child.pid! };
  const loadAverage = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ");
  const pageRows: string[] = [];
  for (const [index, { page, data }] of PAGES.entries()) {
    console.error(`${label}: ${page} and ${data}…`);
    // The page, nginx's copy, its data and nginx's copy of that, in turns (`loads`).
    const [html, click, reference, clickReference] = (await loads([
      { server: own, address: page },
      { server: own, address: data },
      ...(nginx ? [{ server: nginx, address: nginx.pathOf(2 * index) }] : []),
      ...(nginx ? [{ server: nginx, address: nginx.pathOf(2 * index + 1) }] : []),
    ])) as [Load, Load, Load?, Load?];
    const versus = (mine: Load, ref: Load | undefined) =>
      ref
        ? `${ref.rps} | ${ratio(mine.rps, ref.rps)} | ${ref.p99} ms | ${ratio(mine.p99, ref.p99)} | ${mine.cpu} / ${ref.cpu}`
        : `– | – | – | – | ${mine.cpu} / –`;
    pageRows.push(`| ${page} | ${html.rps} | ${html.p50} ms | ${html.p99} ms | ${versus(html, reference)} | |`);
    pageRows.push(
      `| ${data} | ${click.rps} | ${click.p50} ms | ${click.p99} ms | ${versus(click, clickReference)} | ${ratio(click.rps, html.rps)} |`,
    );
  }
  console.error(`${label}: unknown paths and ?seance= values…`);
  // The kept pages asked for through the same per-request path choice as the random ones: autocannon's
  // own cost per request (it builds each request anew) is then the same on both sides of the ratio.
  const [kept404, unknown, course, seance, nginx404] = (await loads([
    { server: own, address: NOT_FOUND, status: 404, randomPath: () => NOT_FOUND },
    { server: own, address: "/nope-0", status: 404, randomPath: random("/nope-") },
    { server: own, address: `/cours/${COURSE}`, randomPath: () => `/cours/${COURSE}` },
    { server: own, address: `/cours/${COURSE}`, randomPath: random(`/cours/${COURSE}?seance=x`) },
    ...(nginx ? [{ server: nginx, address: nginx.pathOf(2 * PAGES.length), status: 404 }] : []),
  ])) as [Load, Load, Load, Load, Load?];
  return [
    `#### ${label}`,
    "",
    `Load average when the round started: ${loadAverage} (2 cores).`,
    "",
    `| address (${CONNECTIONS} connections, ${SECONDS} s, br) | req/s | p50 | p99 | nginx req/s | site/nginx req/s | nginx p99 | site/nginx p99 | CPU µs/req site / nginx | .data/HTML req/s |`,
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...pageRows,
    "",
    `| random addresses (${DISTINCT} distinct) | req/s | p99 | CPU µs/req | against | its req/s | its CPU µs/req | req/s ratio |`,
    "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
    `| /nope-{n} (404) | ${unknown.rps} | ${unknown.p99} ms | ${unknown.cpu} | ${NOT_FOUND} (kept 404) | ${kept404.rps} | ${kept404.cpu} | ${ratio(unknown.rps, kept404.rps)} |`,
    `| /cours/${COURSE}?seance=x{n} | ${seance.rps} | ${seance.p99} ms | ${seance.cpu} | /cours/${COURSE} | ${course.rps} | ${course.cpu} | ${ratio(seance.rps, course.rps)} |`,
    ...(nginx404 ? [`| nginx, the 404 page | ${nginx404.rps} | ${nginx404.p99} ms | ${nginx404.cpu} | | | | |`] : []),
    "",
  ];
}

async function measure(label: string, env: Record<string, string>): Promise<string> {
  // The site's log to a file, as nginx's access log: read by this process (the load's), it would cost
  // the load the site's lines and not nginx's.
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-pages-log-"));
  const logFile = path.join(logDir, "site.log");
  const site = await spawnBenchSite(
    // Production's outbox poll (the tests' 0.2 s would query the database 25 times as often).
    { ...env, LOG_LEVEL: "info", RENDER_CACHE_WARM_UP: "1", OUTBOX_POLL_SECONDS: "5" },
    { logFile },
  );
  let nginx: RunningNginx | null = null;
  try {
    await site.ready();
    // A busy machine (other work on the same two cores) may take a minute or more to warm up.
    await waitFor(
      () => fs.readFileSync(logFile, "utf8").includes("render cache:"),
      180_000,
      "the render cache's warm-up",
    );
    const atStart = residentMegabytes(site.child.pid!);
    const answers: CapturedAnswer[] = [];
    for (const { page, data } of PAGES)
      answers.push(await captureKept(site, page, 200), await captureKept(site, data, 200));
    answers.push(await captureKept(site, NOT_FOUND, 404));
    if (fs.existsSync(NGINX)) nginx = await startNginx(answers);
    // Unmeasured: V8 compiles the hot paths (TurboFan) during the first thousands of requests, which would
    // count against whichever address comes first.
    console.error(`${label}: warming up…`);
    for (const address of [PAGES[0]!.page, PAGES[0]!.data, NOT_FOUND])
      await autocannon({ url: `${site.url}${address}`, connections: CONNECTIONS, duration: 2 });
    const rounds: string[] = [];
    for (let index = 1; index <= ROUNDS; index += 1) {
      rounds.push(...(await round(site, nginx, `${label}, round ${index}`)));
      // Each round on disk as it ends: a long run cut short keeps what it measured.
      fs.mkdirSync(path.dirname(REPORT), { recursive: true });
      fs.writeFileSync(`${REPORT}.partial`, [...sections, `### ${label}`, "", ...rounds].join("\n"));
    }
    const after = residentMegabytes(site.child.pid!);
    return [
      `### ${label}`,
      "",
      `Resident memory of the server: ${atStart.toFixed(0)} MB at start (cache warm), ${after.toFixed(0)} MB after the runs.`,
      nginx
        ? "nginx: Debian's, one worker, the site's bytes (brotli) and headers, access log to a file; the site's log to a file too."
        : `nginx: ${NGINX} is missing (apt-get install -y nginx): no reference, ratios left out.`,
      "",
      ...rounds,
    ].join("\n");
  } finally {
    await nginx?.stop();
    await site.stop();
    fs.rmSync(logDir, { recursive: true, force: true });
  }
}

try {
  if (!fs.existsSync(NGINX))
    console.error(`${NGINX} is missing (apt-get install -y nginx): the nginx reference is skipped.`);
  const dataDir = freshDataDir();
  await seed({ dataDir });
  sections.push(await measure("PGlite (embedded)", { DATA_DIR: dataDir }));
  if (process.env.BENCH_POSTGRES === "0") {
    sections.push("### PostgreSQL\n\nSkipped (BENCH_POSTGRES=0).\n");
  } else if (postgresBinaries()) {
    const postgres = await startPostgres();
    try {
      await seed({ databaseUrl: postgres.url });
      sections.push(await measure("PostgreSQL 15", { DATABASE_URL: postgres.url }));
    } finally {
      postgres.destroy();
    }
  } else {
    sections.push("### PostgreSQL\n\nNot installed (apt-get install -y postgresql): skipped.\n");
  }
} catch (error) {
  console.error(error);
  if (sections.length > 0) publishReport(REPORT, sections.join("\n"));
  process.exit(1);
}
publishReport(REPORT, sections.join("\n"));
process.exit(0);
