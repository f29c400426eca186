/**
 * The render cache's disk tier: what memory's bound evicts is answered from
 * disk with the same bodies and ETag, and goes with every change that would
 * have dropped it from memory; its own bound, a lost or cut file, and the
 * folders of stopped processes.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PageSpill, SPILL_FOLDER_PREFIX, sweepSpillFolders } from "./render-cache-spill";
import { RenderCache, sizeOf, type RenderedPage } from "./render-cache-store";

/** A kept page of `bytes` bytes of bodies (half brotli, half gzip), showing `tags`. */
function keptPage(name: string, tags: string[], bytes = 1000, expiresAt = Infinity): RenderedPage {
  return {
    status: 200,
    headers: [["Content-Type", "text/html; charset=utf-8"]],
    length: bytes * 4,
    brotli: Buffer.alloc(bytes / 2, `br:${name}`),
    gzip: Buffer.alloc(bytes / 2, `gz:${name}`),
    etag: `W/"${name}"`,
    scriptSources: "",
    tags: new Set(tags),
    expiresAt,
    kept: true,
  };
}

/** Resolves once no file is being written or removed. */
const written = () => spill.settled();

let parent: string;
let errors: Error[];
let spill: PageSpill;
let cache: RenderCache;
let now: number;

beforeEach(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), "spill-test-"));
  errors = [];
  now = 1_000;
  spill = new PageSpill({ parent, maxBytes: 10_000, onError: (error) => errors.push(error) });
  // Memory for three pages of 1,000 bytes.
  cache = new RenderCache({ maxBytes: 3_000, now: () => now, spill });
  cache.setListening(true);
});
afterEach(async () => {
  await cache.close();
  fs.rmSync(parent, { recursive: true, force: true });
});

const keep = (key: string, page: RenderedPage) => expect(cache.set(key, page, cache.generation)).toBe(true);

/** Keeps `/blog/{from}` to `/blog/{to}`, each showing the articles, of version `{version}{index}`. */
function keepArticles(from: number, to: number, version = "a"): void {
  for (let index = from; index <= to; index++) keep(`/blog/${index}`, keptPage(`${version}${index}`, ["articles"]));
}

describe("pages beyond memory's bound", () => {
  it("are answered from disk with the same bodies, headers and ETag, and memory stays within its bound", async () => {
    keepArticles(1, 8);
    expect(cache.bytes).toBeLessThanOrEqual(3_000);
    expect(cache.spilled).toEqual({ size: 5, bytes: 5_000 });
    await written();
    expect(fs.readdirSync(spill.dir)).toHaveLength(5);

    const first = cache.get("/blog/1");
    const expected = keptPage("a1", ["articles"]);
    expect(first?.brotli?.equals(expected.brotli!)).toBe(true);
    expect(first?.gzip?.equals(expected.gzip!)).toBe(true);
    expect(first).toMatchObject({ status: 200, etag: 'W/"a1"', headers: expected.headers, length: 4000, kept: true });
    // Read back into memory, as the most recently used: memory still within its bound.
    expect(cache.bytes).toBeLessThanOrEqual(3_000);
    expect(errors).toEqual([]);
  });

  it("are written once per version: read back and evicted again, a page keeps its one file", async () => {
    keepArticles(1, 4);
    await written();
    const files = fs.readdirSync(spill.dir);
    expect(files).toHaveLength(1);
    cache.get("/blog/1");
    keep("/blog/5", keptPage("a5", ["articles"]));
    keep("/blog/6", keptPage("a6", ["articles"]));
    keep("/blog/7", keptPage("a7", ["articles"]));
    await written();
    // /blog/1 went back to disk, where its file still was: 1 file for it, 3 for the three pages evicted since.
    expect(fs.readdirSync(spill.dir)).toContain(files[0]);
    expect(cache.spilled.size).toBe(4);
  });

  it("a new version of a spilled page replaces its file", async () => {
    keepArticles(1, 4);
    keep("/blog/1", keptPage("a1-new", ["articles"]));
    await written();
    expect(cache.get("/blog/1")?.etag).toBe('W/"a1-new"');
    expect(fs.readdirSync(spill.dir).length).toBeLessThanOrEqual(cache.spilled.size);
  });
});

