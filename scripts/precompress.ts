/**
 * Compresses the build's hashed assets once, at build time, at the strongest
 * levels (brotli quality 11, gzip level 9), next to each file
 * (`assets/app-1a2b.js.br`, `assets/app-1a2b.js.gz`). The server sends these
 * files as they are (express-static-gzip), instead of compressing each
 * response on the fly at the fast levels the `compression` middleware uses
 * (brotli 4, gzip 6): fewer bytes for an old phone on a weak connection, no
 * CPU spent per request.
 *
 * `precompressAssets(assetsDirectory)` returns `{ files, bytes, brotliBytes }`
 * (how many files, their raw and brotli sizes). Pictures and fonts (already
 * compressed) are left alone.
 * @throws the `fs` or `zlib` error when a file cannot be read or written
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

/** Text formats worth compressing; WOFF2, AVIF, WebP, PNG and JPEG are compressed already. */
const COMPRESSIBLE = new Set([".js", ".css", ".svg", ".json", ".map", ".txt", ".xml"]);

export function precompressAssets(assetsDirectory: string): { files: number; bytes: number; brotliBytes: number } {
  let files = 0;
  let bytes = 0;
  let brotliBytes = 0;
  for (const name of fs.readdirSync(assetsDirectory)) {
    if (!COMPRESSIBLE.has(path.extname(name))) continue;
    const file = path.join(assetsDirectory, name);
    const content = fs.readFileSync(file);
    const brotli = zlib.brotliCompressSync(content, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    fs.writeFileSync(`${file}.br`, brotli);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
    files += 1;
    bytes += content.length;
    brotliBytes += brotli.length;
  }
  return { files, bytes, brotliBytes };
}
