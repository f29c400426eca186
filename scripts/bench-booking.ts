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
 * pass the capacity. Prints a Markdown table. Builds the site first when needed.
 */
import { execFileSync } from "node:child_process";
import autocannon from "autocannon";
import { drizzle } from "drizzle-orm/node-postgres";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { createSession, zurichToUtc } from "../app/courses/sessions.server";
import type { Database } from "../app/db/client.server";
import * as schema from "../app/db/schema";
import { postgresBinaries, spawnSite, startPostgres, startTestServer } from "../tests/support/harness";

execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: "inherit" });

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
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
    const sites = [await spawnSite({ DATABASE_URL: postgres.url }), await spawnSite({ DATABASE_URL: postgres.url })];
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
process.exit(0);
