/**
 * Going back a version (issue 33, item 9): a database that a newer version
 * migrated is refused at start, in English and French, naming both
 * versions, and left as it was; a DATA_DIR the operator named that does not
 * exist is refused unless DATA_DIR_CREATE=1; the start-up log names the
 * folder in use.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pg from "pg";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../app/db/client.server";
import { codeMigrations } from "../../app/db/migrations.server";
import { startServer } from "../../server/main";
import {
  freshDataDir,
  postgresBinaries,
  readStoppedDatabase,
  startPostgres,
  startTestServer,
  testSettings,
} from "../support/harness";

const code = codeMigrations(path.resolve("app", "db", "migrations"));
/** The time of a migration a version released a day after this one would record. */
const newerAt = code.newestAt + 86_400_000;
const newerDay = new Date(newerAt).toISOString().slice(0, 10);
const RECORD_NEWER = `insert into drizzle.__drizzle_migrations (hash, created_at) values ('a-newer-release', ${newerAt})`;
const COUNT = "select count(*)::int as count from drizzle.__drizzle_migrations";

/** Both languages of the refusal, naming the database's migrations and the code's. */
function expectRefusal(message: string, setting: string) {
  expect(message).toContain(`${setting}: the database in`);
  expect(message).toContain(
    `was migrated by a newer version of the site (${code.count + 1} migrations, the newest of ${newerDay})`,
  );
  expect(message).toContain(`this version knows ${code.count}, up to ${code.newestTag}`);
  expect(message).toContain("restore the backup taken before the update");
  expect(message).toContain(`${setting} : la base de données`);
  expect(message).toContain("a été mise à jour par une version plus récente du site");
  expect(message).toContain("restaurez la sauvegarde faite avant la mise à jour");
}

describe("a database migrated by a newer version", () => {
  it("on PGlite: the site refuses to start, and the database keeps every migration and row it had", async () => {
    const dataDir = freshDataDir();
    try {
      const opened = await openDatabase({ dataDir });
      await opened.db.execute(RECORD_NEWER);
      await opened.close();

      const refused = await startServer({
        settings: testSettings({ DATA_DIR: dataDir }),
        logger: pino({ level: "silent" }),
      }).then(
        () => null,
        (error: Error) => error,
      );
      expect(refused?.name).toBe("UnknownMigrationsError");
      expectRefusal(refused!.message, "DATA_DIR");
      expect(refused!.message).toContain(path.join(path.resolve(dataDir), "pglite"));

      const count = await readStoppedDatabase(
        dataDir,
        async (db) => (await db.query<{ count: number }>(COUNT)).rows[0]!.count,
      );
      expect(count).toBe(code.count + 1);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!postgresBinaries())("on PostgreSQL: the site refuses to start, and applies nothing", async () => {
    const postgres = await startPostgres();
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      await client.query(RECORD_NEWER);
      const refused = await openDatabase({ databaseUrl: postgres.url, dataDir: "unused" }).then(
        async (opened) => {
          await opened.close();
          return null;
        },
        (error: Error) => error,
      );
      expect(refused?.name).toBe("UnknownMigrationsError");
      expectRefusal(refused!.message, "DATABASE_URL");
      expect((await client.query<{ count: number }>(COUNT)).rows[0]!.count).toBe(code.count + 1);
    } finally {
      await client.end();
      postgres.destroy();
    }
  });

  it("opens as before when it holds exactly the code's migrations", async () => {
    const dataDir = freshDataDir();
    try {
      const opened = await openDatabase({ dataDir });
      const { rows } = (await opened.db.execute(COUNT)) as unknown as { rows: { count: number }[] };
      expect(rows[0]!.count).toBe(code.count);
      await opened.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("DATA_DIR", () => {
  it("that does not exist is refused, naming it, unless DATA_DIR_CREATE=1; the log names the folder in use", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "site-missing-"));
    const missing = path.join(parent, "data");
    try {
      const refused = await startServer({
        settings: testSettings({ DATA_DIR: missing }),
        logger: pino({ level: "silent" }),
      }).then(
        () => null,
        (error: Error) => error,
      );
      expect(refused?.message).toContain(`DATA_DIR: ${missing} does not exist`);
      expect(refused?.message).toContain("DATA_DIR_CREATE=1");
      expect(refused?.message).toContain(`le dossier ${missing} n’existe pas`);
      expect(fs.existsSync(missing), "nothing made").toBe(false);

      const lines: string[] = [];
      const logger = pino(
        { level: "info" },
        new Writable({
          write(chunk, _encoding, done) {
            lines.push(String(chunk));
            done();
          },
        }),
      );
      const site = await startTestServer({ DATA_DIR: missing, DATA_DIR_CREATE: "1" }, logger);
      await site.close();
      expect(lines.join("")).toContain(`database: embedded PGlite in ${missing} (DATA_DIR)`);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
