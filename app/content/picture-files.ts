/**
 * Resolves a picture slot to the files the build made for it.
 *
 * Looks in `app/content/pictures/` for `{slot}.svg` (served as is) or a photo
 * `{slot}.(jpg|jpeg|png|webp|avif)`, which vite-imagetools turns into AVIF
 * and WebP at 480, 800 and 1200 px wide with a JPEG fallback.
 * `resolvePicture(slot)` returns `{ src, sources }` or throws an Error naming
 * the slot when no file exists (the build then fails on the page that uses it);
 * `pictureData(slot)` adds the slot's description and frame (`PictureData`,
 * what app/components/picture.tsx shows).
 */
import { pictures } from "./pictures";
import type { PictureSlot } from "./types";

/** vite-imagetools `as=picture` output. */
interface ImagetoolsPicture {
  sources: Record<string, string>;
  img: { src: string; w: number; h: number };
}

const vectorFiles = import.meta.glob<string>("./pictures/*.svg", {
  eager: true,
  query: "?url",
  import: "default",
});

const photoFiles = import.meta.glob<ImagetoolsPicture>("./pictures/*.{jpg,jpeg,png,webp,avif}", {
  eager: true,
  query: { w: "480;800;1200", format: "avif;webp;jpg", as: "picture" },
  import: "default",
});

export interface ResolvedPicture {
  /** URL of the fallback file (`<img src>`). */
  src: string;
  /** Extra `<source>`s, best format first: MIME type and `srcset`. */
  sources: { type: string; srcSet: string }[];
}

const slotOf = (file: string) => file.replace(/^.*\//, "").replace(/\.[^.]+$/, "");

const bySlot = new Map<string, ResolvedPicture>();
for (const [file, url] of Object.entries(vectorFiles)) bySlot.set(slotOf(file), { src: url, sources: [] });
for (const [file, picture] of Object.entries(photoFiles)) {
  bySlot.set(slotOf(file), {
    src: picture.img.src,
    sources: Object.entries(picture.sources)
      .filter(([format]) => format !== "jpg" && format !== "jpeg")
      .map(([format, srcSet]) => ({ type: `image/${format}`, srcSet })),
  });
}

export function resolvePicture(slot: PictureSlot): ResolvedPicture {
  const picture = bySlot.get(slot);
  if (!picture) {
    throw new Error(`Picture "${slot}" is missing: add app/content/pictures/${slot}.svg (or .jpg, .png, .webp).`);
  }
  return picture;
}

/** What the `Picture` component shows: description, frame size and files of one slot. */
export function pictureData(slot: PictureSlot) {
  return { ...pictures[slot], ...resolvePicture(slot) };
}

export type PictureData = ReturnType<typeof pictureData>;
