/**
 * Opens the database and applies the committed migrations
 * (`app/db/migrations/`): a PostgreSQL server when `DATABASE_URL` is set,
 * otherwise the embedded PGlite in `{DATA_DIR}/pglite` (created if missing).
 *
 * `openDatabase({ databaseUrl, dataDir })` resolves to `{ db, kind, close }`.
 * @throws DatabaseOpenError naming the setting (DATABASE_URL or DATA_DIR)
 *   when the server cannot be reached or the folder cannot be used.
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema";

/** Either driver, seen through Drizzle's common PostgreSQL interface. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface OpenDatabase {
  db: Database;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

export class DatabaseOpenError extends Error {
  override name = "DatabaseOpenError";
}

const migrationsFolder = path.resolve("app", "db", "migrations");

/** Key of the PostgreSQL advisory lock held while migrating (any fixed number). */
const MIGRATION_LOCK = 4_242_001;

export async function openDatabase({
  databaseUrl,
  dataDir,
  onPoolError,
}: {
  databaseUrl?: string;
  dataDir: string;
  /** Called when an idle pooled connection fails (e.g. the server restarts); without it such errors are ignored. */
  onPoolError?: (error: Error) => void;
}): Promise<OpenDatabase> {
  if (databaseUrl) {
    // query_timeout: a query on a connection that died mid-way rejects instead of waiting forever.
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5000,
      query_timeout: 15_000,
    });
    pool.on("error", (error) => onPoolError?.(error));
    // A connection that dies while checked out (server restart) must not crash the process.
    pool.on("connect", (client) => client.on("error", (error) => onPoolError?.(error)));
    const db = drizzleNodePg(pool, { schema });
    try {
      // Several processes may start at once on one server: migrate one at a time.
      const lock = await pool.connect();
      try {
        await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
        await migrateNodePg(db, { migrationsFolder });
      } finally {
        await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
        lock.release();
      }
    } catch (error) {
      await pool.end().catch(() => {});
      throw new DatabaseOpenError(`DATABASE_URL: cannot use the PostgreSQL server (${(error as Error).message})`);
    }
    // pool.end() waits for every borrowed connection; one stuck on a dead server must not block shutdown.
    const close = () => Promise.race([pool.end(), new Promise<void>((resolve) => setTimeout(resolve, 3000).unref())]);
    return { db: db as unknown as Database, kind: "postgres", close };
  }

  const directory = path.resolve(dataDir, "pglite");
  let client: PGlite;
  try {
    fs.mkdirSync(directory, { recursive: true });
    client = await PGlite.create(directory);
  } catch (error) {
    throw new DatabaseOpenError(
      `DATA_DIR: cannot open the embedded database in ${directory} (${(error as Error).message})`,
    );
  }
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Database, kind: "pglite", close: () => client.close() };
}
