/**
 * `/images/{id}-{hash}-{width}.{avif|webp}`: a file of a picture uploaded in
 * the desk (app/pictures/pictures.server.ts), from the database. Its address
 * changes with the picture (the hash of the file sent), so it is cached for
 * a year by browsers and CDNs (`immutable`). Any other name answers 404; a
 * database that fails, 503.
 */
import { parsePictureFileName, pictureFile } from "~/pictures/pictures.server";
import { errorFields } from "~/utils/errors.server";
import type { Route } from "./+types/image";

const notFound = () =>
  new Response("Image introuvable.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function loader({ params, context }: Route.LoaderArgs) {
  const name = parsePictureFileName(params.file);
  if (!name || !context.db) return notFound();
  let bytes: Buffer | null;
  try {
    bytes = await pictureFile(context.db, name);
  } catch (error) {
    context.logger?.error({ err: errorFields(error) }, "images: database unavailable");
    return new Response("Image momentanément indisponible.", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "30" },
    });
  }
  if (!bytes) return notFound();
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": `image/${name.format}`,
      "Content-Length": String(bytes.length),
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
