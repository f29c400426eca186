/**
 * Backups of the database while the site runs, and their restore
 * (`npm run backup`, `npm run restore`: scripts/backup.ts; issue 33, item 11).
 *
 * - Embedded PGlite: only the process holding `DATA_DIR` may read it. When a
 *   server runs, `backupEmbedded` writes a request into `DATA_DIR`
 *   (`backup-request.json`, the archive's absolute path) and sends the
 *   server SIGUSR2; the server (`answerBackupRequest`) dumps its data folder
 *   (`OpenDatabase.dump`, a consistent gzipped tarball) and writes the
 *   archive, or `{archive}.error` with the reason. With no server running,
 *   the script takes the lock and dumps the folder itself (no migration is
 *   applied: a backup is taken before an update, with the new code).
 *   `restoreEmbedded` refuses while a server runs, makes the archive into a
 *   new folder beside the current one, then swaps them, keeping the old one
 *   as `pglite.before-restore-{time}`.
 * - PostgreSQL: `pg_dump --format=custom` and `pg_restore --clean`
 *   (Debian's postgresql-client, of the server's major version or newer).
 *
 * Every archive is written as `{archive}.part`, then renamed: a copy that
 * exists is complete. Errors thrown are in French: the owner runs the script.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { Logger } from "pino";
import { PGLITE_EXTENSIONS, type OpenDatabase } from "./client.server";
import { liveHolder, lockDataDir } from "./data-dir-lock.server";
import { errorFields } from "./errors.server";

/** The request `npm run backup` leaves in DATA_DIR for the running server. */
export const BACKUP_REQUEST_FILE = "backup-request.json";

/** Writes `bytes` to `target` through `{target}.part` and a rename: `target` never exists half-written. */
function writeAtomically(target: string, bytes: Uint8Array): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const part = `${target}.part`;
  fs.writeFileSync(part, bytes);
  fs.renameSync(part, target);
}

/**
 * In the server, on SIGUSR2: writes the archive `npm run backup` asked for in
 * `dataDir` (the request is removed). Never throws: a failure goes to
 * `{archive}.error` for the script and to the log; a signal without a
 * request is logged and ignored.
 */
export async function answerBackupRequest(database: OpenDatabase, dataDir: string, logger: Logger): Promise<void> {
  const requestFile = path.join(dataDir, BACKUP_REQUEST_FILE);
  let archive: string;
  try {
    archive = (JSON.parse(fs.readFileSync(requestFile, "utf8")) as { archive: string }).archive;
    fs.rmSync(requestFile, { force: true });
  } catch {
    logger.warn("backup: SIGUSR2 received without a request from npm run backup: ignored");
    return;
  }
  try {
    if (!database.dump) throw new Error("ce site utilise PostgreSQL (DATABASE_URL) : npm run backup passe par pg_dump");
    const bytes = await database.dump();
    writeAtomically(archive, bytes);
    logger.info({ archive, bytes: bytes.length }, "backup: archive written");
  } catch (error) {
    logger.error({ err: errorFields(error) }, "backup: failed");
    fs.writeFileSync(`${archive}.error`, (error as Error).message);
  }
}

/**
 * A backup of the embedded database in `dataDir` to `archive` (a gzipped
 * tarball of PGlite's folder), asked of the running server or, when none
 * runs, taken here. Resolves with which it was.
 * @throws Error when the folder holds no database, when the server answers
 *   with an error (its reason), or after `timeoutMs` without an answer.
 */
