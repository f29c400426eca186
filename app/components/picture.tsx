/**
 * A content picture (see `app/content/pictures.ts`), as the loader resolved
 * it (`pictureData` in `app/home/content.server.ts`): `<picture>` with
 * AVIF/WebP sources for photos, explicit width and height (no layout shift),
 * lazy loading unless `priority` (the hero, above the fold).
 */
import type { PictureData } from "~/content/picture-files";
import { cn } from "~/utils/cn";

export function Picture({
  picture,
  priority = false,
  sizes = "(min-width: 1024px) 50vw, 100vw",
  className,
}: {
  picture: PictureData;
  priority?: boolean;
  sizes?: string;
  className?: string;
}) {
  const { alt, width, height, src, sources } = picture;
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
