/**
 * `npm run bench:invalidation`: how soon a seat booked on one server
 * process shows on another process's cached course page (decision 016's
 * render cache, its changes announced through PostgreSQL's LISTEN/NOTIFY).
 *
 * Starts a throwaway PostgreSQL cluster (`startPostgres`), writes one
 * session of "Applications mobiles" with 50 seats, and starts the compiled
 * server twice on it as production runs it (`spawnSite`: A and B, logs at
 * "info", pages rendered at their first visit). Each round: B's
 * `/cours/applications-mobiles` is fetched until it comes from B's cache
 * (the same ETag twice), one seat is booked on A, and B's page is fetched
 * again and again (one request at a time) until it shows the new count; the
 * figure is the time from A's answer (the booking committed) to the first
 * answer of B that shows it. `BENCH_ROUNDS` rounds (10 by default); prints
 * min, median and max in milliseconds.
 *
 *   npm run bench:invalidation                  builds first when build/ is stale
 *   npm run bench:invalidation -- --no-build    uses build/ as it is
 *
 * Writes the Markdown table to stdout and to `reports/bench-invalidation.md`
 * (git-ignored). Exits 1 when PostgreSQL is not installed, a server does not
 * start, a booking is refused or B does not show a booking within 30 s,
 * after stopping what it started.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { createSession, zurichToUtc } from "../app/courses/sessions.server";
import { openDatabase } from "../app/db/client.server";
import { COURSE_YEAR } from "../tests/support/course-year";
import {
  bookingForm,
  placesShown,
  postBooking,
  postgresBinaries,
  sessionFields,
  spawnBenchSite,
  startPostgres,
  waitFor,
  type SpawnedSite,
  type TestPostgres,
} from "../tests/support/harness";
import { publishReport } from "./bench-report";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const COURSE = "applications-mobiles";
const PAGE = `/cours/${COURSE}`;
const CAPACITY = 50;
const REPORT = path.join("reports", "bench-invalidation.md");

if (!process.argv.includes("--no-build")) {
  execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: ["ignore", process.stderr, "inherit"] });
}

/** B's page from its cache: fetched until two answers in a row carry the same ETag. @returns the HTML. */
async function cachedPage(site: SpawnedSite): Promise<string> {
  let previous: string | null = null;
  for (;;) {
    const answer = await fetch(`${site.url}${PAGE}`);
    const html = await answer.text();
    const etag = answer.headers.get("etag");
    if (answer.status !== 200) throw new Error(`${PAGE} on B answered ${answer.status}`);
    if (etag && etag === previous) return html;
    previous = etag;
  }
}

/** One round: the milliseconds from A's answer to a booking to B's first page that shows it. */
async function round(a: SpawnedSite, b: SpawnedSite, sessionId: number, n: number): Promise<number> {
  const before = placesShown(await cachedPage(b), sessionId);
  const expected = `${CAPACITY - n} places restantes`;
  if (before !== `${CAPACITY - n + 1} places restantes`) throw new Error(`B shows "${before}" before round ${n}`);
  const answer = await postBooking(a.url, COURSE, bookingForm(sessionId, n));
  if (answer.status !== 303) throw new Error(`the booking of round ${n} was answered ${answer.status}`);
  const booked = performance.now();
  for (;;) {
    const html = await (await fetch(`${b.url}${PAGE}`)).text();
    if (placesShown(html, sessionId) === expected) return performance.now() - booked;
    if (performance.now() - booked > 30_000) throw new Error(`B did not show "${expected}" within 30 s`);
  }
}

const median = (sorted: number[]) =>
  sorted.length % 2
    ? sorted[(sorted.length - 1) / 2]!
    : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;

if (!postgresBinaries()) {
  console.error("PostgreSQL is not installed (apt-get install -y postgresql): nothing to measure.");
  process.exit(1);
}
let postgres: TestPostgres | undefined;
const sites: SpawnedSite[] = [];
let report = "";
try {
  postgres = await startPostgres({ own: true });
  const database = await openDatabase({ databaseUrl: postgres.url, dataDir: "unused" });
  let sessionId: number;
  try {
    sessionId = await createSession(
      database.db,
      sessionFields({ courseId: COURSE, startsAt: zurichToUtc(`${COURSE_YEAR}-06-01`, "14:00"), capacity: CAPACITY }),
    );
  } finally {
    await database.close();
  }
  for (let index = 0; index < 2; index++) sites.push(await spawnBenchSite({ DATABASE_URL: postgres.url }));
  const [a, b] = sites as [SpawnedSite, SpawnedSite];
  await Promise.all(sites.map((site) => site.ready()));
  // Both processes listen for the announcements (the cluster is this benchmark's own).
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    const listening = async () =>
      Number(
        (await admin.query<{ n: string }>("select count(*) as n from pg_stat_activity where query ilike 'LISTEN%'"))
          .rows[0]!.n,
      );
    await waitFor(async () => (await listening()) === 2, 30_000, "both sites listening for changes");
  } finally {
    await admin.end();
  }
  const times: number[] = [];
  for (let n = 1; n <= ROUNDS; n++) {
    times.push(await round(a, b, sessionId, n));
    console.error(`round ${n}: ${times.at(-1)!.toFixed(1)} ms`);
  }
  const sorted = [...times].sort((x, y) => x - y);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  report = [
    "### A booking on A, shown on B's cached page (PostgreSQL, two processes)",
    "",
    `| rounds | min | median | max |`,
    "| ---: | ---: | ---: | ---: |",
    `| ${ROUNDS} | ${ms(sorted[0]!)} | ${ms(median(sorted))} | ${ms(sorted.at(-1)!)} |`,
    "",
  ].join("\n");
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await Promise.all(sites.map((site) => site.stop()));
  postgres?.destroy();
}
if (process.exitCode === 1) process.exit(1);
publishReport(REPORT, report);
process.exit(0);