export async function backupEmbedded(
  dataDir: string,
  archive: string,
  { timeoutMs = 600_000 }: { timeoutMs?: number } = {},
): Promise<"by the running server" | "with the site stopped"> {
  const target = path.resolve(archive);
  if (!fs.existsSync(path.join(dataDir, "pglite", "PG_VERSION")))
    throw new Error(`DATA_DIR : le dossier ${path.resolve(dataDir)} ne contient pas de base intégrée`);
  fs.rmSync(`${target}.error`, { force: true });
  const holder = liveHolder(dataDir);
  if (holder) {
    fs.writeFileSync(path.join(dataDir, BACKUP_REQUEST_FILE), JSON.stringify({ archive: target }));
    process.kill(holder.pid, "SIGUSR2");
    for (const started = Date.now(); Date.now() - started < timeoutMs;) {
      if (fs.existsSync(target)) return "by the running server";
      if (fs.existsSync(`${target}.error`)) {
        const reason = fs.readFileSync(`${target}.error`, "utf8");
        fs.rmSync(`${target}.error`, { force: true });
        throw new Error(`le site en marche (pid ${holder.pid}) n’a pas pu écrire la sauvegarde : ${reason}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`le site en marche (pid ${holder.pid}) n’a pas répondu en ${timeoutMs / 1000} s`);
  }
  const lock = lockDataDir(dataDir);
  try {
    const database = await PGlite.create(path.join(dataDir, "pglite"), { extensions: PGLITE_EXTENSIONS });
    try {
      writeAtomically(target, new Uint8Array(await (await database.dumpDataDir("gzip")).arrayBuffer()));
    } finally {
      await database.close();
    }
  } finally {
    lock.release();
  }
  return "with the site stopped";
}

/**
 * Restores `archive` (made by `backupEmbedded`) as the embedded database of
 * `dataDir` (made if missing). The current folder is kept beside it.
 * @returns the folder the previous database was moved to, or null if there was none.
 * @throws Error when a server runs on `dataDir` (stop it first), or when the
 *   archive is not a PGlite data folder (nothing is changed then).
 */
export async function restoreEmbedded(dataDir: string, archive: string): Promise<string | null> {
  const holder = liveHolder(dataDir);
  if (holder)
    throw new Error(
      `DATA_DIR : le dossier ${path.resolve(dataDir)} est utilisé par le site en marche (pid ${holder.pid}) : arrêtez d’abord le site`,
    );
  fs.mkdirSync(dataDir, { recursive: true });
  const lock = lockDataDir(dataDir);
  const draft = path.join(dataDir, `pglite.restore-${process.pid}`);
  try {
    fs.rmSync(draft, { recursive: true, force: true });
    const bytes = fs.readFileSync(archive);
    const database = await PGlite.create(draft, { loadDataDir: new Blob([bytes]), extensions: PGLITE_EXTENSIONS });
    try {
      await database.query("select 1");
    } finally {
      await database.close();
    }
    const current = path.join(dataDir, "pglite");
    let aside: string | null = null;
    if (fs.existsSync(current)) {
      aside = `${current}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      fs.renameSync(current, aside);
    }
    fs.renameSync(draft, current);
    return aside;
  } catch (error) {
    fs.rmSync(draft, { recursive: true, force: true });
    throw error;
  } finally {
    lock.release();
  }
}

/**
 * The path of PostgreSQL's `tool` (`pg_dump`, `pg_restore`): on PATH, else
 * the newest of Debian's `/usr/lib/postgresql/{major}/bin`.
 * @throws Error naming the package to install when there is none.
 */
export function postgresTool(tool: "pg_dump" | "pg_restore"): string {
  const onPath = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
  if (onPath) return onPath;
  const root = "/usr/lib/postgresql";
  const majors = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((major) => fs.existsSync(path.join(root, major, "bin", tool)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!majors[0])
    throw new Error(`${tool} introuvable : installez postgresql-client (de la version du serveur ou plus récent)`);
  return path.join(root, majors[0], "bin", tool);
}

/** Runs `tool` with `args`. @throws Error with the tool's own message when it fails. */
function run(tool: "pg_dump" | "pg_restore", args: string[]): void {
  const result = spawnSync(postgresTool(tool), args, { encoding: "utf8" });
  if (result.status !== 0)
    throw new Error(`${tool} a échoué : ${(result.stderr || result.error?.message || "").trim()}`);
}

/** A `pg_dump --format=custom` of `databaseUrl` to `archive`. @throws Error as `run` does. */
export function backupPostgres(databaseUrl: string, archive: string): void {
  const target = path.resolve(archive);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  run("pg_dump", ["--format=custom", "--no-owner", `--file=${target}.part`, databaseUrl]);
  fs.renameSync(`${target}.part`, target);
}

/**
 * Restores `archive` (a `pg_dump --format=custom`) into `databaseUrl`, in one
 * transaction: what the archive holds replaces what the database holds.
 * @throws Error as `run` does; nothing is changed then.
 */
export function restorePostgres(databaseUrl: string, archive: string): void {
  run("pg_restore", [
    "--clean",
    "--if-exists",
    "--no-owner",
    "--single-transaction",
    `--dbname=${databaseUrl}`,
    archive,
  ]);
}
