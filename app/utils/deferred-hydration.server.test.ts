import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { Parser } from "htmlparser2";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { publicPagePaths, servedPages, spawnSite, type SpawnedSite } from "../../tests/support/harness";
import {
  createRewriter,
  deferHydration,
  DEFERRED_MODULE_TYPE,
  PRELOAD_LIST_ID,
  rewriteHtml,
  STARTER,
} from "./deferred-hydration.server";

/** The shape of what React Router 7.18 and React 19 write (the home page, shortened). */
const page = [
  '<!DOCTYPE html><html lang="fr-CH"><head><meta charSet="utf-8"/>',
  '<link rel="preload" href="/assets/font.woff2" as="font" type="font/woff2" crossorigin="anonymous"/>',
  '<link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" href="/assets/app-B.js"/>',
  '<script type="application/ld+json">{"name":"Formation \\u0026 Assistance"}</script>',
  '<link rel="stylesheet" href="/assets/app-C.css"/></head>',
  "<body><h1>Maîtrisez l’informatique en toute confiance</h1><p>Écrivez-moi : « je réponds sous 24 h ».</p>",
  '<script>window.__reactRouterContext = {"a":"\\u003c/body\\u003e"};</script>',
  '<script type="module" async="">import * as route0 from "/assets/root-D.js";\nimport("/assets/entry.client-A.js");</script>',
  '<script type="module" src="/assets/other.js"></script>',
  "</body></html>",
].join("");

const BOOTSTRAP = 'import * as route0 from "/assets/root-D.js";\nimport("/assets/entry.client-A.js");';
const list = (urls: string[]) =>
  `<script type="application/json" id="${PRELOAD_LIST_ID}">${JSON.stringify(urls)}</script>`;

/** Runs `chunks` through the transform and returns its output as text. */
async function transform(chunks: Buffer[], nonce?: string): Promise<string> {
  const output: Buffer[] = [];
  for await (const chunk of Readable.from(chunks).pipe(deferHydration(nonce))) output.push(Buffer.from(chunk));
  return Buffer.concat(output).toString("utf8");
}

