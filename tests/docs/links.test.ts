/**
 * Every relative link of the README and of `docs/` (Markdown `[text](target)`)
 * leads to a file or folder that exists, and its `#anchor`, when it has one,
 * to a heading of that file (GitHub's slugs: lowercase, punctuation dropped,
 * spaces as dashes).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The Markdown files to check, relative to the repository. */
function markdownFiles(): string[] {
  const inDocs = (fs.readdirSync(path.join(root, "docs"), { recursive: true }) as string[])
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join("docs", name));
  return ["README.md", ...inDocs];
}

/** GitHub's anchor for a heading's text. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** The anchors of the headings of `file` (outside fenced blocks). */
function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(file, "utf8").replace(/^```[\s\S]*?^```/gm, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1]!)));
}

describe("links in the documentation", () => {
  for (const file of markdownFiles()) {
    it(`${file}: every relative link leads somewhere`, () => {
      // Fenced blocks and code spans hold examples, not links.
      const text = fs
        .readFileSync(path.join(root, file), "utf8")
        .replace(/^```[\s\S]*?^```/gm, "")
        .replace(/`[^`\n]*`/g, "");
      const broken: string[] = [];
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [where, anchor] = target!.split("#") as [string, string | undefined];
        const resolved = where ? path.resolve(path.dirname(path.join(root, file)), where) : path.join(root, file);
        if (!fs.existsSync(resolved)) broken.push(target!);
        else if (anchor && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor)) broken.push(target!);
      }
      expect(broken).toEqual([]);
    });
  }
});
