/**
 * Databases for tests: a throwaway PostgreSQL 15 cluster from Debian's
 * packages (when installed) with a migrated template each file copies, and
 * the migrated PGlite folder test sites copy.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { articlesDirectory } from "../../app/blog/directory.server";
import { openDatabase, PGLITE_EXTENSIONS, type Database } from "../../app/db/client.server";
import { articles } from "../../app/db/schema";
import { CACHE_ENV } from "./scratch";
import { freePort } from "./network";

/** Debian's PostgreSQL binaries, or null when PostgreSQL is not installed. */
export function postgresBinaries(): string | null {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).filter((name) => fs.existsSync(path.join(root, name, "bin", "pg_ctl")));
  return versions.length ? path.join(root, versions.sort().at(-1)!, "bin") : null;
}

/** A PostgreSQL database for a test: its URL, and how to drop or stop it. */
export interface TestPostgres {
  /** `postgres://…/<database>`: a database of its own. */
  url: string;
  port: number;
  /** Stops the cluster (an outage) / starts it again: clusters of their own only (`{ own: true }`). */
  start(): void;
  stop(): void;
  /** Removes the database (or the cluster of its own). */
  destroy(): void;
}

/** The name of the migrated database that `startPostgres` copies in the run's shared cluster. */
const TEMPLATE_DATABASE = "site_template";

/**
 * The environment variable through which the integration tests' global
 * setup hands the run's shared cluster (its `postgres` database's URL) to
 * the test files.
 */
export const SHARED_POSTGRES_ENV = "TEST_SHARED_POSTGRES_URL";

/**
 * A throwaway PostgreSQL cluster (fsync off) on a free port, owned by the
 * `postgres` user when running as root, with an empty database `site`.
 * `stop()` / `start()` simulate an outage; `destroy()` removes it.
 * @throws when PostgreSQL is not installed.
 */
export async function startPostgresCluster(): Promise<TestPostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("PostgreSQL is not installed (apt-get install -y postgresql)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pg-test-"));
  const asRoot = process.getuid?.() === 0;
  fs.chmodSync(dir, 0o777);
  const run = (command: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, command), ...args], { stdio: "pipe" })
      : execFileSync(path.join(bin, command), args, { stdio: "pipe" });
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  const start = () => void run("pg_ctl", ["-D", data, "-o", options, "-w", "-l", path.join(dir, "log"), "start"]);
  const stop = () => void run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  start();
  const watchdog = watchCluster(dir, data);
  run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "site"]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/site`,
    port,
    start,
    stop,
    destroy() {
      watchdog.kill();
      spawnSync(
        asRoot ? "runuser" : path.join(bin, "pg_ctl"),
        asRoot
          ? ["-u", "postgres", "--", path.join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"]
          : ["-D", data, "-m", "immediate", "stop"],
        { stdio: "ignore" },
      );
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A process that stops the cluster of `data` and removes `dir` once this
 * process is gone, however it ended: Vitest exits on SIGINT or SIGTERM
 * without running its global teardown, and a killed worker runs no
 * `afterAll`; a cluster left behind would run on with its folder deleted.
 * It checks every second (`kill -0`), then shuts the postmaster down at
 * once (SIGQUIT to the pid in `postmaster.pid`: PostgreSQL's immediate
 * shutdown). Its own process group: a Ctrl-C to the run does not stop it.
 * `destroy()` kills it first.
 */
function watchCluster(dir: string, data: string): ChildProcess {
  const script =
    'while kill -0 "$OWNER" 2>/dev/null; do sleep 1; done; ' +
    'pid=$(head -n 1 "$DATA/postmaster.pid" 2>/dev/null) && kill -QUIT "$pid" 2>/dev/null; ' +
    'sleep 2; rm -rf "$DIR"';
  const watchdog = spawn("sh", ["-c", script], {
    detached: true,
    stdio: "ignore",
    env: { PATH: process.env.PATH, OWNER: String(process.pid), DATA: data, DIR: dir },
  });
  watchdog.unref();
  return watchdog;
}

/**
 * Makes `site_template` in the cluster of `adminUrl` (any database of it):
 * a database migrated by the site's own `openDatabase` (with an auth secret), which
 * `startPostgres` copies (`CREATE DATABASE … TEMPLATE`, milliseconds).
 */
export async function preparePostgresTemplate(adminUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DATABASE}`);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ databaseUrl: withDatabase(adminUrl, TEMPLATE_DATABASE), dataDir: "unused" });
  await asAfterFirstStart(database.db);
  await database.close();
}

