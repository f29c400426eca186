/**
 * Reads a form body with a size limit, refusing it while it is read: a body
 * past `maxBytes` is never buffered whole. `application/x-www-form-urlencoded`
 * and `multipart/form-data` are parsed by the platform (`Response.formData`).
 *
 * @throws BodyTooLargeError when `Content-Length` says more than `maxBytes`
 *   (nothing is read) or when the body grows past it while being read.
 * A body that is not a form (wrong type, broken encoding) gives an empty
 * FormData: the form's schema then says what is missing, in French.
 */

/** Thrown when a request's body is larger than the action accepts. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

export async function readFormData(request: Request, maxBytes: number): Promise<FormData> {
  const chunks: Uint8Array[] = [];
  await readBody(request, maxBytes, (chunk) => void chunks.push(chunk));
  const contentType = request.headers.get("content-type") ?? "";
  try {
    return await new Response(new Blob(chunks as BlobPart[]), { headers: { "Content-Type": contentType } }).formData();
  } catch {
    return new FormData();
  }
}

/**
 * Reads `request`'s body chunk by chunk, giving each to `take` (awaited
 * before the next is read: the sender waits meanwhile), with the size limit
 * of `readFormData`. Used by readFormData and by the photo forms' streaming
 * reader (app/pictures/upload-form.server.ts).
 *
 * @throws BodyTooLargeError as readFormData; the body stream's error when
 *   the client goes away; what `take` throws.
 */
export async function readBody(
  request: Request,
  maxBytes: number,
  take: (chunk: Uint8Array) => void | Promise<void>,
): Promise<void> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLargeError(`declared ${declared} bytes`);
  if (!request.body) return;
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    size += value.byteLength;
    // Stop reading: the rest is never taken in. The request stays paused (the network's
    // back-pressure stops the sender) until the client goes or the server's request
    // timeout ends it; closing at once would reset the connection and lose the answer.
    if (size > maxBytes) {
      reader.releaseLock();
      throw new BodyTooLargeError(`more than ${maxBytes} bytes`);
    }
    await take(value);
  }
}
