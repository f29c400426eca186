/**
 * Opens the database and applies the committed migrations
 * (`app/db/migrations/`): a PostgreSQL server when `DATABASE_URL` is set,
 * otherwise the embedded PGlite in `{DATA_DIR}/pglite`.
 *
 * The embedded database is locked to this process (`data-dir-lock.server.ts`).
 * A missing one is created by a short-lived child process in
 * `{DATA_DIR}/pglite.new-{pid}`, then renamed into place: a failed first
 * start leaves nothing half-made, and this process never holds the memory
 * PostgreSQL's initdb takes (about 800 MB, never given back by WebAssembly).
 * Each of PGlite's statements takes its turn of the event loop
 * (`takeTurns`, event-loop-turns.server.ts): it runs in the server's thread.
 * PGlite runs with `shared_buffers=16MB` (PostgreSQL's default is 128 MB;
 * the site's tables are a few megabytes): about 180 MB resident instead of
 * 300 (docs/performance.md). It runs single-user, without autovacuum: each
 * start analyses the tables that need it after the migrations, before the
 * server listens (`refreshStatistics`, statistics.server.ts; decision 071).
 *
 * `openDatabase({ databaseUrl, dataDir })` resolves to `{ db, kind, close }`.
 * @throws DataDirLockedError when another process uses `DATA_DIR`.
 * @throws UnknownMigrationsError when a newer version of the site migrated
 *   the database (`migrations.server.ts`): nothing is changed.
 * @throws DatabaseOpenError naming the setting (DATABASE_URL or DATA_DIR)
 *   and the cause (the disk is full, a read-only folder, ...) when the server
 *   cannot be reached or the folder cannot be used, or when `DATA_DIR` does
 *   not exist and `createDataDir` is false.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { errorFields } from "./errors.server";
import { takeTurns } from "./event-loop-turns.server";
import { lockDataDir } from "./data-dir-lock.server";
import { refuseUnknownMigrations, UnknownMigrationsError } from "./migrations.server";
import { postgresPool } from "./pool.server";
import { refreshStatistics } from "./statistics.server";
import * as schema from "./schema";

/** Either driver, seen through Drizzle's common PostgreSQL interface. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface OpenDatabase {
  db: Database;
  kind: "pglite" | "postgres";
  /**
   * Listens to `NOTIFY` on `channel` (see `ChannelListener`). Resolves once
   * listening; the returned function stops. Stopped by `close()` too.
   */
  listen(channel: string, listener: ChannelListener): Promise<() => Promise<void>>;
  /**
   * The embedded database's data folder as a gzipped tarball, consistent
   * (PGlite runs one statement at a time: the copy sits between two), taken
   * while the site keeps answering; PGlite's `dumpDataDir`. Absent on
   * PostgreSQL (`pg_dump` copies a server: app/db/backup.server.ts).
   */
  dump?: () => Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * What a `listen` caller is told. `message(payload)`: a notification of a
 * committed transaction. `connected(up)`: false when the listening
 * connection is lost (notifications sent meanwhile are lost with it), true
 * once it listens again; the embedded database, in this process, never
 * loses it, but says `connected(false)` when it is closed.
 */
export interface ChannelListener {
  message(payload: string): void;
  connected(up: boolean): void;
}

/** First and longest wait before a lost PostgreSQL listening connection is opened again. */
const RELISTEN_DELAY_MS = { first: 250, max: 10_000 };

/**
 * A dedicated PostgreSQL connection that runs `LISTEN channel` (a pooled
 * connection cannot: it would miss notifications between queries), opened
 * again after any loss with a doubling delay. One attempt at a time: a
 * failed attempt is only retried once, however many events its client
 * emits (a refused connection rejects `connect()` and then emits `end`).
 * @throws the driver's error when the first connection fails.
 */
async function listenOnPostgres(
  connectionString: string,
  channel: string,
  listener: ChannelListener,
  onError: (error: Error) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let delay = RELISTEN_DELAY_MS.first;
  let timer: NodeJS.Timeout | undefined;
  /** The next attempt, unless one is already planned. */
  const retryLater = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (stopped) return;
      connect().catch((error: Error) => {
        onError(error);
        retryLater();
      });
    }, delay);
    delay = Math.min(delay * 2, RELISTEN_DELAY_MS.max);
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
    let listening = false;
    // Only a connection that listened can be lost; a failed attempt is retried by whoever called connect().
    const onLoss = (error?: Error) => {
      if (!listening || stopped) return;
      listening = false;
      client = undefined;
      if (error) onError(error);
      listener.connected(false);
      next.end().catch(() => {});
      retryLater();
    };
    next.on("error", onLoss);
    next.on("end", () => onLoss());
    next.on("notification", (notification) => {
      if (notification.channel === channel) listener.message(notification.payload ?? "");
    });
    try {
      await next.connect();
      await next.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    } catch (error) {
      next.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      // Stopped while this attempt connected: nobody would end it.
      await next.end().catch(() => {});
      return;
    }
    client = next;
    listening = true;
    delay = RELISTEN_DELAY_MS.first;
    listener.connected(true);
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await client?.end().catch(() => {});
  };
}

