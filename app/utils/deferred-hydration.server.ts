/**
 * Deferred hydration: the page's JavaScript starts loading once the page
 * has painted its first content, not before (docs/decisions/009-deferred-hydration.md).
 *
 * React Router writes, in every page it renders (prerendered or on request),
 * `<link rel="modulepreload">` tags in the head and one inline
 * `<script type="module" async>` that imports the route modules and then
 * `entry.client` (hydration). On a slow connection those ~110 KB of
 * JavaScript compete with the style sheet, the font and the pictures for
 * the first paint, although every page works without JavaScript.
 *
 * `deferHydration()` is a stream transform for the HTML that React renders:
 * - `<link rel="modulepreload" …>` becomes `<link data-deferred-rel="modulepreload" …>`
 *   (a link without `rel` loads nothing);
 * - `<script … type="module" …>` (inline, the bootstrap) becomes
 *   `<script … type="text/x-deferred-module" …>` (a data block: not run);
 * - before `</body>` it adds the starter (`STARTER`, a small classic
 *   script) which, once the browser reports the first contentful paint
 *   (Paint Timing API; after the next frame where that API is missing; at
 *   the latest 3 s after it runs), gives the links their `rel` back (all
 *   modules then load in parallel, as before) and puts in place of each
 *   inert script a new module script with the same text and nonce, which
 *   the browser runs.
 *
 * The content security policy allows the re-inserted script by the same
 * hash or nonce as the original (`server/security.ts` hashes the inert
 * type too). Chunk boundaries may fall anywhere, even inside a tag or a
 * UTF-8 character: text after the last `<` that has no `>` yet is held
 * back until the next chunk.
 */
import { Transform, type TransformCallback } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/** The `type` of the bootstrap script until the starter runs it. */
export const DEFERRED_MODULE_TYPE = "text/x-deferred-module";

/** The attribute that holds a link's `rel` until the starter puts it back. */
export const DEFERRED_REL_ATTRIBUTE = "data-deferred-rel";

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
    document.querySelectorAll("link[${DEFERRED_REL_ATTRIBUTE}]").forEach(function (link) {
      link.setAttribute("rel", link.getAttribute("${DEFERRED_REL_ATTRIBUTE}"));
      link.removeAttribute("${DEFERRED_REL_ATTRIBUTE}");
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

/** `rel="modulepreload"` as the first attribute of a link, as React writes it. */
const MODULE_PRELOAD = /<link rel="modulepreload"/g;
/** An inline module script's opening tag (React writes no `src` for the bootstrap). */
const MODULE_SCRIPT = /<script\b([^>]*?) type="module"([^>]*)>/g;

/** Rewrites the complete tags of `html` (see the module's description); `</body>` gets the starter before it. */
export function rewriteHtml(html: string, nonce?: string): string {
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : "";
  return html
    .replace(MODULE_PRELOAD, `<link ${DEFERRED_REL_ATTRIBUTE}="modulepreload"`)
    .replace(MODULE_SCRIPT, (tag: string, before: string, after: string) =>
      /\ssrc=/.test(tag) ? tag : `<script${before} type="${DEFERRED_MODULE_TYPE}"${after}>`,
    )
    .replace("</body>", `<script${nonceAttribute}>${STARTER}</script></body>`);
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
    if (ready) transform.push(rewriteHtml(ready, nonce));
  };
  return new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback) {
      push(this, typeof chunk === "string" ? chunk : decoder.write(chunk), false);
      callback();
    },
    flush(callback: TransformCallback) {
      push(this, decoder.end(), true);
      onFinal?.();
      callback();
    },
  });
}
