/**
 * `npm run bench:booking`: registrations per second for ONE session under
 * contention (every request locks the same session row), measured with
 * autocannon (10 connections, BENCH_SECONDS s, 10 by default) posting the
 * no-JavaScript form to `/cours/securite`: on the embedded PGlite, on
 * PostgreSQL (one process), and on two processes sharing one PostgreSQL
 * (5 connections each), when Debian's PostgreSQL is installed. The session
 * has 100 places: the first 100 registrations take a seat, the others join
 * the waiting list (the same lock, the same work plus a count). Checks after
 * each run that the seats taken equal the confirmed registrations and never
 * pass the capacity.
 *
 * Then the burst (issue 34, decision 055): BURST (200) registrations posted
 * at once for ONE series of four dates (50 places) to two processes sharing
 * one PostgreSQL, half to each: every post must be answered (registered or
 * waiting, 303), none 503, and on every date the seats taken must equal the
 * confirmed registrations' seats, within the capacity. Prints the answers by
 * status, the slowest answer and the seats of each date, and the sites'
 * warnings and errors meanwhile (what a 503 was). `BENCH_BUSY_LOOPS=N`
 * runs N busy processes beside the burst (a loaded machine).
 *
 *   npm run bench:booking                 all of the above
 *   npm run bench:booking -- --burst      the burst only
 *
 * Prints Markdown tables. Builds the site first when needed.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import autocannon from "autocannon";
import { drizzle } from "drizzle-orm/node-postgres";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { createSeries, createSession, weeklyDates, zurichToUtc } from "../app/courses/sessions.server";
import type { Database } from "../app/db/client.server";
import * as schema from "../app/db/schema";
import {
  postgresBinaries,
  spawnBenchSite,
  startPostgres,
  startTestServer,
  type SpawnedSite,
} from "../tests/support/harness";

execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: "inherit" });

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const BURST = 200;
const BURST_CAPACITY = 50;
const BURST_ONLY = process.argv.includes("--burst");
/** Busy processes beside the burst: a loaded machine (the burst answered 503s at load 12-16 before decision 065). */
const BUSY_LOOPS = Number(process.env.BENCH_BUSY_LOOPS ?? 0);
const CAPACITY = 100;
const rows: string[] = [];
let counter = 0;

function load(url: string, sessionId: number, connections: number) {
  return autocannon({
    url: `${url}/cours/securite`,
    connections,
    duration: DURATION,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
        setupRequest: (request) => ({
          ...request,
          body: new URLSearchParams({
            sessionId: String(sessionId),
            firstName: "Marie",
            lastName: `Banc ${counter}`,
            // One telephone per person: a telephone registers once per session.
            phone: `079 ${String(1_000_000 + counter).slice(-7)}`,
            email: `banc${counter++}@example.ch`,
            seats: "1",
            website: "",
          }).toString(),
        }),
      },
    ],
  });
}

async function measure(label: string, db: Database, urls: string[]) {
  const sessionId = await createSession(db, {
    courseId: "securite",
    startsAt: zurichToUtc("2027-06-01", "14:00"),
    durationMinutes: 120,
    placeName: "Salle de test",
    placeAddress: "Rue du Banc 1, 1000 Lausanne",
    placeAccess: "",
    capacity: CAPACITY,
    minimum: 4,
    priceChf: 55,
  });
  const results = await Promise.all(urls.map((url) => load(url, sessionId, 10 / urls.length)));
  const registered = results.reduce((sum, result) => sum + result["3xx"], 0);
  const refused = results.reduce((sum, result) => sum + result["2xx"] + result["4xx"] + result["5xx"], 0);
  const errors = results.reduce((sum, result) => sum + result.errors, 0);
  const p50 = Math.max(...results.map((result) => result.latency.p50));
  const p99 = Math.max(...results.map((result) => result.latency.p99));
  const [session] = await db.select().from(schema.courseSessions).where(eq(schema.courseSessions.id, sessionId));
  const [confirmed] = await db
    .select({ seats: sql<number>`coalesce(sum(${schema.courseRegistrations.seats}), 0)::int` })
    .from(schema.courseRegistrations)
    .where(
      sql`${schema.courseRegistrations.sessionId} = ${sessionId} and ${schema.courseRegistrations.status} = 'confirmed'`,
    );
  const consistent = session!.seatsTaken === Number(confirmed!.seats) && session!.seatsTaken <= CAPACITY;
  rows.push(
    `| ${label} | ${(registered / DURATION).toFixed(0)} registrations/s | ${p50} ms | ${p99} ms | ${registered} registered (${session!.seatsTaken} seats, the rest waiting), ${refused} other answers, ${errors} errors; seats ${consistent ? "consistent" : "INCONSISTENT"} |`,
  );
}

