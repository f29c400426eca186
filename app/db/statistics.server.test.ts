import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../tests/support/harness";
import { refreshStatistics } from "./statistics.server";

describe("the embedded database's statistics (decision 071)", () => {
  let database: TestDatabase;
  let client: PGlite;
  beforeAll(async () => {
    database = await openTestDatabase();
    client = (database.db as unknown as { $client: PGlite }).$client;
  });
  afterAll(() => database.close());

  /** What the planner knows of `table`: -1 rows when it was never analysed. */
  const known = async (table: string) =>
    (await client.query<{ rows: number }>("select reltuples::int as rows from pg_class where relname = $1", [table]))
      .rows[0]!.rows;

  /** `count` contact requests written at once (an import). */
  const importRequests = (count: number) =>
    client.query(
      `insert into contacts (first_name, last_name, email, phone, service, contact_consent, consent_timestamp)
       select 'Jeanne', 'Dupont-' || n, 'jeanne' || n || '@example.ch', '079 555 12 34', 'small-group', true, now()
         from generate_series(1, $1::int) as n`,
      [count],
    );

  it("analyses a table once it is filled, and leaves it, and the small ones, alone until it doubles", async () => {
    // A site freshly migrated: nothing worth analysing.
    expect(await refreshStatistics(client)).toEqual([]);
    // An import of 2,000 requests (PGlite runs no autovacuum: nothing else would ever analyse them).
    await importRequests(2000);
    expect(await known("contacts")).toBe(-1);
    expect(await refreshStatistics(client)).toEqual(["contacts"]);
    expect(await known("contacts")).toBe(2000);
    // The next start: nothing changed much, nothing analysed.
    await importRequests(100);
    expect(await refreshStatistics(client)).toEqual([]);
  });
});
