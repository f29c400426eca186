/**
 * A content picture by slot (see `app/content/pictures.ts`): `<picture>` with
 * AVIF/WebP sources for photos, explicit width and height (no layout shift),
 * lazy loading unless `priority` (the hero, above the fold).
 */
import { pictures } from "~/content/pictures";
import type { PictureSlot } from "~/content/types";
import { cn } from "~/utils/cn";
import { resolvePicture } from "~/utils/pictures";

export function Picture({
  slot,
  priority = false,
  sizes = "(min-width: 1024px) 50vw, 100vw",
  className,
}: {
  slot: PictureSlot;
  priority?: boolean;
  sizes?: string;
  className?: string;
}) {
  const { alt, width, height } = pictures[slot];
  const { src, sources } = resolvePicture(slot);
  return (
    <picture>
      {sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />
      ))}
      <img
        src={src}
        alt={alt}
        width={width}
        height={height}
        loading={priority ? "eager" : "lazy"}
        decoding={priority ? "sync" : "async"}
        fetchPriority={priority ? "high" : "auto"}
        className={cn("h-auto w-full object-cover", className)}
        style={{ aspectRatio: `${width} / ${height}` }}
      />
    </picture>
  );
}
