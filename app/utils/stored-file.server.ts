/**
 * The answer for a file kept in the database and served at an address that
 * changes with its content (a desk picture's `/images/…`, an article's share
 * image `/og/articles/…`): the bytes with a year-long, immutable cache; 404
 * (French text) when `read` finds nothing; 503 with `Retry-After` when the
 * database fails, logged as `failure` (no visitor data; once for a whole
 * outage when the database does not answer: app/db/outage.server.ts).
 */
import type { RequestContext } from "~/context.server";
import { databaseFailure } from "./database-down.server";

const plainText = { "Content-Type": "text/plain; charset=utf-8" };

/** 404 "Image introuvable." */
export const imageNotFound = () => new Response("Image introuvable.", { status: 404, headers: plainText });

/** Reads the file with `read` and answers it as `contentType` (see the module). */
export async function storedFileResponse(
  context: RequestContext,
  { read, contentType, failure }: { read: () => Promise<Buffer | null>; contentType: string; failure: string },
): Promise<Response> {
  let bytes: Buffer | null;
  try {
    bytes = await read();
  } catch (error) {
    await databaseFailure(context, error, failure);
    return new Response("Image momentanément indisponible.", {
      status: 503,
      headers: { ...plainText, "Retry-After": "30" },
    });
  }
  if (!bytes) return imageNotFound();
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": contentType,
      "Content-Length": String(bytes.length),
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
