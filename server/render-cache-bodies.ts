/**
 * The bodies of a kept answer (docs/decisions/062-kept-pages-held-compressed.md):
 * `compressedBodies(html)` makes its brotli (`BROTLI_QUALITY`) and gzip
 * (level 9) copies, each in memory of its own length, once per change; the
 * HTML itself is not kept. `encodedBody` and `encodedLength` give what is
 * sent in the encoding a visitor prefers (server/accept-encoding.ts),
 * the HTML inflated from gzip (`identityOf`) for the rare visitor who
 * accepts neither.
 */
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Encoding } from "./accept-encoding.ts";
import type { RenderedPage } from "./render-cache-store.ts";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The brotli quality of a kept page (decision 059): 5 compresses a 47 KB
 * article in about 1 ms of CPU, 11 (the highest) in about 43 ms for 9 %
 * fewer bytes; a page not kept yet is compressed while its visitor waits,
 * and a crawler's walk through the archive is one such page per request.
 */
export const BROTLI_QUALITY = 5;

/**
 * `buffer` in memory of its own length. Zlib's asynchronous output that fits in one chunk is a slice
 * of a larger buffer (brotli's: 16 KB): a 500-byte body kept as is would hold 16 KB the bound does not see.
 */
function held(buffer: Buffer): Buffer {
  if (buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.length) return buffer;
  const copy = Buffer.allocUnsafeSlow(buffer.length);
  buffer.copy(copy);
  return copy;
}

/** The brotli and gzip copies of `body`, compressed in the thread pool, each held at its own length. */
export async function compressedBodies(body: Buffer): Promise<{ brotli: Buffer; gzip: Buffer }> {
  const [brotlied, gzipped] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: 9 }),
  ]);
  return { brotli: held(brotlied), gzip: held(gzipped) };
}

/**
 * The answer as rendered: its `body`, or for a kept page its gzip body inflated (about 0.14 ms of CPU for
 * a 47 KB article; only a visitor accepting neither brotli nor gzip asks for it).
 */
export const identityOf = (page: RenderedPage): Buffer => page.body ?? zlib.gunzipSync(page.gzip!);

/** A kept page's body in `encoding` (the identity one inflated, `identityOf`). */
export const encodedBody = (page: RenderedPage, encoding: Encoding): Buffer =>
  encoding === "br" ? page.brotli! : encoding === "gzip" ? page.gzip! : identityOf(page);

/** The length of a kept page's body in `encoding`, in bytes (nothing inflated). */
export const encodedLength = (page: RenderedPage, encoding: Encoding): number =>
  encoding === "identity" ? page.length : encodedBody(page, encoding).length;
