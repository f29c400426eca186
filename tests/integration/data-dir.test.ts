/**
 * One server process per embedded database, and first starts that fail
 * cleanly: real server processes on one DATA_DIR, a full disk and a
 * read-only folder (small tmpfs mounts; skipped, with the reason printed,
 * where mounting is not allowed).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mountTmpfs, postContact, spawnSite, validForm, storedEmails, freshDataDir } from "../support/harness";

describe("two servers on one DATA_DIR", () => {
  const dataDir = freshDataDir();
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("the second exits at once, non-zero, naming the folder and the running process; the first keeps every request", async () => {
    const first = await spawnSite({ DATA_DIR: dataDir });
    await first.ready();
    const sent: string[] = [];
    for (let index = 0; index < 3; index++) {
      const email = `before${index}@example.ch`;
      expect((await postContact(first.url, validForm(email))).status).toBe(200);
      sent.push(email);
    }

    const second = await spawnSite({ DATA_DIR: dataDir });
    const code = await second.exited;
    expect(code).not.toBe(0);
    const message = second.log.join("\n");
    expect(message).toContain(path.resolve(dataDir));
    expect(message).toContain(`pid ${first.child.pid}`);
    expect(message).toMatch(/already used by another server process/);
    expect(message).toMatch(/déjà utilisé par un autre processus/);

    for (let index = 0; index < 3; index++) {
      const email = `after${index}@example.ch`;
      expect((await postContact(first.url, validForm(email))).status).toBe(200);
      sent.push(email);
    }
    expect(await first.stop()).toBe(0);
    expect(await storedEmails(dataDir)).toEqual(sent);
    expect(fs.existsSync(path.join(dataDir, "site.lock")), "the lock is released on a clean stop").toBe(false);
  }, 180_000);

  it("takes over the lock of a killed process at once", async () => {
    const killed = await spawnSite({ DATA_DIR: dataDir });
    await killed.ready();
    await killed.stop("SIGKILL");
    expect(fs.existsSync(path.join(dataDir, "site.lock")), "a killed process leaves its lock").toBe(true);
    const next = await spawnSite({ DATA_DIR: dataDir });
    await next.ready(30_000);
    expect((await postContact(next.url, validForm("next@example.ch"))).status).toBe(200);
    expect(await next.stop()).toBe(0);
  }, 180_000);
});

describe("a first start that fails", () => {
  it("on a full disk says so, leaves nothing half-made, and a later start with room succeeds", async (context) => {
    const disk = mountTmpfs(8);
    if ("skip" in disk) {
      console.log(`skipped: ${disk.skip}`);
      return context.skip();
    }
    try {
      const dataDir = path.join(disk.dir, "data");
      const full = await spawnSite({ DATA_DIR: dataDir, DATA_DIR_CREATE: "1" });
      expect(await full.exited).not.toBe(0);
      const log = full.log.join("\n");
      expect(log).toContain(`DATA_DIR: cannot open the embedded database in ${path.join(dataDir, "pglite")}`);
      expect(log).toContain("the disk is full (ENOSPC)");
      expect(fs.readdirSync(dataDir), "no pglite folder, no draft, no lock").toEqual([]);

      disk.resize(200);
      const later = await spawnSite({ DATA_DIR: dataDir, DATA_DIR_CREATE: "1" });
      await later.ready();
      expect((await postContact(later.url, validForm())).status).toBe(200);
      expect(await later.stop()).toBe(0);
    } finally {
      disk.unmount();
    }
  }, 180_000);

  it("in a read-only folder says so", async (context) => {
    const disk = mountTmpfs(8, "ro");
    if ("skip" in disk) {
      console.log(`skipped: ${disk.skip}`);
      return context.skip();
    }
    try {
      const site = await spawnSite({ DATA_DIR: path.join(disk.dir, "data"), DATA_DIR_CREATE: "1" });
      expect(await site.exited).not.toBe(0);
      expect(site.log.join("\n")).toContain("read-only file system (EROFS)");
    } finally {
      disk.unmount();
    }
  }, 60_000);
});
