/**
 * Where a test run writes its throw-away files (each test server's copy of
 * the prepared PGlite folder, the PostgreSQL cluster, uploads, backups): a
 * folder of its own in memory, `/dev/shm/site-tests/run-{pid}`, when Linux's
 * shared-memory tmpfs is there (Debian mounts it), else
 * `{system temporary folder}/site-tests/run-{pid}`. In memory, copying and
 * opening the prepared PGlite folder takes 0.25 s of CPU instead of
 * 0.6–0.9 s, and the whole Vitest run 394 s of CPU instead of 484 (decision 040).
 *
 * vitest.config.ts and playwright.config.ts call `makeScratchDir()` in the
 * runner's main process: it names the folder in `TMPDIR`, so that
 * `os.tmpdir()` names it in every worker and process started after, and the
 * prepared PGlite folder, which outlives a run, in `SITE_TEST_CACHE`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The variable naming this run's folder (set once, inherited by workers, which then reuse it). */
const SCRATCH_ENV = "SITE_TEST_SCRATCH";
/** The variable naming the folder kept between runs (`pgliteTemplatePath`). */
export const CACHE_ENV = "SITE_TEST_CACHE";

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Stops the PostgreSQL clusters a dead run left running in `runDir` (its
 * `pg-test-*` folders; tests/support/databases.ts's watchdog stops them
 * when their run ends, this catches what it missed): SIGQUIT, PostgreSQL's
 * immediate shutdown, to each postmaster whose command line names its folder.
 */
function stopLeftClusters(runDir: string): void {
  for (const name of fs.readdirSync(runDir).filter((entry) => entry.startsWith("pg-test-"))) {
    const data = path.join(runDir, name, "data");
    try {
      const pid = Number(fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
      if (pid > 0 && fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(data)) process.kill(pid, "SIGQUIT");
    } catch {
      // No postmaster.pid (the cluster was stopped), or no such process any more: nothing to stop.
    }
  }
}

/**
 * This run's folder, made on the first call (in the runner's main process), with `TMPDIR` and
 * `SITE_TEST_CACHE` set; the folders of runs whose process is gone (killed before their teardown)
 * are removed then. Readable by every user: the PostgreSQL cluster runs as `postgres`.
 * @returns the folder's absolute path.
 */
export function makeScratchDir(): string {
  const existing = process.env[SCRATCH_ENV];
  if (existing && fs.existsSync(existing)) return existing;
  const root = fs.existsSync("/dev/shm") ? "/dev/shm/site-tests" : path.join(os.tmpdir(), "site-tests");
  fs.mkdirSync(root, { recursive: true, mode: 0o755 });
  for (const name of fs.readdirSync(root)) {
    const pid = /^run-(\d+)$/.exec(name)?.[1];
    if (!pid || isAlive(Number(pid))) continue;
    stopLeftClusters(path.join(root, name));
    fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
  const dir = path.join(root, `run-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.chmodSync(dir, 0o755);
  process.env[SCRATCH_ENV] = dir;
  process.env[CACHE_ENV] ??= root;
  process.env.TMPDIR = dir;
  return dir;
}

/** Removes this run's folder (the runner's teardown), unless another process made it. */
export function removeScratchDir(): void {
  const dir = process.env[SCRATCH_ENV];
  if (dir && path.basename(dir) === `run-${process.pid}`) fs.rmSync(dir, { recursive: true, force: true });
}
