/**
 * Deferred hydration: the page's JavaScript starts loading once the page
 * has painted its first content, not before
 * (docs/decisions/010-valid-deferred-hydration.md, after 009).
 *
 * React Router writes, in every page it renders (prerendered or on request),
 * `<link rel="modulepreload">` tags and one inline
 * `<script type="module" async>` that imports the route modules and then
 * `entry.client` (hydration). On a slow connection those ~120 KB of
 * JavaScript compete with the style sheet, the font and the pictures for
 * the first paint, although every page works without JavaScript.
 *
 * `deferHydration()` is a stream transform for the HTML that React renders.
 * Its output is valid HTML (the Nu HTML Checker test,
 * tests/integration/html-validity.test.ts):
 * - each `<link>` whose `rel` holds `modulepreload` is taken out, and its
 *   URL kept;
 * - each inline `<script type="module">` (the bootstrap) becomes
 *   `<script type="text/x-deferred-module">`, a data block that is not run,
 *   with its text unchanged; the attributes a data block may not carry
 *   (`async`, `defer`, `nomodule`, `crossorigin`, …) are dropped;
 * - before `</body>` it writes the kept URLs as a JSON array in
 *   `<script type="application/json" id="deferred-module-preloads">`, then
 *   the starter (`STARTER`, a small classic script with the request's nonce
 *   when there is one). Once the browser reports the first contentful paint
 *   (Paint Timing API; after the next frame where that API is missing; at the
 *   latest 3 s after it runs), the starter adds a `<link rel="modulepreload">`
 *   to the head for each URL (every module then loads in parallel) and puts
 *   in place of each inert script a module script with the same text and
 *   nonce, which the browser runs.
 *
 * It reads tags, not React Router's exact text: attributes in any order and
 * quoting. Whatever shape React Router writes, the transform fails safe: a
 * preload or script it does not recognise is left as it is (it loads early,
 * as without this module), and what it hides the starter puts back. The
 * guard in deferred-hydration.server.test.ts reads every page of the
 * production build and fails when React Router's output stops matching (a
 * preload or inline module script left, no bootstrap, a bootstrap import
 * missing from the list); tests/e2e/deferred-hydration.spec.ts checks the
 * loading order in a browser.
 *
 * The content security policy allows the re-inserted script by the same hash
 * or nonce as the original (`server/security.ts` hashes the inert type too);
 * the JSON block is data, not hashed. Chunk boundaries may fall anywhere,
 * even inside a tag or a UTF-8 character: text after the last `<` that has
 * no `>` yet is held back until the next chunk.
 *
 * Sources: HTML Living Standard, "The script element" (data blocks, and the
 * attributes they must not have), https://html.spec.whatwg.org/multipage/scripting.html#the-script-element;
 * "Link type modulepreload", https://html.spec.whatwg.org/multipage/links.html#link-type-modulepreload.
 */
import { Transform, type TransformCallback } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/** The `type` of the bootstrap script until the starter runs it. */
export const DEFERRED_MODULE_TYPE = "text/x-deferred-module";

/** The `id` of the JSON data block that lists the module preloads' URLs. */
export const PRELOAD_LIST_ID = "deferred-module-preloads";

/** Longest time (ms) the starter waits for the first contentful paint. */
const FALLBACK_DELAY_MS = 3000;

/**
 * The starter, ES5 so that no browser chokes on it (a browser without
 * module scripts keeps the page as prerendered, which works).
 */
export const STARTER = `(function () {
  var started = false;
  function start() {
    if (started) return;
    started = true;
    var list = document.getElementById("${PRELOAD_LIST_ID}");
    (list ? JSON.parse(list.textContent) : []).forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.appendChild(link);
    });
    document.querySelectorAll('script[type="${DEFERRED_MODULE_TYPE}"]').forEach(function (inert) {
      var script = document.createElement("script");
      script.type = "module";
      script.nonce = inert.nonce;
      script.textContent = inert.textContent;
      inert.parentNode.replaceChild(script, inert);
    });
  }
  var observer = window.PerformanceObserver;
  if (observer && observer.supportedEntryTypes && observer.supportedEntryTypes.indexOf("paint") >= 0) {
    new observer(function (list) {
      if (list.getEntriesByName("first-contentful-paint").length) setTimeout(start, 0);
    }).observe({ type: "paint", buffered: true });
  } else {
    requestAnimationFrame(function () { setTimeout(start, 0); });
  }
  setTimeout(start, ${FALLBACK_DELAY_MS});
})();`;

/** Attributes a data block must not have (HTML, "The script element"), dropped from the deferred bootstrap. */
const NOT_ON_DATA_BLOCKS = new Set([
  "src",
  "async",
  "defer",
  "nomodule",
  "crossorigin",
  "integrity",
  "referrerpolicy",
  "fetchpriority",
  "blocking",
  "charset",
  "language",
]);

/** One attribute as written: its name (lower case) and its value with the entities React writes decoded. */
type Attribute = { name: string; value: string };

