import { drizzle } from "drizzle-orm/node-postgres";
import { pino } from "pino";
import type pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  openTestDatabase,
  postgresBinaries,
  SHARED_POSTGRES_ENV,
  startHangingServer,
} from "../../tests/support/harness";
import type { Database } from "./client.server";
import { databaseDown } from "./outage.server";
import { postgresPool } from "./pool.server";
import * as schema from "./schema";

const silent = pino({ level: "silent" });

describe("the outage probe tells a busy database from one that is down (decision 071)", () => {
  it.runIf(postgresBinaries() || process.env.CI)(
    "calls a PostgreSQL server up while every connection of the pool is taken and requests queue for one",
    async () => {
      const pool = postgresPool(process.env[SHARED_POSTGRES_ENV]!, { max: 2 });
      const db = drizzle(pool, { schema }) as unknown as Database;
      const busy: pg.PoolClient[] = [];
      try {
        // A burst: both connections held (bookings in their turn), a page's read queued behind them.
        busy.push(await pool.connect(), await pool.connect());
        const queued = pool.query("select 1");
        expect(pool.waitingCount).toBe(1);
        // Through the pool, the probe would wait behind the queue and call the database down after 2 s.
        expect(await databaseDown(db, silent, new Error("a refused write"))).toBe(false);
        for (const client of busy.splice(0)) client.release();
        await queued;
      } finally {
        for (const client of busy) client.release();
        await pool.end();
      }
    },
  );

  let hanging: Awaited<ReturnType<typeof startHangingServer>> | undefined;
  afterAll(() => hanging?.close());

  it("calls a PostgreSQL server that takes connections and never answers down, its pool full or not", async () => {
    hanging = await startHangingServer();
    const { port } = hanging;
    for (const holdAll of [false, true]) {
      const pool = postgresPool(`postgres://site@127.0.0.1:${port}/site`, { max: 1, timeouts: { connect: 60_000 } });
      pool.on("error", () => {});
      const db = drizzle(pool, { schema }) as unknown as Database;
      // The pool's one connection stuck opening (the server hangs): the probe opens its own.
      const stuck = holdAll ? pool.query("select 1").catch(() => {}) : undefined;
      try {
        expect(await databaseDown(db, silent, new Error("no answer")), `pool full: ${holdAll}`).toBe(true);
      } finally {
        hanging.hangUp();
        await Promise.race([pool.end(), stuck]);
      }
    }
  });

  it("calls the embedded database up while it is open, down once it is closed", async () => {
    const database = await openTestDatabase();
    let closed = false;
    try {
      expect(await databaseDown(database.db, silent, new Error("a refused write"))).toBe(false);
      await database.close();
      closed = true;
      expect(await databaseDown(database.db, silent, new Error("closed"))).toBe(true);
    } finally {
      if (!closed) await database.close();
    }
  });
});
