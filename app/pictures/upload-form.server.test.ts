import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { craftedProgressiveJpeg } from "../../tests/support/crafted-jpeg";
import { BodyTooLargeError } from "~/guards/body.server";
import { examine } from "./examine.server";
import { readPictureForm, removeLeftovers } from "./upload-form.server";

/** A form's multipart body, its type, and a request sending it in chunks of `chunk` bytes (a stream, no length). */
async function multipart(fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const encoded = new Response(form);
  return { type: encoded.headers.get("content-type")!, bytes: new Uint8Array(await encoded.arrayBuffer()) };
}

/** A POST whose body comes in chunks of `chunk` bytes, without Content-Length; `cutAfter` bytes sent, the sender goes. */
function streamed({ type, bytes }: { type: string; bytes: Uint8Array }, chunk = 64 * 1024, cutAfter = Infinity) {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= cutAfter) return controller.error(new Error("the client went away"));
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
  return new Request("http://site.test/admin/images", {
    method: "POST",
    headers: { "Content-Type": type },
    body,
    duplex: "half",
  } as RequestInit);
}

describe("readPictureForm", () => {
  let tmpDir: string;
  const leftovers = () => (fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir) : []);
  beforeEach(() => {
    tmpDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "upload-form-")), "tmp");
  });
  afterEach(() => fs.rmSync(path.dirname(tmpDir), { recursive: true, force: true }));

  it("keeps the text fields and writes the photo to a file as it arrives, examined on the way; dispose removes it", async () => {
    const photo = craftedProgressiveJpeg(1000, 750);
    const body = await multipart({
      alt: "Le lac, un matin",
      picture: new Blob([new Uint8Array(photo)], { type: "image/jpeg" }),
      intent: "upload",
    });
    // Small chunks: the examination (its hash, its scans) runs across them.
    const received = await readPictureForm(streamed(body, 1000), { maxBytes: 1024 * 1024, tmpDir });
    expect([...received.form.entries()]).toEqual([
      ["alt", "Le lac, un matin"],
      ["intent", "upload"],
    ]);
    expect(received.picture).not.toBeNull();
    const { path: file, ...facts } = received.picture!;
    expect(facts).toEqual(examine(photo));
    expect(facts.jpegScans).toBe(883);
    expect(fs.readFileSync(file).equals(photo)).toBe(true);
    expect(path.dirname(file)).toBe(tmpDir);
    await received.dispose();
    expect(leftovers()).toEqual([]);
  });

  it("gives no photo for an empty file field, and leaves no file", async () => {
    const body = await multipart({ alt: "x", picture: new Blob([]) });
    const received = await readPictureForm(streamed(body), { maxBytes: 1024, tmpDir });
    expect(received.picture).toBeNull();
    expect(received.form.get("alt")).toBe("x");
    expect(leftovers()).toEqual([]);
  });

  it("stops reading a body past the limit and removes what was written of the photo", async () => {
    const body = await multipart({ alt: "x", picture: new Blob([new Uint8Array(600_000).fill(0xff)]) });
    const reading = readPictureForm(streamed(body, 16 * 1024), { maxBytes: 300_000, tmpDir });
    await expect(reading).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(leftovers()).toEqual([]);
  });

  it("removes what was written of the photo when the client goes away while sending it", async () => {
    const body = await multipart({ alt: "x", picture: new Blob([new Uint8Array(600_000).fill(0xff)]) });
    const reading = readPictureForm(streamed(body, 16 * 1024, 200_000), { maxBytes: 1024 * 1024, tmpDir });
    await expect(reading).rejects.toThrow("the client went away");
    expect(leftovers()).toEqual([]);
  });

  it("gives an empty form for a body that is not a form, or a form cut short, and leaves no file", async () => {
    const notForm = new Request("http://site.test/", {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "x",
    });
    expect([...(await readPictureForm(notForm, { maxBytes: 1024, tmpDir })).form.keys()]).toEqual([]);
    const { type, bytes } = await multipart({ alt: "x", picture: new Blob([new Uint8Array(50_000).fill(7)]) });
    const cut = await readPictureForm(streamed({ type, bytes: bytes.subarray(0, 30_000) }), {
      maxBytes: 1024 * 1024,
      tmpDir,
    });
    expect(cut.picture).toBeNull();
    expect([...cut.form.keys()]).toEqual([]);
    expect(leftovers()).toEqual([]);
  });

  it("removes at start the files a killed process left, not those another process is still writing", () => {
    fs.mkdirSync(tmpDir, { recursive: true });
    const old = path.join(tmpDir, "site-photo-0b1e6a58-5b4e-4c57-9d43-2f6f0c1d9a11");
    const recent = path.join(tmpDir, "site-photo-7c0f5d2e-1a3b-4e8f-b6d9-0e4a2c8f7b35");
    // Not the site's: another program's file, in a shared temporary folder.
    const other = path.join(tmpDir, "site-photo-notes.txt");
    for (const file of [old, recent, other]) fs.writeFileSync(file, "x");
    const now = new Date("2026-11-27T09:00:00Z");
    const twoHoursBefore = new Date("2026-11-27T07:00:00Z");
    const tenMinutesBefore = new Date("2026-11-27T08:50:00Z");
    for (const file of [old, other]) fs.utimesSync(file, twoHoursBefore, twoHoursBefore);
    fs.utimesSync(recent, tenMinutesBefore, tenMinutesBefore);
    removeLeftovers(tmpDir, now.getTime());
    expect(leftovers().sort()).toEqual([path.basename(other), path.basename(recent)].sort());
  });
});
