/**
 * The README's map ("Where things are") against the folders: every folder of
 * `app/` and every top-level folder of the repository has its line, and the
 * map names no folder or file that does not exist. Folders git ignores
 * (`build/`, `data/`, ...) and `.git/` need no line; the map may still name
 * one that exists.
 *
 * The map is the README's first fenced block after "## Where things are":
 * an entry starts its line at an even indentation up to 6 spaces (two per
 * level: `app/` at 0, `app/content/` at 2) and is one or more names separated
 * by ", ", then two or more spaces and its description; deeper indentation
 * continues the description above it.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** A path the map names, relative to the repository, with "/" at the end for a folder. */
export interface MapEntry {
  path: string;
  line: number;
}

/**
 * The entries of the map in `readme` (the README's text).
 * @throws Error when the README has no "Where things are" section with a fenced block.
 */
export function mapEntries(readme: string): MapEntry[] {
  const lines = readme.split("\n");
  const heading = lines.findIndex((line) => /^## Where things are\s*$/.test(line));
  if (heading < 0) throw new Error('README.md has no "## Where things are" section');
  const open = lines.findIndex((line, index) => index > heading && line.startsWith("```"));
  const close = lines.findIndex((line, index) => index > open && line.startsWith("```"));
  if (open < 0 || close < 0) throw new Error('the "Where things are" section has no fenced map');
  const entries: MapEntry[] = [];
  // The folder each indentation level is in: parents[1] is the folder of a 2-space entry.
  const parents: string[] = [""];
  for (let index = open + 1; index < close; index++) {
    const match = /^( *)(\S+(?:, \S+)*)(?: {2,}.*)?$/.exec(lines[index]!);
    if (!match) continue;
    const indent = match[1]!.length;
    if (indent > 6) continue; // a description's continuation
    if (indent % 2 !== 0) throw new Error(`README.md map, line ${index + 1}: odd indentation`);
    const level = indent / 2;
    const parent = parents[level];
    if (parent === undefined) throw new Error(`README.md map, line ${index + 1}: indented under no folder`);
    parents.length = level + 1;
    for (const name of match[2]!.split(", ")) {
      const entry = `${parent}${name}`;
      entries.push({ path: entry, line: index + 1 });
      if (name.endsWith("/")) parents[level + 1] = entry;
    }
  }
  return entries;
}

/** The names of `.gitignore`'s plain entries (no pattern characters), without their slashes. */
function ignoredNames(): Set<string> {
  const text = fs.readFileSync(path.join(root, ".gitignore"), "utf8");
  return new Set(
    text
      .split("\n")
      .map((line) => line.trim().replace(/^\/|\/$/g, ""))
      .filter((line) => line && !line.startsWith("#") && !line.startsWith("!") && !/[*?[\]/]/.test(line)),
  );
}

/** The folders directly in `folder` (relative to the repository), "/"-terminated, git's own and ignored ones left out. */
function foldersIn(folder: string): string[] {
  const ignored = ignoredNames();
  return fs
    .readdirSync(path.join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== ".git" && !ignored.has(entry.name))
    .map((entry) => `${folder}${entry.name}/`);
}

describe("the README's map of the repository", () => {
  const entries = mapEntries(fs.readFileSync(path.join(root, "README.md"), "utf8"));
  const named = new Set(entries.map((entry) => entry.path));

  it("has a line for every folder of app/ and every top-level folder", () => {
    const folders = [...foldersIn(""), ...foldersIn("app/")];
    expect(folders).toContain("app/content/");
    expect(folders.filter((folder) => !named.has(folder))).toEqual([]);
  });

  it("names no folder or file that does not exist", () => {
    expect(entries.length).toBeGreaterThan(20);
    const missing = entries.filter((entry) => {
      const stat = fs.statSync(path.join(root, entry.path), { throwIfNoEntry: false });
      return !stat || stat.isDirectory() !== entry.path.endsWith("/");
    });
    expect(missing.map((entry) => `line ${entry.line}: ${entry.path}`)).toEqual([]);
  });
});

describe("mapEntries", () => {
  it("reads nested entries, several names on a line, and skips continuations", () => {
    const readme = [
      "## Where things are",
      "",
      "```",
      "app/          the site",
      "  root.tsx    shell",
      "  a.ts, b/    two",
      "    c/        in b",
      "  d.ts        a file",
      "server/       the server",
      "  e/          in server",
      "                 its continuation, server/x/ not an entry",
      "```",
    ].join("\n");
    expect(mapEntries(readme).map((entry) => entry.path)).toEqual([
      "app/",
      "app/root.tsx",
      "app/a.ts",
      "app/b/",
      "app/b/c/",
      "app/d.ts",
      "server/",
      "server/e/",
    ]);
  });
});
