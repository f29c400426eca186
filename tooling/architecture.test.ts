/**
 * The direction of imports (README, "Architecture"): `app/` never imports
 * `server/`, `scripts/`, `tooling/` or `tests/`; `server/` never imports
 * `scripts/` or `tests/`; and no module of `app/` reaches itself again
 * through its imports, static or dynamic (an import circle). Every folder
 * of `app/` but `routes/` is named once by `npm run lint`'s rules
 * (.dependency-cruiser.cjs), as a mechanism or as a feature.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(".");
const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];
const SPECIFIER = /(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g;

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.resolve(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "+types" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The project files `file` imports (packages left out). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(SPECIFIER)].flatMap(([, specifier]) => {
    const base = specifier!.startsWith("~/")
      ? path.join(root, "app", specifier!.slice(2))
      : specifier!.startsWith(".")
        ? path.resolve(path.dirname(file), specifier!)
        : null;
    if (!base) return [];
    const found = EXTENSIONS.map((extension) => base.replace(/\.(ts|tsx|js)$/, "") + extension).find(
      (candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile(),
    );
    return found ? [found] : [];
  });
}

const relative = (file: string) => path.relative(root, file);

describe("imports", () => {
  it("flow one way: app/ imports nothing of server/, scripts/, tooling/ or tests/; server/ nothing of scripts/ or tests/", () => {
    const wrong = [
      ...sourceFiles("app").flatMap((file) =>
        importsOf(file)
          .filter((target) => /^(server|scripts|tooling|tests)\//.test(relative(target)))
          .map((target) => `${relative(file)} -> ${relative(target)}`),
      ),
      ...sourceFiles("server").flatMap((file) =>
        importsOf(file)
          .filter((target) => /^(scripts|tests)\//.test(relative(target)))
          .map((target) => `${relative(file)} -> ${relative(target)}`),
      ),
    ];
    expect(wrong).toEqual([]);
  });

  it("make no circle in app/", () => {
    const graph = new Map(sourceFiles("app").map((file) => [file, importsOf(file)]));
    const circles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "visiting") {
        circles.push([...trail.slice(trail.indexOf(file)), file].map(relative).join(" -> "));
        return;
      }
      state.set(file, "visiting");
      for (const target of graph.get(file) ?? []) visit(target, [...trail, file]);
      state.set(file, "done");
    };
    for (const file of graph.keys()) visit(file, []);
    expect(circles).toEqual([]);
  });
  it("name every folder of app/ (but routes/) once, as a mechanism or as a feature, in npm run lint's rules", () => {
    const rules = createRequire(import.meta.url)("../.dependency-cruiser.cjs").forbidden as {
      name: string;
      from: { path?: string };
      to: { path?: string };
    }[];
    const rule = rules.find((candidate) => candidate.name === "mechanism-imports-feature")!;
    const [mechanisms, features] = [new RegExp(rule.from.path!), new RegExp(rule.to.path!)];
    const folders = fs
      .readdirSync("app", { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== "routes")
      .map((entry) => entry.name);
    const unnamedOrTwice = folders.filter(
      (folder) => Number(mechanisms.test(`app/${folder}/x.ts`)) + Number(features.test(`app/${folder}/x.ts`)) !== 1,
    );
    expect(folders.length).toBeGreaterThan(20);
    expect(unnamedOrTwice).toEqual([]);
  });
});

/** Lines a source file may hold (issue 29): past it, a file does more than one thing; split it by operation. */
const MAX_SOURCE_LINES = 450;
/** Lines a route module may hold: a route reads, dispatches and shows; its intents and parts live beside it. */
const MAX_ROUTE_LINES = 250;

describe("sizes", () => {
  const lineCount = (file: string) => fs.readFileSync(file, "utf8").split("\n").length - 1;

  it(`no source file of app/, server/, scripts/ or tooling/ is over ${MAX_SOURCE_LINES} lines`, () => {
    const files = ["app", "server", "scripts", "tooling"].flatMap((folder) => sourceFiles(path.join(root, folder)));
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .filter((file) => lineCount(file) > MAX_SOURCE_LINES)
      .map((file) => `${relative(file)}: ${lineCount(file)}`);
    expect(long).toEqual([]);
  });

  it(`no route module (a file app/routes.ts names) is over ${MAX_ROUTE_LINES} lines`, () => {
    const table = fs.readFileSync(path.join(root, "app", "routes.ts"), "utf8");
    const modules = [
      ...new Set([...table.matchAll(/"(routes\/[^"]+\.tsx?)"/g)].map(([, file]) => path.join(root, "app", file!))),
    ];
    expect(modules.length).toBeGreaterThan(40);
    const long = modules
      .filter((file) => lineCount(file) > MAX_ROUTE_LINES)
      .map((file) => `${relative(file)}: ${lineCount(file)}`);
    expect(long).toEqual([]);
  });
});
