/**
 * Compresses the hashed assets once, at build time, at the strongest levels
 * (brotli quality 11, gzip level 9), next to each file
 * (`assets/app-1a2b.js.br`, `assets/app-1a2b.js.gz`). The server sends these
 * files as they are (express-static-gzip), instead of compressing each
 * response on the fly at the fast levels the `compression` middleware uses
 * (brotli 4, gzip 6): fewer bytes for an old phone on a weak connection, no
 * CPU spent per request. (Pages are compressed the same way by the render
 * cache, once per change: server/render-cache.ts.)
 *
 * `precompressAssets(assetsDirectory)` compresses the assets' text files
 * (pictures and fonts are compressed already) and returns
 * `{ files, bytes, brotliBytes }` (how many files, their raw and brotli sizes).
 * @throws the `fs` or `zlib` error when a file cannot be read or written
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

/** Text formats worth compressing; WOFF2, AVIF, WebP, PNG and JPEG are compressed already. */
const COMPRESSIBLE = new Set([".js", ".css", ".svg", ".json", ".map", ".txt", ".xml"]);

export type PrecompressStats = { files: number; bytes: number; brotliBytes: number };

function precompressFiles(files: string[]): PrecompressStats {
  const stats = { files: 0, bytes: 0, brotliBytes: 0 };
  for (const file of files) {
    const content = fs.readFileSync(file);
    const brotli = zlib.brotliCompressSync(content, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    fs.writeFileSync(`${file}.br`, brotli);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
    stats.files += 1;
    stats.bytes += content.length;
    stats.brotliBytes += brotli.length;
  }
  return stats;
}

export function precompressAssets(assetsDirectory: string): PrecompressStats {
  return precompressFiles(
    fs
      .readdirSync(assetsDirectory)
      .filter((name) => COMPRESSIBLE.has(path.extname(name)))
      .map((name) => path.join(assetsDirectory, name)),
  );
}
