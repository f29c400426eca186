/**
 * A crafted progressive JPEG (issue 33, item 5): a valid grey picture of
 * `width` × `height` whose coefficients come in 883 scans (the DC scan, then
 * each of the 63 AC coefficients alone, first at the lowest precision and
 * refined one bit at a time: 63 × 14), or fewer (`scans`, 64 at least: the
 * refinements cut short). Every scan after the first is a few
 * bytes (one run of empty blocks), yet a decoder walks every block of the
 * picture once per scan: a small file that holds a decoder for long.
 *
 * `craftedProgressiveJpeg(width, height, scans = 883)` → the file's bytes (a 4000 × 3000
 * one is about 210 KB, most of it the DC scan). `scanCount(bytes)` in
 * app/pictures/jpeg-scans.server.ts reads 883 of it.
 */

/** Writes bits most significant first, with JPEG's byte stuffing (0x00 after 0xFF). */
class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private filled = 0;

  write(value: number, length: number): void {
    for (let bit = length - 1; bit >= 0; bit--) {
      this.current = (this.current << 1) | ((value >> bit) & 1);
      if (++this.filled === 8) this.flushByte();
    }
  }

  private flushByte(): void {
    this.bytes.push(this.current);
    if (this.current === 0xff) this.bytes.push(0x00);
    this.current = 0;
    this.filled = 0;
  }

  /** The bytes written, the last one padded with 1 bits. */
  finish(): number[] {
    if (this.filled > 0) this.write((1 << (8 - this.filled)) - 1, 8 - this.filled);
    return this.bytes;
  }
}

const segment = (marker: number, body: number[]) => [
  0xff,
  marker,
  (body.length + 2) >> 8,
  (body.length + 2) & 0xff,
  ...body,
];

/** The bytes of a crafted progressive grey JPEG of `width` × `height` pixels, in `scans` scans (64 to 883). */
export function craftedProgressiveJpeg(width: number, height: number, scans = 883): Buffer {
  if (!Number.isInteger(scans) || scans < 64 || scans > 883) throw new RangeError(`scans: 64 to 883, not ${scans}`);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const out: number[] = [0xff, 0xd8];
  out.push(...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]));
  out.push(...segment(0xc2, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]));
  // DC table: one code, "0", for category 0 (no difference). AC table: EOBn (n = 0…14) as 4-bit codes.
  out.push(...segment(0xc4, [0x00, 1, ...new Array<number>(15).fill(0), 0x00]));
  const acSymbols = Array.from({ length: 15 }, (_, run) => run << 4);
  out.push(...segment(0xc4, [0x10, 0, 0, 0, acSymbols.length, ...new Array<number>(12).fill(0), ...acSymbols]));
  const scan = (ss: number, se: number, ah: number, al: number, data: number[]) =>
    out.push(...segment(0xda, [1, 1, 0x00, ss, se, (ah << 4) | al]), ...data);

  const dc = new BitWriter();
  for (let block = 0; block < blocks; block++) dc.write(0, 1);
  scan(0, 0, 0, 0, dc.finish());

  // One run of empty blocks over the whole picture, in runs of at most 32,767 (EOB14).
  const emptyRun = new BitWriter();
  for (let left = blocks; left > 0;) {
    const run = Math.min(left, 32_767);
    const bits = Math.floor(Math.log2(run));
    emptyRun.write(bits, 4);
    emptyRun.write(run - 2 ** bits, bits);
    left -= run;
  }
  const runBytes = emptyRun.finish();
  // Each coefficient's first scan, then its refinements (each in order), until `scans` are written.
  for (let coefficient = 1; coefficient <= 63; coefficient++) scan(coefficient, coefficient, 0, 13, runBytes);
  let left = scans - 64;
  for (let coefficient = 1; coefficient <= 63; coefficient++)
    for (let ah = 13; ah >= 1 && left > 0; ah--, left--) scan(coefficient, coefficient, ah, ah - 1, runBytes);
  out.push(0xff, 0xd9);
  return Buffer.from(out);
}