/** Busy loops (`for (;;) {}`, each a process at this one's priority) that load the machine during the burst. */
function busyLoops(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }).on("error", () => undefined),
  );
}

/** BURST posts at once for one series, spread over `urls`; the answers by status, the slowest, the seats of every date. */
async function burst(db: Database, urls: string[]) {
  const dates = weeklyDates("2027-09-07", 4).map((day) => zurichToUtc(day, "14:00"));
  const { seriesId, sessionIds } = await createSeries(
    db,
    {
      courseId: "securite",
      startsAt: dates[0]!,
      durationMinutes: 120,
      placeName: "Salle de test",
      placeAddress: "Rue du Banc 1, 1000 Lausanne",
      placeAccess: "",
      capacity: BURST_CAPACITY,
      minimum: 4,
      priceChf: 55,
    },
    dates,
  );
  const busy = busyLoops(BUSY_LOOPS);
  const loadBefore = os.loadavg()[0]!.toFixed(1);
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: BURST }, async (_, index) => {
      const url = urls[index % urls.length]!;
      const begun = performance.now();
      const response = await fetch(`${url}/cours/securite`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
        body: new URLSearchParams({
          sessionId: String(sessionIds[0]),
          firstName: "Marie",
          lastName: `Rafale ${index}`,
          phone: `078 ${String(2_000_000 + index).slice(-7)}`,
          email: `rafale${index}@example.ch`,
          seats: "1",
          website: "",
        }).toString(),
      }).catch(() => null);
      await response?.arrayBuffer();
      return { status: response?.status ?? 0, ms: performance.now() - begun };
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const loop of busy) loop.kill();
  const loadAfter = os.loadavg()[0]!.toFixed(1);
  const byStatus = new Map<number, number>();
  for (const { status } of answers) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  const registrations = await db
    .select({ status: schema.courseRegistrations.status, seats: schema.courseRegistrations.seats })
    .from(schema.courseRegistrations)
    .where(eq(schema.courseRegistrations.seriesId, seriesId));
  const confirmed = registrations.filter((row) => row.status === "confirmed");
  const confirmedSeats = confirmed.reduce((sum, row) => sum + row.seats, 0);
  const sessions = await db
    .select()
    .from(schema.courseSessions)
    .where(eq(schema.courseSessions.seriesId, seriesId))
    .orderBy(schema.courseSessions.id);
  const exact = sessions.every(
    (session) => session.seatsTaken === confirmedSeats && session.seatsTaken <= BURST_CAPACITY,
  );
  const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  const answered = (byStatus.get(303) ?? 0) + (byStatus.get(200) ?? 0);
  console.log(
    [
      "",
      `| ${BURST} registrations at once, one series of ${sessions.length} dates (${BURST_CAPACITY} places), ${urls.length} processes, PostgreSQL | |`,
      "|---|---:|",
      `| answered (registered or waiting) | ${answered} |`,
      `| 503 | ${byStatus.get(503) ?? 0} |`,
      `| other answers | ${
        [...byStatus]
          .filter(([status]) => ![200, 303, 503].includes(status))
          .map(([status, count]) => `${count} × ${status || "no answer"}`)
          .join(", ") || "none"
      } |`,
      `| registered / waiting (database) | ${confirmed.length} / ${registrations.length - confirmed.length} |`,
      `| seats taken on each date | ${sessions.map((session) => session.seatsTaken).join(", ")} (confirmed seats ${confirmedSeats}): ${exact ? "exact" : "NOT EXACT"} |`,
      `| whole burst | ${seconds.toFixed(1)} s |`,
      `| busy loops beside it (BENCH_BUSY_LOOPS) / load average before, after | ${BUSY_LOOPS} / ${loadBefore}, ${loadAfter} |`,
      `| answer p50 / p99 / slowest | ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} / ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(0)} / ${sorted.at(-1)!.toFixed(0)} ms |`,
    ].join("\n"),
  );
  return exact && answered === BURST;
}

