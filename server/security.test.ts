/** Inline script hashes for the Content-Security-Policy of the pages kept in the render cache (server/render-cache.ts). */
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFERRED_MODULE_TYPE } from "../app/utils/deferred-hydration.server";
import { inlineScriptHashes } from "./security";

// CSP Level 3, section "hash-source": the example script and its SHA-256 source.
const SPEC_SCRIPT = "alert('Hello, world.');";
const SPEC_HASH = "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='";

describe("inlineScriptHashes", () => {
  it("gives the hash the CSP specification gives for its example script", () => {
    expect(inlineScriptHashes(`<html><body><script>${SPEC_SCRIPT}</script></body></html>`)).toEqual([SPEC_HASH]);
  });

  it("hashes classic and module scripts, in order, once each", () => {
    const html = `<script type="module">import "/a.js";</script><script>${SPEC_SCRIPT}</script><script type="text/javascript">${SPEC_SCRIPT}</script>`;
    const hashes = inlineScriptHashes(html);
    expect(hashes).toHaveLength(2);
    expect(hashes[1]).toBe(SPEC_HASH);
  });

  it("hashes the characters as written: entities stay undecoded, like the browser reads script text", () => {
    const decoded = inlineScriptHashes(`<script>${SPEC_SCRIPT}</script>`);
    const encoded = inlineScriptHashes(`<script>alert(&#x27;Hello, world.&#x27;);</script>`);
    expect(encoded).toHaveLength(1);
    expect(encoded).not.toEqual(decoded);
  });

  it("skips scripts with a src and data blocks such as JSON-LD, which browsers do not run", () => {
    const html = `<script src="/assets/a.js"></script><script type="application/ld+json">{"@type":"Thing"}</script>`;
    expect(inlineScriptHashes(html)).toEqual([]);
  });

  it("hashes the deferred bootstrap: the starter runs its text as a module (decision 009)", () => {
    expect(inlineScriptHashes(`<script type="${DEFERRED_MODULE_TYPE}" async="">${SPEC_SCRIPT}</script>`)).toEqual([
      SPEC_HASH,
    ]);
  });

  it("hashes a script that spans several text chunks as one", () => {
    const long = `var text = "${"é".repeat(70_000)}";`;
    const whole = `'sha256-${crypto.createHash("sha256").update(long).digest("base64")}'`;
    expect(inlineScriptHashes(`<script>${long}</script>`)).toEqual([whole]);
  });
});
