/**
 * Course registrations on two server processes sharing one PostgreSQL:
 * 50 concurrent registrations for 8 seats, exactly 8 taken, the rest on the
 * waiting list in arrival order; and a link mailed before the registrations'
 * tokens joined `link_tokens` still works after the upgrade (on PGlite and
 * on PostgreSQL). One server on PGlite: courses.test.ts.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { eq } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findRegistrationByToken } from "../../app/courses/booking.server";
import { createSession, zurichToUtc } from "../../app/courses/sessions.server";
import { openDatabase, type Database } from "../../app/db/client.server";
import { courseSessions, outbox } from "../../app/db/schema";
import {
  dataDirBeforeMigration,
  migrationsBefore,
  postgresBinaries,
  spawnSite,
  startPostgres,
  startTestServer,
  type SpawnedSite,
  withDatabase,
  bookingForm as registration,
} from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";
import { session, register, expectEightSeatsAndAWaitingList } from "./courses-support";

/** What a query needs of a database client: PGlite's and node-postgres' pool alike. */
interface Queryable {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

/**
 * Writes, as the version before `*_course_tokens` did (the token's hex
 * SHA-256 and its expiry on the registration's row), a confirmed
 * registration for a session on 2 February (COURSE_YEAR) and one for a session held
 * in January 2026, whose link expired a week later.
 * @returns the tokens their mails carried.
 */
async function seedRegistrationsWithOldTokens(client: Queryable): Promise<{ current: string; expired: string }> {
  const newToken = () => crypto.randomBytes(32).toString("base64url");
  const tokens = { current: newToken(), expired: newToken() };
  for (const [token, startsAt] of [
    [tokens.current, zurichToUtc(`${COURSE_YEAR}-02-02`, "14:00")],
    [tokens.expired, zurichToUtc("2026-01-13", "14:00")],
  ] as const) {
    const {
      rows: [row],
    } = await client.query<{ id: string }>(
      `insert into course_sessions (course_id, starts_at, duration_minutes, place_name, place_address, price_chf, seats_taken)
       values ('securite', $1, 120, 'Salle paroissiale', 'Rue du Lac 1, 1800 Vevey', 55, 1) returning id`,
      [startsAt.toISOString()],
    );
    await client.query(
      `insert into course_registrations (session_id, status, seats, first_name, last_name, phone, phone_e164, email, token_hash, token_expires_at)
       values ($1, 'confirmed', 1, 'Marie', 'Ancienne', '079 123 45 67', '+41791234567', 'marie@example.ch', $2, $3)`,
      [
        row!.id,
        crypto.createHash("sha256").update(token).digest("hex"),
        new Date(startsAt.getTime() + 7 * 86_400_000).toISOString(),
      ],
    );
  }
  return tokens;
}

describe("a link mailed before the registrations' tokens joined link_tokens (migration *_course_tokens)", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  let dataDir: string;
  let tokens: { current: string; expired: string };
  beforeAll(async () => {
    const previous = await dataDirBeforeMigration("_course_tokens", seedRegistrationsWithOldTokens);
    dataDir = previous.dir;
    tokens = previous.seeded;
    site = await startTestServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await site?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("still opens the registration's page and its calendar file, and its button still cancels once", async () => {
    const link = `${site.url}/cours/inscription/${tokens.current}`;
    const page = await fetch(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Votre inscription est confirmée");
    expect(html).toContain("Marie Ancienne");
    expect(html).toContain(`mardi 2 février ${COURSE_YEAR}, 14\u00a0h\u00a000 – 16\u00a0h\u00a000`);
    const ics = await fetch(`${link}/calendrier.ics`);
    expect(ics.status).toBe(200);
    expect(await ics.text()).toContain(`DTSTART:${COURSE_YEAR}0202T130000Z`);

    const cancel = () =>
      fetch(link, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
        body: "intent=cancel&website=",
      });
    expect(await (await cancel()).text()).toContain("Votre inscription est annulée.");
    await cancel();
    const [row] = await site.database.db.select().from(courseSessions).where(eq(courseSessions.seatsTaken, 0));
    expect(new Date(row!.startsAt).toISOString()).toBe(`${COURSE_YEAR}-02-02T13:00:00.000Z`);
    expect(
      await site.database.db.select().from(outbox).where(eq(outbox.kind, "booking-owner-cancellation")),
    ).toHaveLength(1);
    expect(await fetch(link).then((res) => res.text())).toContain("Cette inscription est annulée");
  });

  it("keeps its expiry: a link a week past its course opens nothing", async () => {
    expect((await fetch(`${site.url}/cours/inscription/${tokens.expired}`)).status).toBe(404);
  });
});

describe.skipIf(!postgresBinaries())("registrations on two server processes sharing one PostgreSQL", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let sites: SpawnedSite[] = [];
  let pool: pg.Pool;
  beforeAll(async () => {
    postgres = await startPostgres();
    sites = [await spawnSite({ DATABASE_URL: postgres.url }), await spawnSite({ DATABASE_URL: postgres.url })];
    await Promise.all(sites.map((site) => site.ready()));
    pool = new pg.Pool({ connectionString: postgres.url });
  }, 180_000);
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()));
    await pool?.end();
    postgres?.destroy();
  });

  it("takes exactly 8 seats of 50 registrations spread over both processes, the rest waiting in order", async () => {
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const schema = await import("../../app/db/schema");
    const db = drizzle(pool, { schema }) as unknown as Database;
    const sessionId = await createSession(db, session());
    const urls = sites.map((site) => site.url);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) => register(urls[n % 2]!, registration(sessionId, n))),
    );
    await expectEightSeatsAndAWaitingList(db, sessionId, answers, urls);
  });

  it("moves the tokens of links already mailed into link_tokens on PostgreSQL too", async () => {
    const name = `${new URL(postgres.url).pathname.slice(1)}_previous`;
    await pool.query(`create database ${name}`);
    const url = withDatabase(postgres.url, name);
    const previous = new pg.Pool({ connectionString: url });
    const folder = migrationsBefore("_course_tokens");
    let upgraded: Awaited<ReturnType<typeof openDatabase>> | undefined;
    try {
      await migrate(drizzleNodePg(previous), { migrationsFolder: folder });
      const tokens = await seedRegistrationsWithOldTokens(previous);
      upgraded = await openDatabase({ databaseUrl: url, dataDir: "unused" });
      const found = await findRegistrationByToken(upgraded.db, tokens.current);
      expect(found?.registration.lastName).toBe("Ancienne");
      expect(found?.session.placeName).toBe("Salle paroissiale");
      expect(await findRegistrationByToken(upgraded.db, tokens.expired)).toBeUndefined();
    } finally {
      await upgraded?.close();
      await previous.end();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
