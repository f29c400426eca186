/**
 * The refusal of a database that a newer version of the site migrated
 * (issue 33, item 9): an older version started on it would run with tables
 * it does not know (a callback request answered 500, a series cancellation
 * freeing one seat of four). The code's migrations are Drizzle's
 * (`readMigrationFiles`, `meta/_journal.json` for their names); Drizzle
 * records each applied one in `drizzle.__drizzle_migrations` with its
 * folder's time (`created_at`), and applies only those newer than the last
 * recorded, so a recorded time past the code's newest is a migration this
 * code does not have.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";

/** Thrown by `refuseUnknownMigrations`; its message is for the operator, in English then French. */
export class UnknownMigrationsError extends Error {
  override name = "UnknownMigrationsError";
}

/** The code's migrations: how many, and the name and time (ms since 1970) of the newest. */
export function codeMigrations(migrationsFolder: string): { count: number; newestTag: string; newestAt: number } {
  const files = readMigrationFiles({ migrationsFolder });
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  const newest = journal.entries.at(-1);
  return {
    count: files.length,
    newestTag: newest?.tag ?? "none",
    newestAt: Math.max(0, ...files.map((file) => file.folderMillis)),
  };
}

/**
 * Resolves when every migration recorded in `db` is one of the code's (or
 * none is recorded yet: a new database).
 * @param setting names what the operator set, e.g. "DATA_DIR" or "DATABASE_URL".
 * @param where the folder or "the PostgreSQL server", for the message.
 * @throws UnknownMigrationsError naming both versions (the database's count
 *   of migrations and the date of its newest; the code's count and newest
 *   name) and what to do, when the database holds a migration the code does
 *   not know. Errors of the database itself are thrown as they come.
 */
export async function refuseUnknownMigrations(
  db: PgDatabase<PgQueryResultHKT, Record<string, unknown>>,
  migrationsFolder: string,
  setting: string,
  where: string,
): Promise<void> {
  const exists = await db.execute<{ table: string | null }>(
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as "table"`,
  );
  if (!rowsOf<{ table: string | null }>(exists)[0]?.table) return;
  const recorded = rowsOf<{ count: number; newest: string | null }>(
    await db.execute<{ count: number; newest: string | null }>(
      sql`select count(*)::int as "count", max(created_at)::text as "newest" from drizzle.__drizzle_migrations`,
    ),
  )[0];
  const code = codeMigrations(migrationsFolder);
  const newestRecorded = Number(recorded?.newest ?? 0);
  if (newestRecorded <= code.newestAt) return;
  const day = new Date(newestRecorded).toISOString().slice(0, 10);
  const applied = recorded?.count ?? 0;
  throw new UnknownMigrationsError(
    `${setting}: the database in ${where} was migrated by a newer version of the site ` +
      `(${applied} migrations, the newest of ${day}); this version knows ${code.count}, up to ${code.newestTag}. ` +
      `Running it there could lose data: restore the backup taken before the update (docs/deploy.md, "Updating"), ` +
      `or start the newer version again.\n` +
      `${setting} : la base de données (${where}) a été mise à jour par une version plus récente du site ` +
      `(${applied} migrations, la dernière du ${day}) ; cette version n’en connaît que ${code.count}, jusqu’à ${code.newestTag}. ` +
      `La démarrer sur cette base pourrait perdre des données : restaurez la sauvegarde faite avant la mise à jour ` +
      `(docs/deploy.md, « Updating »), ou redémarrez la version plus récente.`,
  );
}

/** The rows of a result of either driver (node-postgres and PGlite both answer `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
