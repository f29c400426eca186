/**
 * `/og/articles/{slug}-{source}.png`: the share image of a published article
 * (1200×630 PNG, app/seo/share-image.server.ts), from the database, made at
 * the first request when the desk did not make it already. Its address
 * changes with what it shows, so it is cached for a year by browsers, CDNs
 * and the networks that show shared links (`immutable`). A draft, an
 * unpublished article or an old address answers 404; a database that
 * fails, 503.
 */
import { parseShareImageName, publishedShareImage } from "~/seo/share-image.server";
import { imageNotFound, storedFileResponse } from "~/utils/stored-file.server";
import { dbContext } from "~/context.server";
import type { Route } from "./+types/share-image";

export async function loader({ params, context }: Route.LoaderArgs) {
  const name = parseShareImageName(params.file);
  const db = context.get(dbContext);
  if (!name) return imageNotFound();
  return storedFileResponse(context, {
    read: () => publishedShareImage(db, name),
    contentType: "image/png",
    failure: "share image: unavailable",
  });
}
