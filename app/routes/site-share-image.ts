/**
 * `/og/site/{source}.png`: the site's share image made with the photo the
 * owner put in the hero slot (1200×630 PNG, app/seo/share-image.server.ts;
 * issue 33, item 13), from the database, made at the first request when the
 * desk did not make it already. Its address changes with the photo, so it
 * is cached for a year (`immutable`). An old address (another photo, the
 * slot given back) answers 404; a database that fails, 503.
 */
import { currentSiteShareImage, parseSiteCardName } from "~/seo/share-image.server";
import { imageNotFound, storedFileResponse } from "~/utils/stored-file.server";
import { dbContext } from "~/context.server";
import type { Route } from "./+types/site-share-image";

export async function loader({ params, context }: Route.LoaderArgs) {
  const source = parseSiteCardName(params.file);
  const db = context.get(dbContext);
  if (!source) return imageNotFound();
  return storedFileResponse(context, {
    read: () => currentSiteShareImage(db, source),
    contentType: "image/png",
    failure: "site share image: unavailable",
  });
}