export class DatabaseOpenError extends Error {
  override name = "DatabaseOpenError";
}

const migrationsFolder = path.resolve("app", "db", "migrations");

/** Key of the PostgreSQL advisory lock held while migrating (any fixed number). */
const MIGRATION_LOCK = 4_242_001;

/** Longest wait for another process's migrations at start. */
const MIGRATION_LOCK_WAIT_MS = 10 * 60_000;

export async function openDatabase({
  databaseUrl,
  dataDir,
  createDataDir = true,
  onPoolError,
}: {
  databaseUrl?: string;
  dataDir: string;
  /** Whether a missing `dataDir` is made (a new, empty site); the server passes DATA_DIR_CREATE. */
  createDataDir?: boolean;
  /** Called when an idle pooled connection fails (e.g. the server restarts); without it such errors are ignored. */
  onPoolError?: (error: Error) => void;
}): Promise<OpenDatabase> {
  if (databaseUrl) {
    const pool = postgresPool(databaseUrl);
    pool.on("error", (error) => onPoolError?.(error));
    // A connection that dies while checked out (server restart) must not crash the process.
    pool.on("connect", (client) => client.on("error", (error) => onPoolError?.(error)));
    const db = drizzleNodePg(pool, { schema });
    try {
      // Several processes may start at once on one server: migrate one at a time.
      const lock = await pool.connect();
      try {
        // As long as another process migrates (a loaded machine: past the 15 s of a query), not a failed start.
        await lock.query({
          text: "select pg_advisory_lock($1)",
          values: [MIGRATION_LOCK],
          query_timeout: MIGRATION_LOCK_WAIT_MS,
        } as pg.QueryConfig);
        await refuseUnknownMigrations(db, migrationsFolder, "DATABASE_URL", "the PostgreSQL server");
        await migrateNodePg(db, { migrationsFolder });
      } finally {
        await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
        lock.release();
      }
    } catch (error) {
      await pool.end().catch(() => {});
      if (error instanceof UnknownMigrationsError) throw error;
      throw new DatabaseOpenError(`DATABASE_URL: cannot use the PostgreSQL server (${(error as Error).message})`);
    }
    // pool.end() waits for every borrowed connection; one stuck on a dead server must not block shutdown.
    const listeners = new Set<() => Promise<void>>();
    const close = async () => {
      await Promise.all([...listeners].map((stop) => stop()));
      await Promise.race([pool.end(), new Promise<void>((resolve) => setTimeout(resolve, 3000).unref())]);
    };
    const listen = async (channel: string, listener: ChannelListener) => {
      const stop = await listenOnPostgres(databaseUrl, channel, listener, (error) => onPoolError?.(error));
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    };
    return { db: db as unknown as Database, kind: "postgres", listen, close };
  }

  const root = path.resolve(dataDir);
  const directory = path.join(root, "pglite");
  if (!createDataDir && !fs.existsSync(root)) {
    throw new DatabaseOpenError(
      `DATA_DIR: ${root} does not exist. Create the folder (or restore it), or set DATA_DIR_CREATE=1 to start a new, empty site there.\n` +
        `DATA_DIR : le dossier ${root} n’existe pas. Créez-le (ou restaurez-le), ou mettez DATA_DIR_CREATE=1 pour y démarrer un site neuf, vide.`,
    );
  }
  let lock: { release(): void };
  try {
    makeDirectory(root);
    lock = lockDataDir(root);
  } catch (error) {
    if ((error as Error).name === "DataDirLockedError") throw error;
    throw new DatabaseOpenError(`DATA_DIR: cannot use ${root}: ${explain(error)}`);
  }
  let client: PGlite | undefined;
  try {
    if (!fs.existsSync(path.join(directory, "PG_VERSION"))) await createPgliteDirectory(root, directory);
    client = takeTurns(
      await PGlite.create(directory, { postgresqlconf: PGLITE_CONFIGURATION, extensions: PGLITE_EXTENSIONS }),
    );
    const db = drizzlePglite(client, { schema });
    await refuseUnknownMigrations(db, migrationsFolder, "DATA_DIR", directory);
    await migratePglite(db, { migrationsFolder });
    // PGlite runs no autovacuum: without this its planner would never have statistics (decision 071).
    await refreshStatistics(client);
    const opened = client;
    const listening = new Set<ChannelListener>();
    const close = async () => {
      // No more announcements from a closed database: its listeners hear so first.
      for (const listener of listening) listener.connected(false);
      listening.clear();
      await opened.close();
      lock.release();
    };
    const listen = async (channel: string, listener: ChannelListener) => {
      const unlisten = await opened.listen(channel, (payload) => listener.message(payload));
      listening.add(listener);
      listener.connected(true);
      return async () => {
        listening.delete(listener);
        // Already closed with the database: nothing left to stop.
        if (!opened.closed) await unlisten();
      };
    };
    const dump = async () => new Uint8Array(await (await opened.dumpDataDir("gzip")).arrayBuffer());
    return { db: db as unknown as Database, kind: "pglite", listen, dump, close };
  } catch (error) {
    await client?.close().catch(() => {});
    lock.release();
    if (error instanceof UnknownMigrationsError) throw error;
    throw new DatabaseOpenError(`DATA_DIR: cannot open the embedded database in ${directory}: ${explain(error)}`);
  }
}

