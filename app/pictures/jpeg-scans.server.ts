/**
 * How many scans a JPEG holds (issue 33, item 5). A progressive JPEG comes
 * in scans, and a decoder walks every block of the picture once per scan:
 * a crafted file of a few hundred KB in thousands of scans holds a decoder
 * for minutes. libvips 8.17 (sharp 0.34) and its libjpeg set no limit on
 * scans, and sharp's time limit is only checked between tiles, after the
 * whole progressive decode: the count is read here, before decoding.
 *
 * `jpegScanCount(bytes, stopAfter)` → the number of start-of-scan markers
 * (SOS, 0xFFDA) found walking the file's segments and entropy-coded data,
 * at most `stopAfter + 1` (it stops reading there). Never throws: a file cut
 * short or malformed gives the count read so far (libvips judges the rest).
 */
export function jpegScanCount(bytes: Uint8Array, stopAfter = Number.POSITIVE_INFINITY): number {
  let scans = 0;
  let at = 2; // after SOI
  while (at + 3 < bytes.length) {
    if (bytes[at] !== 0xff) return scans;
    const marker = bytes[at + 1]!;
    // Fill bytes (0xFF 0xFF…) and markers without a length (RSTn, TEM).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xd9) return scans; // EOI
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    at += 2 + length;
    if (marker !== 0xda) continue;
    if (++scans > stopAfter) return scans;
    // Entropy-coded data: runs until a 0xFF followed by anything but 0x00 (stuffing) or RSTn.
    while (at + 1 < bytes.length) {
      if (bytes[at] === 0xff) {
        const next = bytes[at + 1]!;
        if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7)) break;
        at += 2;
      } else at += 1;
    }
  }
  return scans;
}
