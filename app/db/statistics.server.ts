/**
 * The planner's statistics on the embedded database (decision 071).
 * PGlite runs PostgreSQL single-user, without the autovacuum that analyses
 * a table once enough of it changed: a table filled or imported would be
 * planned on no statistics, for ever.
 *
 * `refreshStatistics(client)` runs ANALYZE on each table of the `public`
 * schema that is worth it: at least `MIN_PAGES` pages on disk (80 KB; a
 * smaller table is read whole whatever the plan) and never analysed, or
 * grown to twice or shrunk to half the pages it had when last analysed.
 * The system catalogs are left alone (a database-wide ANALYZE of an empty
 * site's catalogs costs 170–340 ms of CPU). Resolves to the tables
 * analysed. @throws the driver's error.
 *
 * Called at each start, after the migrations and before the server
 * listens (`openDatabase`): PGlite runs one statement at a time, so an
 * ANALYZE while serving would hold every request's queries behind it.
 */
import type { PGlite } from "@electric-sql/pglite";

/** Smallest table (pages of 8 KB) whose statistics are kept up to date. */
export const MIN_PAGES = 10;

export async function refreshStatistics(client: Pick<PGlite, "query" | "exec">): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c
      where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace
        and pg_relation_size(c.oid) / 8192 >= $1
        and (c.reltuples < 0 or pg_relation_size(c.oid) / 8192 > 2 * c.relpages
             or pg_relation_size(c.oid) / 8192 < c.relpages / 2)
      order by c.relname`,
    [MIN_PAGES],
  );
  const names = rows.map((row) => row.name);
  if (names.length) await client.exec(`analyze ${names.map((name) => `"${name.replaceAll('"', '""')}"`).join(", ")}`);
  return names;
}
