/**
 * Reads a page as the production server serves it, and the assets of the
 * build it names (`build/client/assets`), the way a browser would at load,
 * without running it: which JavaScript it loads, which style sheets, which
 * pictures, and which requests go to other hosts.
 * No HTML parser is installed, so tags are read with a small tokenizer
 * (scripts are cut out first, so their text cannot be mistaken for tags);
 * JavaScript imports are read with es-module-lexer and CSS with PostCSS
 * (both come with Vite).
 */
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { init, parse } from "es-module-lexer";
import postcss, { type Root } from "postcss";
import { DEFERRED_MODULE_TYPE, PRELOAD_LIST_ID } from "../../app/utils/deferred-hydration.server";

/** A tag's name, attributes (lower-case names) and, for `<script>` and `<style>`, its text. */
export type Tag = { name: string; attributes: Record<string, string>; text: string };

/** Parses `name="value"`, `name='value'`, `name=value` and bare `name` attributes. */
function parseAttributes(source: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of source.matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g))
    attributes[match[1]!.toLowerCase()] = match[2] ?? match[3] ?? match[4] ?? "";
  return attributes;
}

/** The `<script>`, `<style>`, `<link>`, `<img>` and `<source>` tags of an HTML document, in order of kind. */
export function readTags(html: string): Tag[] {
  const tags: Tag[] = [];
  const withoutRawText = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi, (_, name: string, attributes: string, text: string) => {
      tags.push({ name: name.toLowerCase(), attributes: parseAttributes(attributes), text });
      return "";
    });
  for (const match of withoutRawText.matchAll(/<(link|img|source)\b([^>]*)>/gi))
    tags.push({ name: match[1]!.toLowerCase(), attributes: parseAttributes(match[2]!), text: "" });
  return tags;
}

/** The static (`d === -1`) and dynamic (`d >= 0`) import specifiers written as string literals in a module. */
async function importsOf(code: string): Promise<{ staticImports: string[]; dynamicImports: string[] }> {
  await init;
  const [imports] = parse(code);
  const staticImports: string[] = [];
  const dynamicImports: string[] = [];
  for (const entry of imports) {
    if (entry.n === undefined) continue;
    if (entry.d === -1) staticImports.push(entry.n);
    else if (entry.d >= 0) dynamicImports.push(entry.n);
  }
  return { staticImports, dynamicImports };
}

/** `/assets/a.js` (a site path), or `./b.js` relative to the site path `from`, as a site path. */
function resolveSitePath(specifier: string, from: string): string {
  return specifier.startsWith("/") ? specifier : path.posix.join(path.posix.dirname(from), specifier);
}

/**
 * Every JavaScript file (site paths, e.g. `/assets/root-x.js`) that a page
 * loads before any interaction, cold cache: its `<link rel="modulepreload">`
 * and `<script type="module" src>` files, the modules its inline module
 * scripts import (statically, or with `import("…")`, which runs at once:
 * React Router's `import("/assets/entry.client-….js")`), and, recursively,
 * the static imports of all of those. Dynamic `import()` inside the files
 * is not followed: those chunks load later, on interaction. The deferred
 * preloads (the JSON list `#deferred-module-preloads`) and bootstrap
 * (docs/decisions/010-valid-deferred-hydration.md) count: they load after
 * the first paint, without any interaction.
 */
export async function javascriptLoadedAtStart(html: string, clientDirectory: string): Promise<string[]> {
  const pending: string[] = [];
  for (const tag of readTags(html)) {
    const { href, src } = tag.attributes;
    const rel = tag.attributes.rel ?? "";
    const type = tag.attributes.type === DEFERRED_MODULE_TYPE ? "module" : tag.attributes.type;
    if (tag.name === "link" && rel.split(/\s+/).includes("modulepreload") && href) pending.push(href);
    if (tag.name === "script" && tag.attributes.id === PRELOAD_LIST_ID)
      pending.push(...(JSON.parse(tag.text) as string[]));
    if (tag.name === "script" && type === "module" && src) pending.push(src);
    if (tag.name === "script" && type === "module" && !src && tag.text.trim()) {
      const { staticImports, dynamicImports } = await importsOf(tag.text);
      pending.push(...staticImports, ...dynamicImports);
    }
  }
  const loaded = new Set<string>();
  while (pending.length) {
    const file = pending.pop()!;
    if (loaded.has(file)) continue;
    loaded.add(file);
    const code = fs.readFileSync(path.join(clientDirectory, file), "utf8");
    const { staticImports } = await importsOf(code);
    pending.push(...staticImports.map((specifier) => resolveSitePath(specifier, file)));
  }
  return [...loaded].sort();
}

/** The style sheets a page links (`<link rel="stylesheet">`), as site paths. */
export function stylesheetsOf(html: string): string[] {
  return readTags(html)
    .filter((tag) => tag.name === "link" && (tag.attributes.rel ?? "").split(/\s+/).includes("stylesheet"))
    .map((tag) => tag.attributes.href!)
    .filter(Boolean);
}

/** Bytes once compressed with gzip at level 9 (as a reverse proxy would send them). */
export function gzipSize(content: string | Buffer): number {
  return gzipSync(content, { level: 9 }).length;
}

/** True for an absolute URL (`https://…`, `//…`) whose host is not the site's own. */
export function isOtherHost(url: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:)?\/\//i.test(url.trim());
}

/** The URLs in a style sheet's `@import` rules and `url(…)` values. */
export function cssReferences(css: string): string[] {
  const references: string[] = [];
  const root: Root = postcss.parse(css);
  root.walkAtRules("import", (rule) => {
    const match = /^(?:url\()?\s*["']?([^"')\s]+)/.exec(rule.params);
    if (match) references.push(match[1]!);
  });
  root.walkDecls((declaration) => {
    for (const match of declaration.value.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)) references.push(match[1]!);
  });
  return references;
}

/** Each `@font-face` rule of a style sheet, as a map of its descriptors. */
export function fontFaces(css: string): Record<string, string>[] {
  const faces: Record<string, string>[] = [];
  postcss.parse(css).walkAtRules("font-face", (rule) => {
    const descriptors: Record<string, string> = {};
    rule.walkDecls((declaration) => {
      descriptors[declaration.prop.toLowerCase()] = declaration.value;
    });
    faces.push(descriptors);
  });
  return faces;
}

/**
 * Requests that block rendering and go to another host: `<script src>`,
 * `<link rel=stylesheet|preload|modulepreload>`, and `@import`/`url()` in
 * inline `<style>` (style sheets are checked apart, with `cssReferences`).
 */
export function renderBlockingForeignRequests(html: string): string[] {
  const foreign: string[] = [];
  for (const tag of readTags(html)) {
    const rel = (tag.attributes.rel ?? "").split(/\s+/);
    if (tag.name === "script" && tag.attributes.src && isOtherHost(tag.attributes.src))
      foreign.push(`<script src="${tag.attributes.src}">`);
    if (
      tag.name === "link" &&
      tag.attributes.href &&
      rel.some((value) => ["stylesheet", "preload", "modulepreload"].includes(value)) &&
      isOtherHost(tag.attributes.href)
    )
      foreign.push(`<link rel="${tag.attributes.rel}" href="${tag.attributes.href}">`);
    if (tag.name === "style")
      for (const reference of cssReferences(tag.text)) if (isOtherHost(reference)) foreign.push(`<style> ${reference}`);
  }
  return foreign;
}
