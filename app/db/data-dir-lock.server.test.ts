import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirLockedError, LOCK_FILE, lockDataDir } from "./data-dir-lock.server";

const folders: string[] = [];
const folder = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lock-"));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const holder = (pid: number, extra: object = {}) =>
  JSON.stringify({ pid, hostname: os.hostname(), startTicks: null, since: "2026-11-24T00:00:00.000Z", ...extra });

describe("lockDataDir", () => {
  it("writes the holder's pid, and removes the lock on release", () => {
    const dir = folder();
    const lock = lockDataDir(dir);
    expect(JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
    lock.release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("refuses a folder held by a live process, naming the folder and its pid", async () => {
    const dir = folder();
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      fs.writeFileSync(path.join(dir, LOCK_FILE), holder(child.pid!));
      const error = (() => {
        try {
          lockDataDir(dir);
        } catch (thrown) {
          return thrown as Error;
        }
      })();
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect(error!.message).toContain(dir);
      expect(error!.message).toContain(`pid ${child.pid}`);
    } finally {
      child.kill();
    }
  });

  it("takes over the lock of a process that no longer runs, or of a reused pid", async () => {
    const dir = folder();
    const child = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => child.once("exit", resolve));
    fs.writeFileSync(path.join(dir, LOCK_FILE), holder(child.pid!));
    lockDataDir(dir).release();
    // A live pid whose start time differs from the one recorded: another process reused it.
    fs.writeFileSync(path.join(dir, LOCK_FILE), holder(1, { startTicks: -1 }));
    lockDataDir(dir).release();
  });

  it("never takes over a lock written on another host", () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, LOCK_FILE), holder(999_999, { hostname: "another-host" }));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
  });
});