/**
 * Makes a template what a site's database is after its first start: an auth
 * secret (`resolveAuthSecret`; every copy shares it, so an owner made once in
 * a test process can be copied into any of them, `createOwner`), and the
 * repository's articles imported with their HTML (`importArticleFiles`, the
 * blog's start step: each start of a copy then finds them there, where every
 * start imported and rendered them; a site started on 2.6–2.9 s of CPU, now
 * 1.6–1.7 s, decision 073).
 */
async function asAfterFirstStart(db: Database): Promise<void> {
  // Imported here: Better Auth and the Markdown pipeline, which the harness's other users never need.
  const { resolveAuthSecret } = await import("../../app/desk/auth.server");
  const { importArticleFiles } = await import("../../app/blog/store.server");
  await resolveAuthSecret(db, undefined);
  await importArticleFiles(db);
}

/** `url` naming database `name` instead. */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * A PostgreSQL database of the caller's own. In the integration tests (the
 * global setup started one cluster for the run), a copy of the migrated
 * template in that cluster, made in milliseconds; elsewhere (benchmarks), or
 * with `{ own: true }` for a test that stops the server (an outage), a
 * cluster of its own (`startPostgresCluster`, a few seconds).
 * @throws when PostgreSQL is not installed.
 */
export async function startPostgres({ own = false }: { own?: boolean } = {}): Promise<TestPostgres> {
  const shared = process.env[SHARED_POSTGRES_ENV];
  if (own || !shared) return startPostgresCluster();
  const name = `test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: shared });
  await admin.connect();
  try {
    // Two files copying the template at the same moment: PostgreSQL refuses the second while the first copies.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${TEMPLATE_DATABASE}`);
        break;
      } catch (error) {
        if (attempt >= 50 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await admin.end();
  }
  const unsupported = () => {
    throw new Error("a database in the run's shared cluster cannot be stopped: startPostgres({ own: true })");
  };
  return {
    url: withDatabase(shared, name),
    port: Number(new URL(shared).port),
    start: unsupported,
    stop: unsupported,
    // The cluster goes at the end of the run; a database left with open connections goes with it.
    destroy() {},
  };
}

/**
 * A prepared, migrated PGlite folder (with an auth secret) that test servers copy instead of
 * creating their own (DESIGN.md: creating one takes 3-5 s and 800 MB;
 * copying, a few milliseconds). Its name carries a hash of the migrations,
 * so a new migration makes a new template. Made by the integration tests'
 * global setup (`ensurePgliteTemplate`); absent, servers create their own.
 */
export function pgliteTemplatePath(): string {
  const migrations = path.resolve("app", "db", "migrations");
  // "auth-secret": templates hold an auth secret since 2026-11-27, and the repository's articles since
  // 2026-11-28 (`asAfterFirstStart`): a changed article makes a new template too.
  const hash = crypto.createHash("sha256").update("auth-secret");
  for (const [folder, extension] of [
    [articlesDirectory(), ".md"],
    [migrations, ".sql"],
  ] as const)
    for (const name of fs
      .readdirSync(folder)
      .filter((file) => file.endsWith(extension))
      .sort())
      hash.update(name).update(fs.readFileSync(path.join(folder, name)));
  // Kept between runs: in the folder above each run's own (tests/support/scratch.ts).
  return path.join(process.env[CACHE_ENV] ?? os.tmpdir(), `site-pglite-template-${hash.digest("hex").slice(0, 12)}`);
}

/**
 * How long a template no process used is kept: each is about 41 MB, in memory when the cache folder
 * is under /dev/shm, and every changed migration or article makes a new one. A run's processes mark
 * theirs as used (`markTemplateUsed`), so a run of another checkout keeps its own meanwhile.
 */
const UNUSED_TEMPLATE_KEPT_MS = 6 * 3600_000;

/** Whether this process marked its template as used (`markTemplateUsed`). */
let templateMarked = false;

/** Sets the modification time of `template`'s folder to now, once per process: "in use". */
function markTemplateUsed(template: string): void {
  if (templateMarked) return;
  templateMarked = true;
  const now = new Date();
  fs.utimesSync(template, now, now);
}

/**
 * Creates the PGlite template (see `pgliteTemplatePath`) unless it exists, and removes the other
 * templates of the cache folder that no process used for `UNUSED_TEMPLATE_KEPT_MS`.
 */
export async function ensurePgliteTemplate(): Promise<void> {
  const template = pgliteTemplatePath();
  const folder = path.dirname(template);
  for (const name of fs.existsSync(folder) ? fs.readdirSync(folder) : []) {
    const other = path.join(folder, name);
    if (!/^site-pglite-template-[0-9a-f]{12}$/.test(name) || other === template) continue;
    if (fs.statSync(other).mtimeMs < Date.now() - UNUSED_TEMPLATE_KEPT_MS)
      fs.rmSync(other, { recursive: true, force: true });
  }
  if (fs.existsSync(path.join(template, "pglite", "PG_VERSION"))) return markTemplateUsed(template);
  const draft = `${template}.draft-${process.pid}`;
  const { openDatabase } = await import("../../app/db/client.server");
  const database = await openDatabase({ dataDir: draft });
  await asAfterFirstStart(database.db);
  await database.close();
  fs.rmSync(template, { recursive: true, force: true });
  fs.renameSync(draft, template);
}

