/**
 * The restore drill (issue 33, item 11): `npm run backup` copies the
 * database while the site runs and keeps answering, `npm run restore` puts
 * the copy back, and a site started on it holds exactly what was there at
 * the copy; on the embedded PGlite (the running server writes the archive)
 * and on PostgreSQL (pg_dump, pg_restore). The script is the subject: it
 * runs as a child process, as the owner runs it.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { commandArguments } from "../../tooling/build-server";
import { afterAll, describe, expect, it } from "vitest";
import {
  freshDataDir,
  postContact,
  postgresBinaries,
  spawnSite,
  startPostgres,
  startTestServer,
  storedEmails,
  validForm,
  waitFor,
} from "../support/harness";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "site-backup-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Runs `npm run backup|restore` (the compiled command itself, without npm) with `env`; resolves with its exit code and output. */
function script(command: "backup" | "restore", file: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [...commandArguments("backup", process.env.BUILD_DIR), command, file], {
      env: { ...process.env, DATABASE_URL: "", ...env },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe("the embedded database", () => {
  it("is copied by the running site, which keeps answering; restored into another folder, it holds what it held then", async () => {
    const dataDir = freshDataDir();
    const site = await spawnSite({ DATA_DIR: dataDir });
    const archive = path.join(work, "site.tar.gz");
    const restored = path.join(work, "restored");
    try {
      await site.ready();
      for (const email of ["avant1@example.ch", "avant2@example.ch"])
        expect((await postContact(site.url, validForm(email))).status).toBe(200);

      const backup = script("backup", archive, { DATA_DIR: dataDir });
      // The site answers while it writes the copy.
      expect((await fetch(`${site.url}/healthz`)).status).toBe(200);
      const done = await backup;
      expect(done.output).toContain(`Sauvegarde de la base intégrée écrite dans ${archive} (par le site en marche)`);
      expect(done.code).toBe(0);
      expect(fs.existsSync(`${archive}.part`), "no half-written copy left").toBe(false);
      // The log is buffered (decision 064): the line comes within a fraction of a second.
      await waitFor(
        () => site.log.some((line) => line.includes("backup: archive written")),
        5000,
        "the backup's log line",
      );

      expect((await postContact(site.url, validForm("apres@example.ch"))).status).toBe(200);
      const refused = await script("restore", archive, { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.output).toContain("est utilisé par le site en marche");
    } finally {
      expect(await site.stop()).toBe(0);
    }
    expect(await storedEmails(dataDir)).toEqual(["avant1@example.ch", "avant2@example.ch", "apres@example.ch"]);

    const restore = await script("restore", archive, { DATA_DIR: restored, DATA_DIR_CREATE: "1" });
    expect(restore.output).toContain(`Base intégrée restaurée depuis ${archive}`);
    expect(restore.code).toBe(0);
    const again = await spawnSite({ DATA_DIR: restored });
    try {
      await again.ready();
      expect((await postContact(again.url, validForm("ensuite@example.ch"))).status).toBe(200);
    } finally {
      expect(await again.stop()).toBe(0);
    }
    expect(await storedEmails(restored)).toEqual(["avant1@example.ch", "avant2@example.ch", "ensuite@example.ch"]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 240_000);

  it("is copied by the script itself when no site runs, and restored over the current one, which is kept aside", async () => {
    const dataDir = freshDataDir();
    const archive = path.join(work, "stopped.tar.gz");
    const site = await startTestServer({ DATA_DIR: dataDir });
    expect((await postContact(site.url, validForm("garde@example.ch"))).status).toBe(200);
    await site.close();

    const backup = await script("backup", archive, { DATA_DIR: dataDir });
    expect(backup.output).toContain("(le site étant arrêté)");
    expect(backup.code).toBe(0);

    const later = await startTestServer({ DATA_DIR: dataDir });
    expect((await postContact(later.url, validForm("perdu@example.ch"))).status).toBe(200);
    await later.close();

    const restore = await script("restore", archive, { DATA_DIR: dataDir });
    expect(restore.code).toBe(0);
    const aside = fs.readdirSync(dataDir).filter((name) => name.startsWith("pglite.before-restore-"));
    expect(aside).toHaveLength(1);
    expect(restore.output).toContain(aside[0]);
    expect(await storedEmails(dataDir)).toEqual(["garde@example.ch"]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 240_000);
});

describe.skipIf(!postgresBinaries())("PostgreSQL", () => {
  it("is dumped while the site runs and restored into another database that then holds what it held", async () => {
    const [live, scratch] = [await startPostgres(), await startPostgres()];
    const archive = path.join(work, "site.dump");
    const site = await startTestServer({ DATABASE_URL: live.url });
    try {
      expect((await postContact(site.url, validForm("pg-avant@example.ch"))).status).toBe(200);
      const backup = await script("backup", archive, { DATABASE_URL: live.url });
      expect(backup.output).toContain(`Sauvegarde de la base PostgreSQL écrite dans ${archive}`);
      expect(backup.code).toBe(0);
      expect((await postContact(site.url, validForm("pg-apres@example.ch"))).status).toBe(200);
    } finally {
      await site.close();
    }
    const restore = await script("restore", archive, { DATABASE_URL: scratch.url });
    expect(restore.code, restore.output).toBe(0);
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ email: string }>("select email from contacts order by id");
      expect(rows.map((row) => row.email)).toEqual(["pg-avant@example.ch"]);
    } finally {
      await client.end();
      live.destroy();
      scratch.destroy();
    }
  }, 240_000);
});
