/**
 * The render cache's second tier, on disk (decision 077): the kept pages
 * that memory's bound evicts are written to files of their own, one per
 * page and version (its brotli body, then its gzip one), in a folder of the
 * process's own, and read back when asked for, at the speed of a file
 * instead of a render. An archive larger than memory's bound (5,000
 * articles: about 5,400 pages, 86 MB of bodies, against 16 MB in memory)
 * is then answered without rendering once each page was rendered once.
 *
 * What stays in memory for a spilled page is its record (status, headers,
 * ETag, tags, expiry, the bodies' lengths): about a kilobyte. A page's file
 * is written in the thread pool; until it is, the record holds the bodies.
 * The spill holds what memory holds too (a page read back goes into memory
 * again and keeps its file), so a page is written once per version. It is
 * emptied with the memory tier (`RenderCache.invalidate` and `clear` call
 * `deleteTagged` and `clear`), and its own bound evicts the least recently
 * used files. The folder is removed by `close()`, and the folders of
 * processes that no longer run by the next start (`sweepSpillFolders`).
 */
import fs from "node:fs";
import path from "node:path";
import type { RenderedPage } from "./render-cache-store.ts";

/** The name of a process's spill folder starts with this, followed by its pid and a dash. */
export const SPILL_FOLDER_PREFIX = "site-pages-";

interface SpilledPage {
  /** The page without its bodies. */
  page: Omit<RenderedPage, "brotli" | "gzip">;
  file: string;
  brotliLength: number;
  gzipLength: number;
  /** The bodies, held until their file is written. */
  bodies?: { brotli: Buffer; gzip: Buffer };
}

/** Whether process `pid` runs (one of another user counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the spill folders in `parent` of processes that no longer run (a process killed, or
 * stopped before its `close()`), at start, before the server listens. A folder that cannot be removed is
 * left for the next start.
 */
export function sweepSpillFolders(parent: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(SPILL_FOLDER_PREFIX)) continue;
    const pid = Number(name.slice(SPILL_FOLDER_PREFIX.length).split("-")[0]);
    if (!Number.isInteger(pid) || pid <= 0 || running(pid)) continue;
    try {
      fs.rmSync(path.join(parent, name), { recursive: true, force: true });
    } catch {
      // Retried at the next start.
    }
  }
}

/**
 * Kept pages on disk, least recently used first, within `maxBytes` of bodies.
 * @throws from the constructor when the folder cannot be made in `parent` (the start-up names it).
 */
export class PageSpill {
  readonly #records = new Map<string, SpilledPage>();
  #bytes = 0;
  #files = 0;
  readonly dir: string;
  readonly maxBytes: number;
  readonly #onError: (error: Error) => void;
  #closed = false;
  /** Files being written or removed. */
  readonly #pending = new Set<Promise<unknown>>();

  /**
   * @param parent the folder in which the process's own folder is made (`RENDER_CACHE_DISK_DIR`)
   * @param maxBytes the bodies kept on disk at most, in bytes (`RENDER_CACHE_DISK_MB`)
   * @param onError told of a file that could not be written or read (the page is then rendered again)
   */
  constructor({ parent, maxBytes, onError }: { parent: string; maxBytes: number; onError: (error: Error) => void }) {
    sweepSpillFolders(parent);
    fs.mkdirSync(parent, { recursive: true });
    this.dir = fs.mkdtempSync(path.join(parent, `${SPILL_FOLDER_PREFIX}${process.pid}-`));
    this.maxBytes = maxBytes;
    this.#onError = onError;
  }

  get size(): number {
    return this.#records.size;
  }

  /** The bodies on disk (or being written), in bytes. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Keeps `page` (a kept page, with its bodies) under `key`, as the most recently used. Its file is
   * written unless the same version (ETag) is on disk already.
   */
  put(key: string, page: RenderedPage): void {
    if (!page.kept || !page.brotli || !page.gzip) return;
    const existing = this.#records.get(key);
    if (existing && existing.page.etag === page.etag) {
      this.#records.delete(key);
      this.#records.set(key, existing);
      return;
    }
    const size = page.brotli.length + page.gzip.length;
    this.delete(key);
    if (size > this.maxBytes) return;
    const { brotli, gzip, ...rest } = page;
    const record: SpilledPage = {
      page: rest,
      file: path.join(this.dir, String(++this.#files)),
      brotliLength: brotli.length,
      gzipLength: gzip.length,
      bodies: { brotli, gzip },
    };
    this.#records.set(key, record);
    this.#bytes += size;
    this.#track(
      fs.promises.writeFile(record.file, Buffer.concat([brotli, gzip])).then(
        () => {
          if (this.#records.get(key) === record) record.bodies = undefined;
          else this.#remove(record.file);
        },
        (error: Error) => {
          if (this.#records.get(key) === record) this.delete(key);
          this.#remove(record.file);
          if (!this.#closed) this.#onError(error);
        },
      ),
    );
    for (const [oldest] of this.#records) {
      if (this.#bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  /**
   * The page kept under `key` with its bodies (read from its file: a few hundredths of a millisecond
   * from the system's file cache), or undefined; an expired one (`now`, ms since the epoch) is dropped.
   */
  get(key: string, now: number): RenderedPage | undefined {
    const record = this.#records.get(key);
    if (!record) return undefined;
    if (record.page.expiresAt <= now) {
      this.delete(key);
      return undefined;
    }
    let bodies = record.bodies;
    if (!bodies) {
      try {
        const data = fs.readFileSync(record.file);
        if (data.length !== record.brotliLength + record.gzipLength) throw new Error(`${record.file}: truncated`);
        bodies = { brotli: data.subarray(0, record.brotliLength), gzip: data.subarray(record.brotliLength) };
      } catch (error) {
        this.delete(key);
        this.#onError(error as Error);
        return undefined;
      }
    }
    this.#records.delete(key);
    this.#records.set(key, record);
    return { ...record.page, ...bodies };
  }

  /** Resolves once no file is being written or removed. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  #track(work: Promise<unknown>): void {
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
  }

  /** Removes `file` (already gone: nothing to do). */
  #remove(file: string): void {
    this.#track(fs.promises.rm(file, { force: true }).catch(() => {}));
  }

  /** Drops the page kept under `key` (its file is removed once written). */
  delete(key: string): void {
    const record = this.#records.get(key);
    if (!record) return;
    this.#records.delete(key);
    this.#bytes -= record.brotliLength + record.gzipLength;
    // A file still being written is removed when its write ends (the record is no longer the key's).
    if (!record.bodies) this.#remove(record.file);
  }

  /** Drops every page showing `tag`. */
  deleteTagged(tag: string): void {
    for (const [key, record] of this.#records) if (record.page.tags.has(tag)) this.delete(key);
  }

  clear(): void {
    for (const key of [...this.#records.keys()]) this.delete(key);
  }

  /** Removes the folder and everything in it, once the files being written are (the server's stop). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#records.clear();
    this.#bytes = 0;
    await this.settled();
    await fs.promises.rm(this.dir, { recursive: true, force: true });
  }
}
