/**
 * What the server learns of a picture's bytes as they pass, without holding
 * them (an upload streamed to disk, upload-form.server.ts) or from a whole
 * file in memory: enough for the checks made before any decoding
 * (pictures.server.ts's `preparePicture`) and the files' addresses.
 *
 * - `new PictureExaminer()`, `push(chunk)` for each chunk in order, then
 *   `facts()` → `PictureFacts`.
 * - `examine(bytes)` → the same for a whole file.
 */
import crypto from "node:crypto";
import { JpegScanCounter } from "./jpeg-scans.server";

/** Bytes kept of a file's start: an SVG says so there. */
const HEAD_BYTES = 4096;

export interface PictureFacts {
  /** Its size, in bytes. */
  size: number;
  /** The first 12 hex digits of its SHA-256 (in its files' addresses). */
  hash: string;
  /** Its first 4 KiB (fewer when it is shorter). */
  head: Buffer;
  /** How many scans it holds when it starts as a JPEG (jpeg-scans.server.ts), else null. */
  jpegScans: number | null;
}

export class PictureExaminer {
  private size = 0;
  private readonly sha = crypto.createHash("sha256");
  private readonly headChunks: Buffer[] = [];
  private headSize = 0;
  private readonly scans = new JpegScanCounter();

  push(chunk: Uint8Array): void {
    this.size += chunk.byteLength;
    this.sha.update(chunk);
    if (this.headSize < HEAD_BYTES) {
      const part = Buffer.from(chunk.subarray(0, HEAD_BYTES - this.headSize));
      this.headChunks.push(part);
      this.headSize += part.length;
    }
    this.scans.push(chunk);
  }

  /** What was learnt; call once, after the last chunk. */
  facts(): PictureFacts {
    return {
      size: this.size,
      hash: this.sha.digest("hex").slice(0, 12),
      head: Buffer.concat(this.headChunks),
      jpegScans: this.scans.jpeg ? this.scans.scans : null,
    };
  }
}

export function examine(bytes: Uint8Array): PictureFacts {
  const examiner = new PictureExaminer();
  examiner.push(bytes);
  return examiner.facts();
}