describe("a change drops the spilled pages as it drops those in memory", () => {
  it("a tag drops the spilled pages showing it, and their files; the others stay", async () => {
    keepArticles(1, 4);
    keep("/cours", keptPage("c", ["courses"]));
    keep("/cours/securite", keptPage("s", ["courses"]));
    await written();
    expect(cache.spilled.size).toBe(3);
    cache.invalidate("articles");
    expect(cache.get("/blog/1")).toBeUndefined();
    expect(cache.get("/blog/2")).toBeUndefined();
    expect(cache.spilled.size).toBe(0);
    expect(cache.get("/cours")?.etag).toBe('W/"c"');
    await written();
    expect(fs.readdirSync(spill.dir)).toEqual([]);
  });

  it("a change while a file is being written: the page is not answered, and its file goes once written", async () => {
    keepArticles(1, 4);
    cache.invalidate("articles");
    expect(cache.get("/blog/1")).toBeUndefined();
    await written();
    expect(fs.readdirSync(spill.dir)).toEqual([]);
  });

  it("the site-wide tag and a lost listening connection empty the disk too", async () => {
    keepArticles(1, 4);
    cache.invalidate("settings");
    expect(cache.get("/blog/1")).toBeUndefined();
    keepArticles(1, 4, "b");
    cache.setListening(false);
    expect(cache.spilled).toEqual({ size: 0, bytes: 0 });
    cache.setListening(true);
    expect(cache.get("/blog/1")).toBeUndefined();
  });

  it("a spilled page past its moment (a session started) is not answered", () => {
    keep("/cours", keptPage("c", ["courses"], 1000, 5_000));
    keepArticles(1, 3);
    expect(cache.get("/cours")?.etag).toBe('W/"c"');
    keepArticles(4, 6);
    now = 5_000;
    expect(cache.get("/cours")).toBeUndefined();
  });
});

describe("the disk's own bound and its failures", () => {
  it("keeps at most its bound, dropping the least recently used", async () => {
    keepArticles(1, 20);
    expect(cache.spilled).toEqual({ size: 10, bytes: 10_000 });
    // 17 evicted from memory, the 7 least recently used of them dropped from disk.
    expect(cache.get("/blog/7")).toBeUndefined();
    expect(cache.get("/blog/8")?.etag).toBe('W/"a8"');
    await written();
    expect(fs.readdirSync(spill.dir).length).toBe(10);
  });

  it("a file removed or cut short is a miss (rendered again), told to the operator", async () => {
    keepArticles(1, 5);
    await written();
    const [one, two] = fs.readdirSync(spill.dir).sort();
    fs.rmSync(path.join(spill.dir, one!));
    fs.truncateSync(path.join(spill.dir, two!), 10);
    expect(cache.get("/blog/1")).toBeUndefined();
    expect(cache.get("/blog/2")).toBeUndefined();
    expect(errors.map((error) => error.message).join("\n")).toMatch(/ENOENT[\s\S]*truncated/);
    expect(cache.spilled.size).toBe(0);
  });

  it("the memory tier without a disk drops what it evicts, as before", () => {
    const alone = new RenderCache({ maxBytes: 3_000 });
    alone.setListening(true);
    for (let index = 1; index <= 5; index++) alone.set(`/blog/${index}`, keptPage(`a${index}`, []), alone.generation);
    expect(alone.get("/blog/1")).toBeUndefined();
    expect(alone.spilled).toEqual({ size: 0, bytes: 0 });
    expect(alone.nearlyFull(sizeOf(keptPage("x", [])))).toBe(true);
    // With room on disk, the warm-up goes on past memory's bound.
    for (let index = 1; index <= 3; index++) keep(`/blog/${index}`, keptPage(`a${index}`, []));
    expect(cache.nearlyFull(2_000)).toBe(false);
  });
});

describe("the folders", () => {
  it("close() removes the process's folder; a new start removes those of processes that no longer run", async () => {
    const dead = path.join(parent, `${SPILL_FOLDER_PREFIX}999999999-abc`);
    const alive = path.join(parent, `${SPILL_FOLDER_PREFIX}${process.pid}-abc`);
    const other = path.join(parent, "other-folder");
    for (const folder of [dead, alive, other]) fs.mkdirSync(folder);
    sweepSpillFolders(parent);
    expect(fs.existsSync(dead)).toBe(false);
    expect(fs.existsSync(alive)).toBe(true);
    expect(fs.existsSync(other)).toBe(true);
    const dir = spill.dir;
    await cache.close();
    expect(fs.existsSync(dir)).toBe(false);
  });
});
