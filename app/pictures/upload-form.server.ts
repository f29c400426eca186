/**
 * Reads a desk form that may carry a photo (`/admin/images`, an article's
 * editor) without holding the photo in memory (issue 33, item 5; decision
 * 037): the body is parsed as it arrives (busboy), the text fields kept,
 * the photo (field `picture`) written to a temporary file in `tmpDir` as
 * it comes, examined on the way (size, hash, first bytes, a JPEG's scans:
 * examine.server.ts). Uploads waiting for their turn to be made
 * (child.server.ts) thus wait on disk, not in the server's memory.
 *
 * `readPictureForm(request, { maxBytes, tmpDir })` → `{ form, picture,
 * dispose }`: the text fields as a FormData, the photo's file and facts (null
 * when none or an empty one was sent), and `dispose()`, which removes the
 * file: the caller calls it once done, whatever happened (`try`/`finally`).
 * On every failure here (body too large, the client gone, a broken form)
 * the file is removed before returning or throwing.
 *
 * @throws BodyTooLargeError when `Content-Length` says more than `maxBytes`
 *   (nothing is read) or when the body grows past it (reading stops there).
 * @throws the body stream's error when the client goes away while sending.
 * A body that is not a form (wrong type, broken encoding) gives an empty
 * form, as `readFormData` (app/guards/body.server.ts) does.
 *
 * `withPictureForm(request, { maxBytes, dataDir }, { tooLarge, answer })`:
 * what a desk action answers to such a form: `readPictureForm` into
 * `uploadTmpDir(dataDir)`, then `answer(received)`, the file removed once
 * answered whatever happened; `tooLarge()` when the body is past `maxBytes`.
 *
 * `uploadTmpDir(dataDir)`: `{DATA_DIR}/tmp` when DATA_DIR exists (the
 * embedded database's folder, on disk), the system's temporary folder
 * otherwise (PostgreSQL without a DATA_DIR). `removeLeftovers(dir)`: the
 * files an earlier process left there (killed while receiving), at start;
 * an hour old at least (another instance may share the folder).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { BodyTooLargeError, readBody } from "~/guards/body.server";
import { PictureExaminer, type PictureFacts } from "./examine.server";

/** A photo received: where its file is, and what was learnt of it on the way. */
export type ReceivedPicture = PictureFacts & { path: string };

export interface PictureForm {
  /** The form's text fields (files other than the photo are dropped). */
  form: FormData;
  /** The photo, or null when the form carried none (or an empty file). */
  picture: ReceivedPicture | null;
  /** Removes the photo's temporary file; never throws, may be called again. */
  dispose(): Promise<void>;
}

/** The field of the photo in the desk's forms. */
const PICTURE_FIELD = "picture";
/** How the temporary files are named: `site-photo-{uuid}` (`removeLeftovers` removes only these, even in /tmp). */
const PREFIX = "site-photo-";
const LEFTOVER = /^site-photo-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function uploadTmpDir(dataDir: string): string {
  return fs.existsSync(dataDir) ? path.join(dataDir, "tmp") : os.tmpdir();
}

/** Removes the upload files an earlier process left in `dir` (killed mid-upload), those older than an hour at `now` (ms); never throws. */
export function removeLeftovers(dir: string, now = Date.now()): void {
  try {
    for (const name of fs.readdirSync(dir)) {
      if (!LEFTOVER.test(name)) continue;
      const file = path.join(dir, name);
      // Only old ones: another instance of the site may be receiving into the same folder.
      if (now - fs.statSync(file).mtimeMs > 60 * 60 * 1000) fs.rmSync(file, { force: true });
    }
  } catch {
    // No folder yet, or one being changed meanwhile: nothing to remove.
  }
}

/** The photo's file being written. */
interface Received {
  path: string;
  source: Readable;
  examiner: PictureExaminer;
  written: Promise<void>;
}

export async function readPictureForm(
  request: Request,
  { maxBytes, tmpDir }: { maxBytes: number; tmpDir: string },
): Promise<PictureForm> {
  const form = new FormData();
  let received = null as Received | null;
  const dispose = async () => {
    if (!received) return;
    const { source, written, path: file } = received;
    source.destroy();
    await written.catch(() => {});
    await fs.promises.rm(file, { force: true });
  };

  const parser = formParser(request, maxBytes);
  let broken = false;
  const closed = new Promise<void>((resolve) => {
    if (!parser) return resolve();
    parser.on("close", resolve);
    parser.on("error", () => {
      broken = true;
      resolve();
    });
  });
  if (parser) {
    await fs.promises.mkdir(tmpDir, { recursive: true });
    parser.on("field", (name, value) => form.append(name, value));
    parser.on("file", (name, source) => {
      if (name !== PICTURE_FIELD || received) {
        source.resume();
        return;
      }
      const file = path.join(tmpDir, `${PREFIX}${crypto.randomUUID()}`);
      const examiner = new PictureExaminer();
      const examine = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          examiner.push(chunk);
          done(null, chunk);
        },
      });
      const written = pipeline(source, examine, fs.createWriteStream(file, { flags: "wx", mode: 0o600 }));
      // Its failure is read once the form is read (or the file removed): never left unhandled.
      written.catch(() => {});
      received = { path: file, source, examiner, written };
    });
  }

  try {
    await readBody(request, maxBytes, async (chunk) => {
      // The file being written holds the parser back: the body waits in the network meanwhile.
      if (parser && !broken && !parser.write(chunk))
        await Promise.race([new Promise((resolve) => parser.once("drain", resolve)), closed]);
    });
    parser?.end();
    await closed;
    if (received) await received.written;
  } catch (error) {
    // A file part cut short by a broken form is a broken form, not a failure of the server (read before
    // the parser is destroyed: it then says it is broken too).
    const formBroken = broken && !(error instanceof BodyTooLargeError);
    parser?.destroy();
    await dispose();
    if (!formBroken) throw error;
  }
  if (broken) {
    await dispose();
    return { form: new FormData(), picture: null, dispose };
  }
  const picture: ReceivedPicture | null = received ? { ...received.examiner.facts(), path: received.path } : null;
  if (picture?.size === 0) {
    await dispose();
    return { form, picture: null, dispose };
  }
  return { form, picture, dispose };
}

export async function withPictureForm<Answer, TooLarge>(
  request: Request,
  { maxBytes, dataDir }: { maxBytes: number; dataDir: string },
  { tooLarge, answer }: { tooLarge: () => TooLarge; answer: (received: PictureForm) => Answer | Promise<Answer> },
): Promise<Answer | TooLarge> {
  let received: PictureForm;
  try {
    received = await readPictureForm(request, { maxBytes, tmpDir: uploadTmpDir(dataDir) });
  } catch (error) {
    if (error instanceof BodyTooLargeError) return tooLarge();
    throw error;
  }
  try {
    return await answer(received);
  } finally {
    await received.dispose();
  }
}

/** busboy for the request's form, or null when its type is not a form's (busboy refuses it). */
function formParser(request: Request, maxBytes: number): busboy.Busboy | null {
  try {
    return busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      limits: { fieldSize: maxBytes, files: 1 },
    });
  } catch {
    return null;
  }
}
