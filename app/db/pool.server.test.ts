import type pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresBinaries, SHARED_POSTGRES_ENV, startHangingServer } from "../../tests/support/harness";
import { postgresPool } from "./pool.server";

describe("the PostgreSQL pool's waits (decision 065)", () => {
  it.runIf(postgresBinaries() || process.env.CI)(
    "lets a request wait for a busy pool's connection longer than opening one may take",
    async () => {
      const pool = postgresPool(process.env[SHARED_POSTGRES_ENV]!, { max: 2, timeouts: { connect: 150 } });
      /** A connection of the pool; opening one may take longer than 150 ms on a loaded machine: tried again. */
      const open = async (attempt = 1): Promise<pg.PoolClient> =>
        pool.connect().catch((error: unknown) => (attempt < 20 ? open(attempt + 1) : Promise.reject(error)));
      try {
        // Both connections busy (a burst's bookings), then a third request (a page's read).
        const busy = [await open(), await open()];
        // Its outcome, a failure included (pg-pool's "timeout exceeded when trying to connect").
        const waiting = pool.query<{ answer: number }>("select 1 as answer").then(
          (result) => result.rows,
          (error: unknown) => error,
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        busy[0]!.release();
        busy[1]!.release();
        expect(await waiting).toEqual([{ answer: 1 }]);
      } finally {
        await pool.end();
      }
    },
  );

  let hanging: Awaited<ReturnType<typeof startHangingServer>> | undefined;
  afterAll(() => hanging?.close());

  it("fails a request when the server does not accept a connection, though it would wait for a busy pool", async () => {
    // A peer that takes the TCP connection and never answers: a server that hangs.
    hanging = await startHangingServer();
    const { port } = hanging;
    const pool = postgresPool(`postgres://site@127.0.0.1:${port}/site`, { timeouts: { connect: 200 } });
    try {
      await expect(pool.query("select 1")).rejects.toThrow();
    } finally {
      await pool.end();
    }
  });
});
