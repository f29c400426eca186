/**
 * `npm run bench:pages`: how fast the public pages are served, and the
 * server's memory meanwhile, on the embedded PGlite and on PostgreSQL.
 *
 * For each database, starts the compiled server in production as its own
 * process (`spawnSite`: `build/start/index.js` with the production flags, logs
 * at "info" as in production, a fresh `DATA_DIR` or a throwaway PostgreSQL
 * cluster from `startPostgres`, fsync off) with two sessions of
 * "Applications mobiles" (so `/` and `/cours/applications-mobiles` show live
 * places), waits for `/healthz` and for the render cache's warm-up, then
 * loads each page in turn with autocannon: 20 connections for `BENCH_SECONDS`
 * (10 by default), `Accept-Encoding: br, gzip`, as a browser sends:
 * `/`, `/cours/applications-mobiles`, `/blog`, the newest article, `/contact`.
 * Prints, per page: requests a second (mean), p50 and p99 latency, answers
 * other than 200 and errors; and the server's resident memory (VmRSS) at
 * start and after the runs. autocannon runs in this process, on the same
 * two cores as the server: the figures are what one machine does for both.
 *
 *   npm run bench:pages                  builds first when build/ is stale
 *   npm run bench:pages -- --no-build    uses build/ as it is
 *
 * Writes the Markdown table to stdout and to `reports/bench-pages.md`
 * (git-ignored). Exits 1 when a server does not start or a page answers
 * anything but 200, after stopping what it started. PostgreSQL is skipped,
 * with a line saying so, when it is not installed.
 */
import { execFileSync } from "node:child_process";
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
  spawnSite,
  startPostgres,
  waitFor,
  type SpawnedSite,
} from "../tests/support/harness";
import { publishReport } from "./bench-report";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;
const COURSE = "applications-mobiles";
const REPORT = path.join("reports", "bench-pages.md");

if (!process.argv.includes("--no-build")) {
  execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: ["ignore", process.stderr, "inherit"] });
}

const newest = loadArticles()[0]!;
const PAGES = ["/", `/cours/${COURSE}`, "/blog", `/blog/${newest.slug}`, "/contact"];

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

/** Loads one page; the row of the table. @throws when an answer is not 200. */
async function load(site: SpawnedSite, page: string): Promise<string> {
  const result = await autocannon({
    url: `${site.url}${page}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { "accept-encoding": "br, gzip" },
  });
  const other = result.non2xx;
  if (other > 0 || result.errors > 0)
    throw new Error(`${page}: ${other} answers other than 2xx, ${result.errors} errors`);
  return `| ${page} | ${Math.round(result.requests.average)} | ${result.latency.p50} ms | ${result.latency.p99} ms | ${result.requests.total} |`;
}

async function measure(label: string, env: Record<string, string>): Promise<string> {
  const site = await spawnSite({ ...env, LOG_LEVEL: "info", RENDER_CACHE_WARM_UP: "1" });
  try {
    await site.ready();
    await waitFor(() => site.log.some((line) => line.includes("render cache:")), 30_000, "the render cache's warm-up");
    const atStart = residentMegabytes(site.child.pid!);
    const rows = [];
    for (const page of PAGES) {
      console.error(`${label}: ${page}…`);
      rows.push(await load(site, page));
    }
    const after = residentMegabytes(site.child.pid!);
    return [
      `### ${label}`,
      "",
      `Resident memory of the server: ${atStart.toFixed(0)} MB at start (cache warm), ${after.toFixed(0)} MB after the runs.`,
      "",
      `| page (${CONNECTIONS} connections, ${SECONDS} s, br) | req/s | p50 | p99 | requests |`,
      "| --- | ---: | ---: | ---: | ---: |",
      ...rows,
      "",
    ].join("\n");
  } finally {
    await site.stop();
  }
}

const sections: string[] = [];
try {
  const dataDir = freshDataDir();
  await seed({ dataDir });
  sections.push(await measure("PGlite (embedded)", { DATA_DIR: dataDir }));
  if (postgresBinaries()) {
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
  process.exit(1);
}
publishReport(REPORT, sections.join("\n"));
process.exit(0);