const ENTITIES: Record<string, string> = { amp: "&", quot: '"', "#x27": "'", "#39": "'", lt: "<", gt: ">" };
const decodeEntities = (value: string) =>
  value.replace(/&(amp|quot|#x27|#39|lt|gt);/g, (_, name: string) => ENTITIES[name]!);
const encodeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** The attributes of an opening tag's source (what follows the tag name), in order. */
function parseAttributes(source: string): Attribute[] {
  const attributes: Attribute[] = [];
  for (const match of source.matchAll(/([^\s"'=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g))
    attributes.push({ name: match[1]!.toLowerCase(), value: decodeEntities(match[2] ?? match[3] ?? match[4] ?? "") });
  return attributes;
}

const valueOf = (attributes: Attribute[], name: string) =>
  attributes.find((attribute) => attribute.name === name)?.value;

/** A complete `<link …>` tag, or a `<script …>` opening tag (HTML is case-insensitive). */
const TAG = /<(link|script)\b([^>]*)>/gi;

/** What the transform found in a page (for its tests): module preloads taken out, inline module scripts deferred. */
export type DeferralReport = { preloads: string[]; deferredScripts: number; starterWritten: boolean };

/**
 * The rewriter of one page: `rewrite` takes successive pieces of HTML that
 * end between tags (see the module's description) and returns them
 * rewritten; `finish` returns the preload list and the starter if no
 * `</body>` came (a page cut short) but something was deferred, so that
 * nothing stays hidden; `report` says what it did so far.
 * @param nonce the request's CSP nonce, given to the starter's `<script>`
 */
export function createRewriter(nonce?: string): {
  rewrite: (html: string) => string;
  finish: () => string;
  report: DeferralReport;
} {
  const report: DeferralReport = { preloads: [], deferredScripts: 0, starterWritten: false };
  const nonceAttribute = nonce ? ` nonce="${encodeAttribute(nonce)}"` : "";
  const rewriteTag = (tag: string, name: string, source: string) => {
    const attributes = parseAttributes(source);
    if (name.toLowerCase() === "link") {
      const rel = (valueOf(attributes, "rel") ?? "").toLowerCase().split(/\s+/);
      const href = valueOf(attributes, "href");
      if (!rel.includes("modulepreload") || !href) return tag;
      report.preloads.push(href);
      return "";
    }
    const type = valueOf(attributes, "type")?.trim().toLowerCase();
    if (type !== "module" || valueOf(attributes, "src") !== undefined) return tag;
    report.deferredScripts++;
    const kept = attributes
      .filter((attribute) => attribute.name !== "type" && !NOT_ON_DATA_BLOCKS.has(attribute.name))
      .map((attribute) => ` ${attribute.name}="${encodeAttribute(attribute.value)}"`)
      .join("");
    return `<script${kept} type="${DEFERRED_MODULE_TYPE}">`;
  };
  const starter = () => {
    report.starterWritten = true;
    // JSON.stringify leaves "<" as is: escaped, "</script>" cannot end the block early.
    const list = JSON.stringify(report.preloads).replace(/</g, "\\u003c");
    return `<script type="application/json" id="${PRELOAD_LIST_ID}">${list}</script><script${nonceAttribute}>${STARTER}</script>`;
  };
  const rewrite = (html: string) => {
    const out = html.replace(TAG, rewriteTag);
    const bodyEnd = report.starterWritten ? -1 : out.search(/<\/body>/i);
    return bodyEnd === -1 ? out : out.slice(0, bodyEnd) + starter() + out.slice(bodyEnd);
  };
  const finish = () =>
    !report.starterWritten && (report.preloads.length > 0 || report.deferredScripts > 0) ? starter() : "";
  return { rewrite, finish, report };
}

/** Rewrites a whole page at once (see the module's description). */
export function rewriteHtml(html: string, nonce?: string): string {
  const { rewrite, finish } = createRewriter(nonce);
  return rewrite(html) + finish();
}

/**
 * A transform for the HTML stream (bytes in, UTF-8 bytes out) that defers
 * the page's JavaScript as described above.
 * @param nonce the request's CSP nonce, given to the starter's `<script>`
 *   (none while prerendering: the server allows it by hash)
 * @param onFinal called once the input has ended (e.g. to clear a timer)
 */
export function deferHydration(nonce?: string, onFinal?: () => void): Transform {
  const decoder = new StringDecoder("utf8");
  const { rewrite, finish } = createRewriter(nonce);
  let heldBack = "";
  const push = (transform: Transform, text: string, end: boolean) => {
    let ready = heldBack + text;
    heldBack = "";
    if (!end) {
      const lastOpen = ready.lastIndexOf("<");
      if (lastOpen !== -1 && ready.indexOf(">", lastOpen) === -1) {
        heldBack = ready.slice(lastOpen);
        ready = ready.slice(0, lastOpen);
      }
    }
    if (ready) transform.push(rewrite(ready));
  };
  return new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback) {
      push(this, typeof chunk === "string" ? chunk : decoder.write(chunk), false);
      callback();
    },
    flush(callback: TransformCallback) {
      push(this, decoder.end(), true);
      const rest = finish();
      if (rest) this.push(rest);
      onFinal?.();
      callback();
    },
  });
}