if (!BURST_ONLY) {
  {
    const site = await startTestServer({});
    try {
      await measure("PGlite, one process", site.database.db, [site.url]);
    } finally {
      await site.close();
    }
  }
  if (postgresBinaries()) {
    const postgres = await startPostgres();
    const pool = new pg.Pool({ connectionString: postgres.url });
    try {
      const site = await startTestServer({ DATABASE_URL: postgres.url });
      const db = drizzle(pool, { schema }) as unknown as Database;
      try {
        await measure("PostgreSQL 15, one process", db, [site.url]);
      } finally {
        await site.close();
      }
      const sites = [
        await spawnBenchSite({ DATABASE_URL: postgres.url }),
        await spawnBenchSite({ DATABASE_URL: postgres.url }),
      ];
      try {
        await Promise.all(sites.map((spawned) => spawned.ready()));
        await measure(
          "PostgreSQL 15, two processes",
          db,
          sites.map((spawned) => spawned.url),
        );
      } finally {
        await Promise.all(sites.map((spawned) => spawned.stop()));
      }
    } finally {
      await pool.end();
      postgres.destroy();
    }
  } else {
    rows.push("| PostgreSQL | not installed (apt-get install -y postgresql) | | | |");
  }
  console.log(
    `\n| one session, 10 connections, ${DURATION} s | rate | p50 | p99 | notes |\n|---|---:|---:|---:|---|\n${rows.join("\n")}`,
  );
}

/** The sites' warnings and errors during the burst, counted by message and error kind: what a 503 was. */
function warnings(sites: SpawnedSite[], from: number[]): string[] {
  const counts = new Map<string, number>();
  for (const line of sites.flatMap((site, index) => site.log.slice(from[index]))) {
    let entry: { level?: number; msg?: string; err?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if ((entry.level ?? 0) < 40) continue;
    const key = `${entry.msg ?? ""}${entry.err ? ` ${JSON.stringify(entry.err)}` : ""}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => `${count} × ${key}`);
}

let burstHeld = false;
if (postgresBinaries()) {
  const postgres = await startPostgres();
  const pool = new pg.Pool({ connectionString: postgres.url });
  const sites = [
    await spawnBenchSite({ DATABASE_URL: postgres.url }),
    await spawnBenchSite({ DATABASE_URL: postgres.url }),
  ];
  try {
    await Promise.all(sites.map((spawned) => spawned.ready()));
    const logged = sites.map((site) => site.log.length);
    burstHeld = await burst(
      drizzle(pool, { schema }) as unknown as Database,
      sites.map((spawned) => spawned.url),
    );
    const lines = warnings(sites, logged);
    console.log(
      `\nThe sites' warnings and errors during the burst: ${lines.length ? `\n- ${lines.join("\n- ")}` : "none"}`,
    );
  } finally {
    await Promise.all(sites.map((spawned) => spawned.stop()));
    await pool.end();
    postgres.destroy();
  }
} else {
  console.log("\nThe burst needs PostgreSQL (apt-get install -y postgresql).");
}
process.exit(burstHeld || !postgresBinaries() ? 0 : 1);
