import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensurePgliteTemplate, pgliteTemplatePath } from "./databases";
import { CACHE_ENV } from "./scratch";

describe("the PGlite templates kept between runs", () => {
  const cacheBefore = process.env[CACHE_ENV];
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "template-cache-"));
  afterEach(() => {
    process.env[CACHE_ENV] = cacheBefore;
    fs.rmSync(cache, { recursive: true, force: true });
  });

  it("removes the others no process used for six hours, and keeps the current one and those used since", async () => {
    process.env[CACHE_ENV] = cache;
    const current = pgliteTemplatePath();
    // The current template, as a run left it (ensurePgliteTemplate then makes nothing).
    fs.mkdirSync(path.join(current, "pglite"), { recursive: true });
    fs.writeFileSync(path.join(current, "pglite", "PG_VERSION"), "18\n");
    const old = new Date(Date.now() - 7 * 3600_000);
    fs.utimesSync(current, old, old);
    const template = (name: string, age: number) => {
      const folder = path.join(cache, name);
      fs.mkdirSync(path.join(folder, "pglite"), { recursive: true });
      const at = new Date(Date.now() - age);
      fs.utimesSync(folder, at, at);
      return folder;
    };
    const unused = template("site-pglite-template-aaaaaaaaaaaa", 7 * 3600_000);
    const usedAnHourAgo = template("site-pglite-template-bbbbbbbbbbbb", 3600_000);
    const notATemplate = template("site-pglite-template-aaaaaaaaaaaa.draft-1", 7 * 3600_000);

    await ensurePgliteTemplate();

    expect(fs.existsSync(unused)).toBe(false);
    expect(fs.existsSync(usedAnHourAgo)).toBe(true);
    expect(fs.existsSync(notATemplate)).toBe(true);
    expect(fs.existsSync(path.join(current, "pglite", "PG_VERSION"))).toBe(true);
  });
});
