/**
 * Builds the site (timing `react-router build`), then prints the bytes of
 * the JavaScript, CSS and HTML that the home page `/` loads, raw and gzip
 * (level 9, as a reverse proxy would send them), plus the fonts and
 * pictures it references. The build holds no page (the server renders every
 * one, server/render-cache.ts): the production server is started on a
 * throwaway database (no course session) and asked for `/`; the files it
 * references are read from the build (`BUILD_DIR`, by default `build/`).
 *
 *   npm run report:size            build, then report
 *   npm run report:size -- --no-build
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { renderedPage } from "../tests/support/harness";

const clientDir = path.join(process.env.BUILD_DIR ?? "build", "client");

if (!process.argv.includes("--no-build")) {
  const started = performance.now();
  const result = spawnSync("npx", ["react-router", "build"], { stdio: "ignore" });
  if (result.status !== 0) {
    console.error("Build failed: run `npm run build` to see why.");
    process.exit(1);
  }
  console.log(`npm run build: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const html = await renderedPage("/");
const referenced = new Set<string>();
for (const match of html.matchAll(/["'(](\/assets\/[^"'()\s]+)["')]/g)) referenced.add(match[1]!);
const css = [...referenced].filter((file) => file.endsWith(".css"));
for (const file of css) {
  const text = fs.readFileSync(path.join(clientDir, file), "utf8");
  for (const match of text.matchAll(/url\((?:\.\/|\/assets\/)?([^)'"]+\.woff2)\)/g))
    referenced.add(`/assets/${path.basename(match[1]!)}`);
}

type Row = { kind: string; files: number; raw: number; gzip: number };
const rows = new Map<string, Row>();
const add = (kind: string, content: Buffer) => {
  const row = rows.get(kind) ?? { kind, files: 0, raw: 0, gzip: 0 };
  row.files += 1;
  row.raw += content.length;
  row.gzip += gzipSync(content, { level: 9 }).length;
  rows.set(kind, row);
};

add("HTML", Buffer.from(html));
for (const file of referenced) {
  const full = path.join(clientDir, file);
  if (!fs.existsSync(full)) continue;
  const kind = /\.js$/.test(file)
    ? "JS"
    : /\.css$/.test(file)
      ? "CSS"
      : /\.woff2$/.test(file)
        ? "fonts (all subsets)"
        : "pictures";
  add(kind, fs.readFileSync(full));
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log("\nWhat / references (as the production server renders it):\n");
console.log("| kind | files | raw | gzip |\n|---|---:|---:|---:|");
for (const row of rows.values()) console.log(`| ${row.kind} | ${row.files} | ${kb(row.raw)} | ${kb(row.gzip)} |`);
