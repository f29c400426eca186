/**
 * How many scans a JPEG holds (issue 33, item 5). A progressive JPEG comes
 * in scans, and a decoder walks every block of the picture once per scan:
 * a crafted file of a few hundred KB in thousands of scans holds a decoder
 * for minutes. libvips 8.17 (sharp 0.34) and its libjpeg set no limit on
 * scans, and sharp's time limit is only checked between tiles, after the
 * whole progressive decode: the count is read here, before decoding.
 *
 * - `new JpegScanCounter()`: counts as the file's bytes pass, chunk by
 *   chunk (`push(chunk)`), holding none of them (an upload streamed to
 *   disk, app/pictures/upload-form.server.ts). `scans` is the number of
 *   start-of-scan markers (SOS, 0xFFDA) found walking the file's segments
 *   and entropy-coded data; `jpeg` says whether the file starts as a JPEG
 *   (SOI). Counting stops at the end of the image, at a malformed segment
 *   (libvips judges the rest) or past `stopAfter`.
 * - `jpegScanCount(bytes, stopAfter)` → the same count for a whole file
 *   (after its SOI), at most `stopAfter + 1`. Never throws.
 */

type State =
  "soi0" | "soi1" | "marker0" | "marker1" | "length0" | "length1" | "segment" | "entropy" | "entropyFF" | "done";

/** Markers without a length: RST0–RST7 and TEM. */
const standalone = (marker: number) => (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01;

export class JpegScanCounter {
  /** Start-of-scan markers found so far. */
  scans = 0;
  /** Whether the bytes start with a JPEG's SOI (0xFFD8); false until two bytes have passed. */
  jpeg = false;
  private state: State = "soi0";
  private marker = 0;
  private length = 0;
  private left = 0;

  constructor(private readonly stopAfter = Number.POSITIVE_INFINITY) {}

  /** Counts the scans in the next bytes of the file. */
  push(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let at = 0;
    while (at < bytes.length && this.state !== "done") {
      const byte = bytes[at]!;
      switch (this.state) {
        case "soi0":
          this.state = byte === 0xff ? "soi1" : "done";
          break;
        case "soi1":
          this.jpeg = byte === 0xd8;
          this.state = this.jpeg ? "marker0" : "done";
          break;
        case "marker0":
          this.state = byte === 0xff ? "marker1" : "done";
          break;
        case "marker1":
          // Fill bytes (0xFF 0xFF…) keep this state; EOI ends the image.
          if (byte === 0xff) break;
          if (standalone(byte)) this.state = "marker0";
          else if (byte === 0xd9) this.state = "done";
          else {
            this.marker = byte;
            this.state = "length0";
          }
          break;
        case "length0":
          this.length = byte << 8;
          this.state = "length1";
          break;
        case "length1":
          this.length |= byte;
          if (this.length < 2) {
            this.state = "done";
            break;
          }
          if (this.marker === 0xda && ++this.scans > this.stopAfter) {
            this.state = "done";
            break;
          }
          this.left = this.length - 2;
          this.state = "segment";
          at += 1;
          continue;
        case "segment": {
          const skipped = Math.min(this.left, bytes.length - at);
          this.left -= skipped;
          at += skipped;
          if (this.left === 0) this.state = this.marker === 0xda ? "entropy" : "marker0";
          continue;
        }
        case "entropy": {
          // Entropy-coded data: runs until a 0xFF followed by anything but 0x00 (stuffing) or RSTn.
          const next = bytes.indexOf(0xff, at);
          if (next === -1) return;
          at = next + 1;
          this.state = "entropyFF";
          continue;
        }
        case "entropyFF":
          if (byte === 0x00 || (byte >= 0xd0 && byte <= 0xd7)) this.state = "entropy";
          else {
            // A marker: this byte is read again as one.
            this.state = "marker1";
            continue;
          }
          break;
      }
      at += 1;
    }
  }
}

export function jpegScanCount(bytes: Uint8Array, stopAfter = Number.POSITIVE_INFINITY): number {
  const counter = new JpegScanCounter(stopAfter);
  counter.push(bytes);
  return counter.scans;
}