/**
 * Creates `directory` and its parents. Node's recursive mkdir reports ENOENT
 * where a parent cannot be written (a read-only file system): the folder is
 * then made one level at a time, which throws the real cause (EROFS, EACCES).
 */
function makeDirectory(directory: string): void {
  try {
    fs.mkdirSync(directory, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    const parent = path.dirname(directory);
    if (parent !== directory) makeDirectory(parent);
    fs.mkdirSync(directory);
  }
}

/** PostgreSQL settings of the embedded database (see the module's comment). */
const PGLITE_CONFIGURATION = ["shared_buffers=16MB"];

/**
 * The extensions every opening of an embedded database loads: pg_trgm
 * (migration 0037's trigram indexes of the desk's searches). A folder
 * holding those indexes opened without it fails on the first write to an
 * indexed table, so the backup, the restore and the tests' openings pass
 * these too.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** An operator's reading of an error: what went wrong, by its cause, without any data. */
function explain(error: unknown): string {
  const { cause, code, sqlState } = errorFields(error);
  const reason = cause ?? code;
  const readable: Record<string, string> = {
    ENOSPC: "the disk is full",
    EDQUOT: "the disk quota is used up",
    EROFS: "the folder is on a read-only file system",
    EACCES: "this process may not write in the folder",
    EPERM: "this process may not write in the folder",
  };
  if (reason && readable[reason]) return `${readable[reason]} (${reason})`;
  if (reason || sqlState) return `error ${[reason, sqlState].filter(Boolean).join(", ")}`;
  return (error as Error)?.message ?? String(error);
}

/**
 * Creates an empty PGlite database at `directory` through a child process
 * (see the module's comment). Leftovers of an earlier failed creation are
 * removed first (the lock says no one else uses them).
 * @throws an Error whose fields carry the child's error (`errno`, `code`).
 */
async function createPgliteDirectory(root: string, directory: string): Promise<void> {
  for (const name of fs.readdirSync(root)) {
    if (name.startsWith("pglite.new-")) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
  if (fs.existsSync(directory) && fs.readdirSync(directory).length > 0) {
    // Never delete what might be someone's data: say what to do.
    throw new Error(`${directory} exists but holds no PGlite database (no PG_VERSION): move it away, then start again`);
  }
  fs.rmSync(directory, { recursive: true, force: true });
  const draft = path.join(root, `pglite.new-${process.pid}`);
  const script = `
    const { PGlite } = await import("@electric-sql/pglite");
    try {
      const db = await PGlite.create(process.env.PGLITE_DIRECTORY, { postgresqlconf: ${JSON.stringify(PGLITE_CONFIGURATION)} });
      await db.close();
    } catch (error) {
      process.stderr.write(JSON.stringify({ name: error?.name, errno: error?.errno, code: error?.code, message: String(error?.message ?? error) }));
      process.exit(1);
    }`;
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
        env: { PATH: process.env.PATH, PGLITE_DIRECTORY: draft },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("error", reject);
      child.on("exit", (status, signal) => {
        if (status === 0) return resolve();
        let detail: Record<string, unknown> = { message: stderr.trim() || `exit ${status ?? signal}` };
        try {
          detail = JSON.parse(stderr.slice(stderr.indexOf("{")));
        } catch {
          // not our JSON: keep the text
        }
        reject(Object.assign(new Error(String(detail.message)), detail));
      });
    });
    fs.renameSync(draft, directory);
  } catch (error) {
    fs.rmSync(draft, { recursive: true, force: true });
    throw error;
  }
}
