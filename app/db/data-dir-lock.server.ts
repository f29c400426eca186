/**
 * One process per embedded database: an exclusive lock file in `DATA_DIR`
 * (`site.lock`), held for the process's life. PGlite keeps its data in
 * files that only one process may write; two servers on one folder lose
 * each other's writes.
 *
 * `lockDataDir(dir)` creates the lock atomically (a complete file hard-linked
 * into place: never half-written) holding `{ pid, hostname, startTicks,
 * since }`, and returns `release()`; it is also released when the process
 * exits. A lock left by a process that no longer runs (killed, crashed) is
 * stale and taken over at once: the holder's pid is checked with signal 0,
 * and its start time (`/proc/<pid>/stat`, field 22, when readable) tells a
 * reused pid from the holder. Two processes taking over one stale lock at
 * the same moment are ordered by a `site.lock.takeover` folder (mkdir is
 * atomic). A lock written on another host is never taken over.
 *
 * @throws DataDirLockedError, in French and English, naming the folder and
 *   the running process, when another live process holds the lock.
 * @throws the file system's error (ENOSPC, EROFS, EACCES...) when the lock
 *   cannot be written.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const LOCK_FILE = "site.lock";

export interface Holder {
  pid: number;
  hostname: string;
  /** The process's start time in clock ticks since boot (Linux), or null. */
  startTicks: number | null;
  since: string;
}

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
  constructor(
    readonly directory: string,
    readonly holder: Holder,
  ) {
    super(
      `DATA_DIR: ${directory} is already used by another server process (pid ${holder.pid} on ${holder.hostname}, since ${holder.since}); ` +
        `only one process may use an embedded database: stop that one first, or set DATABASE_URL to share a PostgreSQL server.\n` +
        `DATA_DIR : le dossier ${directory} est déjà utilisé par un autre processus du serveur (pid ${holder.pid} sur ${holder.hostname}, depuis ${holder.since}) ; ` +
        `un seul processus peut utiliser la base intégrée : arrêtez d’abord l’autre, ou utilisez un serveur PostgreSQL (DATABASE_URL).`,
    );
  }
}

/** Start time of process `pid` in clock ticks since boot (Linux /proc), or null where unknown. */
function startTicks(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start at field 3; starttime is field 22.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

function readHolder(file: string): Holder | null {
  try {
    const holder = JSON.parse(fs.readFileSync(file, "utf8")) as Holder;
    return Number.isInteger(holder.pid) && typeof holder.hostname === "string" ? holder : null;
  } catch {
    return null;
  }
}

/** Whether the process that wrote `holder` still runs (always true for another host: it cannot be checked). */
function isAlive(holder: Holder): boolean {
  if (holder.hostname !== os.hostname()) return true;
  if (holder.pid === process.pid) return false; // an earlier life of this pid (a container's pid 1)
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  const ticks = startTicks(holder.pid);
  return holder.startTicks === null || ticks === null || ticks === holder.startTicks;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Removes the stale lock whose text is `staleText`, unless someone changed it meanwhile. */
function takeOver(file: string, staleText: string): void {
  const mutex = `${file}.takeover`;
  for (let waited = 0; ; waited += 50) {
    try {
      fs.mkdirSync(mutex);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // A takeover lasts microseconds: a folder older than 10 s was left by a killed process.
      const age = Date.now() - (fs.statSync(mutex, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10_000 || waited > 15_000) fs.rmSync(mutex, { recursive: true, force: true });
      else sleep(50);
    }
  }
  try {
    if (fs.readFileSync(file, "utf8") === staleText) fs.rmSync(file);
  } catch {
    // already gone
  } finally {
    fs.rmdirSync(mutex);
  }
}

/**
 * The process that holds `directory`'s lock and still runs (its pid, host and
 * start), or null when none does: what `npm run backup` asks for a copy and
 * `npm run restore` refuses to run beside.
 */
export function liveHolder(directory: string): Holder | null {
  const holder = readHolder(path.join(directory, LOCK_FILE));
  return holder && holder.hostname === os.hostname() && isAlive(holder) ? holder : null;
}

export function lockDataDir(directory: string): { release(): void } {
  const file = path.join(directory, LOCK_FILE);
  const me: Holder = {
    pid: process.pid,
    hostname: os.hostname(),
    startTicks: startTicks(process.pid),
    since: new Date().toISOString(),
  };
  const text = JSON.stringify(me);
  const draft = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(draft, text);
  try {
    for (;;) {
      try {
        fs.linkSync(draft, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      let current: string;
      try {
        current = fs.readFileSync(file, "utf8");
      } catch {
        continue; // removed meanwhile: try again
      }
      const holder = readHolder(file);
      if (holder && isAlive(holder)) throw new DataDirLockedError(directory, holder);
      takeOver(file, current);
    }
  } finally {
    fs.rmSync(draft, { force: true });
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    try {
      if (fs.readFileSync(file, "utf8") === text) fs.rmSync(file);
    } catch {
      // already gone
    }
  };
  process.on("exit", release);
  return { release };
}
