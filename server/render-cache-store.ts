/**
 * The render cache's store (server/render-cache.ts): the kept answers in
 * memory, least recently used first, within a bound of bytes, their tags, the
 * generation every change bumps, whether the process hears the database's
 * announcements; and the disk tier the evicted ones go to
 * (server/render-cache-spill.ts, decision 077).
 */
import { RENDER_TAGS, SITE_WIDE_TAG } from "../app/utils/render-cache.ts";
import type { PageSpill } from "./render-cache-spill.ts";

/** One answer of a page, as rendered for the cache. */
export interface RenderedPage {
  status: number;
  /** The answer's own headers (Content-Type, …), without those the cache sets. */
  headers: [string, string][];
  /**
   * The answer as rendered, held by an answer served once only: a kept one holds its compressed bodies
   * alone (read it with `identityOf`).
   */
  body?: Buffer;
  /** The length of the answer as rendered, in bytes (its `Content-Length` without compression). */
  length: number;
  /** Made only for a kept page. */
  brotli?: Buffer;
  gzip?: Buffer;
  etag?: string;
  /** CSP `script-src` hash sources of its inline scripts ("" when it has none or is not HTML). */
  scriptSources: string;
  tags: ReadonlySet<string>;
  /** When it stops being true by time alone (ms since the epoch; Infinity: never). */
  expiresAt: number;
  /** Whether it is kept (served with the public cache headers). */
  kept: boolean;
  /** The values of each declared query parameter that make a page of their own (`RenderHints.queryChoices`). */
  queryChoices?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The bytes an entry holds: its bodies (a kept page's brotli and gzip, each held at its own length). */
export const sizeOf = (page: RenderedPage) =>
  (page.body?.length ?? 0) + (page.brotli?.length ?? 0) + (page.gzip?.length ?? 0);

/**
 * The cache's memory: entries by key, least recently used first, their
 * tags, a generation that every change bumps, and whether the process
 * hears the database's announcements (`listening`: nothing is kept
 * otherwise).
 */
export class RenderCache {
  readonly #entries = new Map<string, RenderedPage>();
  #bytes = 0;
  #generation = 0;
  #listening = false;
  readonly maxBytes: number;
  readonly #now: () => number;
  readonly #spill: PageSpill | undefined;

  /**
   * @param maxBytes bodies kept in memory at most (`sizeOf`: a kept page's brotli and gzip bodies), in bytes
   * @param spill where the pages memory evicts go, and are read back from (server/render-cache-spill.ts)
   */
  constructor({ maxBytes, now = Date.now, spill }: { maxBytes: number; now?: () => number; spill?: PageSpill }) {
    this.maxBytes = maxBytes;
    this.#now = now;
    this.#spill = spill;
  }

  /** Whether neither memory nor the disk (if any) has room for `margin` more bytes: the warm-up stops. */
  nearlyFull(margin: number): boolean {
    return this.#bytes + margin > this.maxBytes && (!this.#spill || this.#spill.bytes + margin > this.#spill.maxBytes);
  }

  /** The pages on disk (server/render-cache-spill.ts): how many, and their bodies' bytes. */
  get spilled(): { size: number; bytes: number } {
    return { size: this.#spill?.size ?? 0, bytes: this.#spill?.bytes ?? 0 };
  }

  /** A number that changes with every invalidation: a render started under another one is not kept. */
  get generation(): number {
    return this.#generation;
  }

  get listening(): boolean {
    return this.#listening;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Whether the process hears the database's announcements; any change of this empties the cache. */
  setListening(up: boolean): void {
    if (up === this.#listening) return;
    this.#listening = up;
    this.clear();
  }

  /**
   * The entry of `key`, if kept and not expired (then it becomes the most recently used): from memory,
   * or read back from the disk into memory.
   */
  get(key: string): RenderedPage | undefined {
    const entry = this.#entries.get(key);
    if (!entry) {
      const spilled = this.#spill?.get(key, this.#now());
      if (spilled) this.#admit(key, spilled);
      return spilled;
    }
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#now()) {
      this.#bytes -= sizeOf(entry);
      this.#spill?.delete(key);
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry;
  }

  /**
   * Keeps `entry` under `key` when the process listens and nothing changed
   * since the render started (`generation` read then). Returns whether it was kept.
   */
  set(key: string, entry: RenderedPage, generation: number): boolean {
    if (!this.#listening || generation !== this.#generation || sizeOf(entry) > this.maxBytes) return false;
    this.#spill?.delete(key);
    this.#admit(key, entry);
    return true;
  }

  /** Puts `entry` in memory as the most recently used, and moves the least recently used beyond the bound to disk. */
  #admit(key: string, entry: RenderedPage): void {
    this.#remove(key);
    this.#entries.set(key, entry);
    this.#bytes += sizeOf(entry);
    for (const [oldest, page] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= sizeOf(page);
      this.#spill?.put(oldest, page);
    }
  }

  /**
   * Drops every entry showing `tag`. A site-wide tag ("settings": the owner's name and telephone are
   * on every page) and an unknown one drop everything.
   */
  invalidate(tag: string): void {
    if (tag === SITE_WIDE_TAG || !(RENDER_TAGS as readonly string[]).includes(tag)) return this.clear();
    this.#generation += 1;
    for (const [key, entry] of this.#entries) if (entry.tags.has(tag)) this.#remove(key);
    this.#spill?.deleteTagged(tag);
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
    this.#bytes = 0;
    this.#spill?.clear();
  }

  /** Removes the disk's folder (the server's stop). */
  async close(): Promise<void> {
    await this.#spill?.close();
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= sizeOf(entry);
  }
}
