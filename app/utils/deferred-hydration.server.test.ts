import { Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { deferHydration, DEFERRED_MODULE_TYPE, rewriteHtml, STARTER } from "./deferred-hydration.server";

/** The shape of what React Router and React write (prerendered home page, shortened). */
const page = [
  '<!DOCTYPE html><html lang="fr-CH"><head><meta charSet="utf-8"/>',
  '<link rel="preload" href="/assets/font.woff2" as="font" type="font/woff2" crossorigin="anonymous"/>',
  '<link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" href="/assets/app-B.js"/>',
  '<script type="application/ld+json">{"name":"Formation & Assistance"}</script>',
  '<link rel="stylesheet" href="/assets/app-C.css"/></head>',
  "<body><h1>Maîtrisez l’informatique en toute confiance</h1><p>Écrivez-moi : « je réponds sous 24 h ».</p>",
  '<script>window.__reactRouterContext = {"a":"\\u003c/body\\u003e"};</script>',
  '<script type="module" async="">import * as route0 from "/assets/root-D.js";\nimport("/assets/entry.client-A.js");</script>',
  '<script type="module" src="/assets/other.js"></script>',
  "</body></html>",
].join("");

/** Runs `chunks` through the transform and returns its output as text. */
async function transform(chunks: Buffer[], nonce?: string): Promise<string> {
  const output: Buffer[] = [];
  for await (const chunk of Readable.from(chunks).pipe(deferHydration(nonce))) output.push(Buffer.from(chunk));
  return Buffer.concat(output).toString("utf8");
}

describe("rewriteHtml", () => {
  const html = rewriteHtml(page);

  test("module preloads lose their rel (nothing loads) but keep it aside for the starter", () => {
    expect(html).not.toMatch(/\srel="modulepreload"/);
    expect(html).toContain('<link data-deferred-rel="modulepreload" href="/assets/entry.client-A.js"/>');
    expect(html).toContain('<link data-deferred-rel="modulepreload" href="/assets/app-B.js"/>');
    // Other links are left alone: the style sheet and the font still load at once.
    expect(html).toContain('<link rel="stylesheet" href="/assets/app-C.css"/>');
    expect(html).toContain('<link rel="preload" href="/assets/font.woff2"');
  });

  test("the inline bootstrap becomes a data block, with its text unchanged; scripts with a src and JSON-LD stay", () => {
    expect(html).toContain(
      `<script type="${DEFERRED_MODULE_TYPE}" async="">import * as route0 from "/assets/root-D.js";\nimport("/assets/entry.client-A.js");</script>`,
    );
    expect(html).toContain('<script type="module" src="/assets/other.js"></script>');
    expect(html).toContain('<script type="application/ld+json">');
  });

  test("the starter comes once, just before </body>, with the request's nonce when there is one", () => {
    expect(html.endsWith(`<script>${STARTER}</script></body></html>`)).toBe(true);
    expect(html.split(STARTER)).toHaveLength(2);
    expect(rewriteHtml(page, "bm9uY2U=")).toContain(`<script nonce="bm9uY2U=">${STARTER}</script></body>`);
  });

  test("the page's words are untouched", () => {
    expect(html).toContain("<h1>Maîtrisez l’informatique en toute confiance</h1>");
    expect(html.replace(/<script>\(function[\s\S]*?<\/script>/, "")).toBe(
      page
        .replaceAll('<link rel="modulepreload"', '<link data-deferred-rel="modulepreload"')
        .replace('<script type="module" async="">', `<script type="${DEFERRED_MODULE_TYPE}" async="">`),
    );
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
    expect(seen.join("")).toBe(
      '<html><head><link data-deferred-rel="modulepreload" href="/a.js"/></head><body><p>Bonjour</p>',
    );
    stream.end(Buffer.from("v>Suite</div></body></html>"));
    await new Promise((resolve) => stream.on("end", resolve));
    expect(seen.join("")).toContain(`<div>Suite</div><script>${STARTER}</script></body></html>`);
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
