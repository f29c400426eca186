import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { craftedProgressiveJpeg } from "../../tests/support/crafted-jpeg";
import { pictureChildren } from "../../tests/support/processes";
import { jpegScanCount } from "./jpeg-scans.server";
import { decodedBytes } from "./making";
import {
  DECODE_BUDGET_BYTES,
  MAX_PICTURE_BYTES,
  parsePictureFileName,
  pictureMessages,
  pictureSources,
  preparePicture,
} from "./pictures.server";

/** A photo-like JPEG of `width` × `height` with EXIF (a GPS position, a camera, an orientation). */
async function cameraJpeg(width: number, height: number, orientation = 1): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: "Téléphone", Model: "Modèle 12" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "46/1 31/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "6/1 38/1 0/1" },
    })
    .withMetadata({ orientation })
    .toBuffer();
}

describe("preparePicture", () => {
  it("makes AVIF and WebP at 480, 800 and 1200 px, without any metadata (no GPS position)", async () => {
    const source = await cameraJpeg(2400, 1600);
    // The source carries the camera's EXIF (its model, its GPS position)...
    expect((await sharp(source).metadata()).exif?.includes("Mod")).toBe(true);
    const prepared = await preparePicture(source);
    if (!prepared.ok) throw new Error(prepared.message);
    expect(prepared.files.map((file) => `${file.format}@${file.width}x${file.height}`)).toEqual([
      "avif@480x320",
      "webp@480x320",
      "avif@800x533",
      "webp@800x533",
      "avif@1200x800",
      "webp@1200x800",
    ]);
    for (const file of prepared.files) {
      const metadata = await sharp(file.bytes).metadata();
      expect(metadata.format).toBe(file.format === "avif" ? "heif" : "webp");
      expect(metadata.exif, `${file.format} ${file.width}`).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
    }
    expect({ width: prepared.width, height: prepared.height }).toEqual({ width: 1200, height: 800 });
  });

  it("turns a photo taken sideways upright (EXIF orientation) and never enlarges a small one", async () => {
    // Orientation 6: the camera was turned; the picture is 600 × 400 as stored, 400 × 600 as seen.
    const prepared = await preparePicture(await cameraJpeg(600, 400, 6));
    if (!prepared.ok) throw new Error(prepared.message);
    expect(prepared.files.map((file) => `${file.format}@${file.width}x${file.height}`)).toEqual([
      "avif@400x600",
      "webp@400x600",
    ]);
  });

  it("accepts PNG and WebP by their content, whatever their name", async () => {
    const image = sharp({ create: { width: 300, height: 200, channels: 4, background: "#ffffff" } });
    expect((await preparePicture(await image.clone().png().toBuffer())).ok).toBe(true);
    expect((await preparePicture(await image.clone().webp().toBuffer())).ok).toBe(true);
  });

  it.each([
    ["a text file", Buffer.from("Ceci n’est pas une photo, même nommée photo.jpg"), pictureMessages.notImage],
    [
      "an SVG with a script",
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'),
      pictureMessages.svg,
    ],
    ["an empty file", Buffer.alloc(0), pictureMessages.missing],
    ["a file over 15 MB", Buffer.alloc(MAX_PICTURE_BYTES + 1, 0xff), pictureMessages.tooBig],
  ])("refuses %s with its French reason", async (_name, bytes, message) => {
    expect(await preparePicture(bytes)).toEqual({ ok: false, message });
  });

  it("refuses a JPEG cut short (a failed upload)", async () => {
    const whole = await cameraJpeg(1000, 800);
    expect(await preparePicture(whole.subarray(0, Math.floor(whole.length / 2)))).toEqual({
      ok: false,
      message: pictureMessages.notImage,
    });
  });
});

describe("preparePicture's limits (issue 33, item 5)", () => {
  it("refuses a crafted progressive JPEG of 883 scans before decoding it, and accepts an ordinary progressive one", async () => {
    const crafted = craftedProgressiveJpeg(1000, 750);
    expect(jpegScanCount(crafted)).toBe(883);
    // The time limit set as low as it goes: the file is refused by its scans, not by the clock.
    expect(await preparePicture(crafted, { timeoutSeconds: 0.1 })).toEqual({
      ok: false,
      message: pictureMessages.tooManyScans,
    });
    const progressive = await sharp(await cameraJpeg(900, 600))
      .jpeg({ progressive: true })
      .toBuffer();
    expect(jpegScanCount(progressive)).toBeGreaterThan(1);
    expect((await preparePicture(progressive)).ok).toBe(true);
  });

  it("counts the memory a picture takes once decoded: a 48 MP phone JPEG fits, a 48 MP PNG does not", async () => {
    const jpeg48 = await sharp(await cameraJpeg(8000, 6000, 6)).metadata();
    expect(decodedBytes(jpeg48)).toBeLessThan(DECODE_BUDGET_BYTES);
    const png48 = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    expect(await preparePicture(png48)).toEqual({ ok: false, message: pictureMessages.tooManyPixels });
  });

  it("makes pictures in a child process, one at a time: four sent together never run side by side", async () => {
    const photos = await Promise.all([1, 2, 3, 4].map((n) => cameraJpeg(1600 + n * 10, 1200)));
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, pictureChildren(process.pid).length)), 1);
    const results = await Promise.all(photos.map((photo) => preparePicture(photo)));
    clearInterval(watch);
    expect(results.map((result) => result.ok)).toEqual([true, true, true, true]);
    expect(most).toBe(1);
  });
});

describe("addresses", () => {
  it("reads back the names it makes, and nothing else", () => {
    const sources = pictureSources({ id: 7, hash: "0123456789ab", width: 1200, height: 800 }, "Un lac");
    expect(sources.src).toBe("/images/7-0123456789ab-800.webp");
    expect(sources.sources.map((source) => source.srcSet)).toEqual([
      "/images/7-0123456789ab-480.avif 480w, /images/7-0123456789ab-800.avif 800w, /images/7-0123456789ab-1200.avif 1200w",
      "/images/7-0123456789ab-480.webp 480w, /images/7-0123456789ab-800.webp 800w, /images/7-0123456789ab-1200.webp 1200w",
    ]);
    expect(parsePictureFileName("7-0123456789ab-800.webp")).toEqual({
      id: 7,
      hash: "0123456789ab",
      width: 800,
      format: "webp",
    });
    for (const name of [
      "7-0123456789ab-800.jpg",
      "0-0123456789ab-800.webp",
      "7-0123-800.webp",
      "../7-0123456789ab-800.webp",
    ])
      expect(parsePictureFileName(name), name).toBeNull();
  });
});