/**
 * A fresh DATA_DIR whose database holds no article (the template's removed), for a site started
 * with a `BLOG_CONTENT_DIR` of its own: its blog is exactly those files.
 */
export async function dataDirWithoutArticles(): Promise<string> {
  const dataDir = freshDataDir();
  await (await openWithoutArticles(dataDir)).close();
  return dataDir;
}

/** `dataDir`'s database opened, the repository's articles the template holds (`asAfterFirstStart`) removed. */
async function openWithoutArticles(dataDir: string) {
  const database = await openDatabase({ dataDir });
  await database.db.delete(articles);
  return database;
}

/** A fresh DATA_DIR for a test server: a copy of the template when there is one, else empty. */
export function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "site-data-"));
  const template = path.join(pgliteTemplatePath(), "pglite");
  if (fs.existsSync(path.join(template, "PG_VERSION"))) {
    markTemplateUsed(path.dirname(template));
    fs.cpSync(template, path.join(dir, "pglite"), { recursive: true });
  }
  return dir;
}

/**
 * The migrations a deployed site had applied before an upgrade: a copy of
 * app/db/migrations up to the one before the migration whose tag ends with
 * `upgradeTag` (e.g. `"_course_tokens"`), for Drizzle's `migrate`. The
 * caller removes the folder.
 * @throws when no migration after the first has such a tag.
 */
export function migrationsBefore(upgradeTag: string): string {
  const source = path.resolve("app", "db", "migrations");
  const journal = JSON.parse(fs.readFileSync(path.join(source, "meta", "_journal.json"), "utf8"));
  const upgrade = journal.entries.findIndex((entry: { tag: string }) => entry.tag.endsWith(upgradeTag));
  if (upgrade < 1) throw new Error(`no migration after the first ends with ${upgradeTag}`);
  journal.entries = journal.entries.slice(0, upgrade);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "site-migrations-previous-"));
  fs.mkdirSync(path.join(folder, "meta"));
  fs.writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  for (const { tag } of journal.entries)
    fs.copyFileSync(path.join(source, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  return folder;
}

/**
 * A DATA_DIR as a deployed site left it before an upgrade: PGlite migrated
 * by `migrationsBefore(upgradeTag)`, then `seed(client)` writes rows as that
 * version wrote them. Opening it (`openDatabase`, or
 * `startTestServer({ DATA_DIR })`) applies the upgrade. The caller removes `dir`.
 * @returns the folder and what `seed` resolved with.
 * @throws as `migrationsBefore` does.
 */
export async function dataDirBeforeMigration<T>(
  upgradeTag: string,
  seed: (client: PGlite) => Promise<T>,
): Promise<{ dir: string; seeded: T }> {
  const folder = migrationsBefore(upgradeTag);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "site-data-previous-"));
  const client = await PGlite.create(path.join(dir, "pglite"), { extensions: PGLITE_EXTENSIONS });
  try {
    await migrate(drizzle(client), { migrationsFolder: folder });
    return { dir, seeded: await seed(client) };
  } finally {
    await client.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** A database of a test file's own (`openTestDatabase`). */
export interface TestDatabase {
  db: Database;
  /** Closes it and removes its folder. */
  close(): Promise<void>;
}

/**
 * A migrated PGlite database on a fresh DATA_DIR (`freshDataDir`), without
 * articles, for a test file that calls the app's functions without a server:
 * open it in `beforeAll`, close it in `afterAll`.
 * @throws as `openDatabase` does.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const dataDir = freshDataDir();
  // A test of these functions writes the articles it reads.
  const database = await openWithoutArticles(dataDir);
  return {
    db: database.db,
    async close() {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Opens a stopped site's PGlite folder, runs `read` on it, and closes it. */
export async function readStoppedDatabase<T>(dataDir: string, read: (db: PGlite) => Promise<T>): Promise<T> {
  const db = await PGlite.create(path.join(dataDir, "pglite"), { extensions: PGLITE_EXTENSIONS });
  try {
    return await read(db);
  } finally {
    await db.close();
  }
}

/** The e-mail addresses of the contact requests in a stopped site's PGlite folder, in arrival order. */
export function storedEmails(dataDir: string): Promise<string[]> {
  return readStoppedDatabase(dataDir, async (db) =>
    (await db.query<{ email: string }>("select email from contacts order by id")).rows.map((row) => row.email),
  );
}
