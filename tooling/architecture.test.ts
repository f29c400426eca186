/**
 * The direction of imports (README, "Architecture"): `app/` never imports
 * `server/`, `scripts/`, `tooling/` or `tests/`; `server/` never imports
 * `scripts/` or `tests/`; and no module of `app/` reaches itself again
 * through its imports, static or dynamic (an import circle).
 */
import fs from "node:fs";
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
});
