/**
 * `/images/{id}-{hash}-{width}.{avif|webp}`: a file of a picture uploaded in
 * the desk (app/pictures/pictures.server.ts), from the database. Its address
 * changes with the picture (the hash of the file sent), so it is cached for
 * a year by browsers and CDNs (`immutable`). Any other name answers 404; a
 * database that fails, 503.
 */
import { parsePictureFileName, pictureFile } from "~/pictures/pictures.server";
import { imageNotFound, storedFileResponse } from "~/utils/stored-file.server";
import { dbContext } from "~/context.server";
import type { Route } from "./+types/image";

export async function loader({ params, context }: Route.LoaderArgs) {
  const name = parsePictureFileName(params.file);
  const db = context.get(dbContext);
  if (!name) return imageNotFound();
  return storedFileResponse(context, {
    read: () => pictureFile(db, name),
    contentType: `image/${name.format}`,
    failure: "images: database unavailable",
  });
}