describe("rewriteHtml", () => {
  const html = rewriteHtml(page);

  test("module preloads are taken out (nothing loads) and their URLs listed, in order, in a JSON data block", () => {
    expect(html).not.toMatch(/<link[^>]*modulepreload/);
    expect(html).toContain(list(["/assets/entry.client-A.js", "/assets/app-B.js"]));
    // Other links are left alone: the style sheet and the font still load at once.
    expect(html).toContain('<link rel="stylesheet" href="/assets/app-C.css"/>');
    expect(html).toContain('<link rel="preload" href="/assets/font.woff2"');
  });

  test("the inline bootstrap becomes a data block without async, its text unchanged; scripts with a src and JSON-LD stay", () => {
    expect(html).toContain(`<script type="${DEFERRED_MODULE_TYPE}">${BOOTSTRAP}</script>`);
    expect(html).not.toMatch(/<script[^>]*\stype="module"[^>]*>[^<]/);
    expect(html).toContain('<script type="module" src="/assets/other.js"></script>');
    expect(html).toContain('<script type="application/ld+json">');
  });

  test("the list and the starter come once, just before </body>, the starter with the request's nonce when there is one", () => {
    expect(
      html.endsWith(
        `${list(["/assets/entry.client-A.js", "/assets/app-B.js"])}<script>${STARTER}</script></body></html>`,
      ),
    ).toBe(true);
    expect(html.split(STARTER)).toHaveLength(2);
    expect(rewriteHtml(page, "bm9uY2U=")).toContain(`<script nonce="bm9uY2U=">${STARTER}</script></body>`);
  });

  test("the page's words and other tags are untouched", () => {
    expect(
      html.replace(/<script type="application\/json"[\s\S]*?<\/script><script>\(function[\s\S]*?<\/script>/, ""),
    ).toBe(
      page
        .replace(/<link rel="modulepreload" href="[^"]*"\/>/g, "")
        .replace('<script type="module" async="">', `<script type="${DEFERRED_MODULE_TYPE}">`),
    );
  });

  test("reads tags, not one spelling: attribute order, quotes, case, several rel values, a nonce", () => {
    const other = rewriteHtml(
      "<html><head><link href='/a.js' rel=\"modulepreload prefetch\"><LINK REL=modulepreload HREF=/b.js>" +
        '<link rel="preload" href="/c.js" as="script"></head><body>' +
        '<SCRIPT nonce="n1" async TYPE="Module" crossorigin="anonymous">run()</SCRIPT></body></html>',
    );
    expect(other).toContain(list(["/a.js", "/b.js"]));
    expect(other).toContain('<link rel="preload" href="/c.js" as="script">');
    expect(other).toContain(`<script nonce="n1" type="${DEFERRED_MODULE_TYPE}">run()</SCRIPT>`);
  });

  test("URLs are decoded from the attribute (React escapes & < > there) and cannot close the data block", () => {
    const other = rewriteHtml(
      '<head><link rel="modulepreload" href="/a.js?x=1&amp;y=&lt;/script&gt;"/></head><body></body>',
    );
    expect(other).toContain(`>["/a.js?x=1&y=\\u003c/script>"]</script>`);
  });

  test("a page without module preloads or bootstrap still gets the starter, with an empty list", () => {
    expect(rewriteHtml("<html><body><p>Bonjour</p></body></html>")).toBe(
      `<html><body><p>Bonjour</p>${list([])}<script>${STARTER}</script></body></html>`,
    );
  });

  test("a page cut short before </body> still gets the list and the starter at its end", () => {
    const { rewrite, finish } = createRewriter();
    const start = rewrite('<head><link rel="modulepreload" href="/a.js"/></head><body><p>Bonj');
    expect(start).toBe("<head></head><body><p>Bonj");
    expect(finish()).toBe(`${list(["/a.js"])}<script>${STARTER}</script>`);
    expect(finish(), "written once").toBe("");
  });
});

describe("createRewriter().report", () => {
  test("says what was taken out and deferred", () => {
    const { rewrite, report } = createRewriter();
    rewrite(page);
    expect(report).toEqual({
      preloads: ["/assets/entry.client-A.js", "/assets/app-B.js"],
      deferredScripts: 1,
      starterWritten: true,
    });
  });
});

describe("deferHydration (stream)", () => {
  test("gives the same page whatever the chunk boundaries (inside tags and inside UTF-8 characters)", async () => {
    const bytes = Buffer.from(page, "utf8");
    const expected = rewriteHtml(page, "abc");
    for (let cut = 1; cut < bytes.length; cut++) {
      const second = Math.min(bytes.length - 1, cut + 7);
      const chunks = [bytes.subarray(0, cut), bytes.subarray(cut, second), bytes.subarray(second)].filter(
        (chunk) => chunk.length > 0,
      );
      expect(await transform(chunks, "abc"), `cut at byte ${cut}`).toBe(expected);
    }
  });

  test("passes each complete part on at once (the page still streams)", async () => {
    const stream = deferHydration();
    const seen: string[] = [];
    stream.on("data", (chunk: Buffer) => seen.push(chunk.toString("utf8")));
    stream.write(Buffer.from('<html><head><link rel="modulepreload" href="/a.js"/></head><body><p>Bonjour</p><di'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.join("")).toBe("<html><head></head><body><p>Bonjour</p>");
    stream.end(Buffer.from("v>Suite</div></body></html>"));
    await new Promise((resolve) => stream.on("end", resolve));
    expect(seen.join("")).toContain(`<div>Suite</div>${list(["/a.js"])}<script>${STARTER}</script></body></html>`);
  });

  test("ends a page cut short with the list and the starter", async () => {
    const output = await transform([
      Buffer.from('<html><head><link rel="modulepreload" href="/a.js"/></head><body><p>'),
    ]);
    expect(output).toBe(`<html><head></head><body><p>${list(["/a.js"])}<script>${STARTER}</script>`);
  });

  test("calls onFinal once the page has ended", async () => {
    let finals = 0;
    const stream = deferHydration(undefined, () => finals++);
    stream.resume();
    stream.end(Buffer.from("<html><body></body></html>"));
    await new Promise((resolve) => stream.on("end", resolve));
    expect(finals).toBe(1);
  });
});

/** The `<link>` and `<script>` elements of a document, read by a real HTML parser (not the transform's regular expressions). */
function linksAndScripts(html: string) {
  const elements: { name: string; attributes: Record<string, string>; text: string }[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "link" || name === "script") elements.push({ name, attributes, text: "" });
      },
      ontext(text) {
        const last = elements.at(-1);
        if (last?.name === "script") last.text += text;
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return elements;
}

/**
 * The guard on React Router's output: the pages the production server
 * serves (every page of the sitemap and every noindex page) went through
 * React Router and React as they are, then through this transform
 * (app/entry.server.tsx). When a new release writes its preloads or its
 * bootstrap in a shape the transform does not recognise, something here fails.
 */
describe("React Router's real output, served by the production build (tests/integration/global-setup.ts)", async () => {
  const clientDirectory = path.join(process.env.BUILD_DIR ?? "build", "client");
  const paths = await publicPagePaths();
  const served = new Map<string, string>();
  let site: SpawnedSite | undefined;
  beforeAll(async () => {
    site = await spawnSite({ LOG_LEVEL: "warn" });
    await site.ready();
    for (const page of await servedPages(site.url, paths)) served.set(page.path, page.html);
  });
  afterAll(async () => {
    await site?.stop();
  });

  test("there are served pages to check", () => {
    expect(paths.length).toBeGreaterThan(1);
    expect([...served.keys()]).toEqual(paths);
  });

  for (const sitePath of paths) {
    test(`${sitePath}: no module loads before the starter, and the starter has what React Router wrote`, () => {
      const elements = linksAndScripts(served.get(sitePath)!);
      const preloadLinks = elements.filter(
        (element) => element.name === "link" && /(^|\s)modulepreload(\s|$)/i.test(element.attributes.rel ?? ""),
      );
      expect(preloadLinks, "no <link rel=modulepreload> left in the HTML").toEqual([]);
      const inlineModules = elements.filter(
        (element) =>
          element.name === "script" && element.attributes.type === "module" && !("src" in element.attributes),
      );
      expect(inlineModules, "no inline module script left in the HTML").toEqual([]);

      const deferred = elements.filter((element) => element.attributes.type === DEFERRED_MODULE_TYPE);
      expect(deferred, "one deferred bootstrap").toHaveLength(1);
      expect(Object.keys(deferred[0]!.attributes), "no attribute a data block may not have").toEqual(["type"]);
      const lists = elements.filter((element) => element.attributes.id === PRELOAD_LIST_ID);
      expect(lists, "one list of module preloads").toHaveLength(1);
      expect(lists[0]!.attributes.type).toBe("application/json");
      expect(
        elements.filter((element) => element.text === STARTER),
        "one starter",
      ).toHaveLength(1);

      // The list holds entry.client and every module the bootstrap imports, each a file of the build.
      const listed = JSON.parse(lists[0]!.text) as string[];
      const imported = [...deferred[0]!.text.matchAll(/import(?:\s+\*\s+as\s+\w+\s+from\s*|\s*\()\s*"([^"]+)"/g)].map(
        (match) => match[1]!,
      );
      expect(
        imported.some((url) => url.includes("/entry.client-")),
        "the bootstrap imports entry.client",
      ).toBe(true);
      expect(listed).toEqual(expect.arrayContaining(imported));
      for (const url of listed) expect(fs.existsSync(path.join(clientDirectory, url)), `${url} exists`).toBe(true);
    });
  }
});
