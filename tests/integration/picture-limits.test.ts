/**
 * A photo whose making runs past the time limit (issue 33, item 5;
 * decision 037): with `PICTURE_TIMEOUT_SECONDS` at a tenth of a second, a
 * crafted 48 MP progressive JPEG of 100 scans (the most accepted: its
 * decoding alone takes about a second here) has its process killed and is
 * refused in French, nothing stored, while the rest of the site answers.
 * No elapsed time is asserted: the limit is far below the decoding's time.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { pictures } from "../../app/db/schema";
import { pictureMessages } from "../../app/pictures/pictures.server";
import { craftedProgressiveJpeg } from "../support/crafted-jpeg";
import { createOwner, signIn, startTestServer, type CookieJar } from "../support/harness";
import { pictureChildren } from "../support/processes";

/** The French message under the file's field, or null (HTML entities of the server undone). */
const pictureError = (html: string) =>
  /<p id="picture-error"[^>]*>([\s\S]*?)<\/p>/
    .exec(html)?.[1]
    ?.replace(/<[^>]+>/g, "")
    .replace(/&#x27;|&#39;/g, "'")
    .trim() ?? null;

describe("a photo past the time limit", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  let jar: CookieJar;

  beforeAll(async () => {
    site = await startTestServer({ PICTURE_TIMEOUT_SECONDS: "0.1" });
    jar = await signIn(site.url, await createOwner(site.database.db));
  }, 60_000);
  afterAll(() => site?.close());

  it("is stopped (its process killed) and refused in French, while the site keeps answering", async () => {
    const body = new FormData();
    body.append("alt", "Une photo piégée");
    const slow = craftedProgressiveJpeg(8000, 6000, 100);
    body.append("picture", new Blob([new Uint8Array(slow)], { type: "image/jpeg" }), "photo.jpg");
    const sent = fetch(`${site.url}/admin/images`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: site.url, Cookie: jar.header() },
      body,
    });
    // While the photo is being made (its process running), a page and a static file are answered.
    await vi.waitFor(
      () => {
        if (pictureChildren(process.pid).length === 0) throw new Error("no picture process yet");
      },
      { timeout: 60_000, interval: 2 },
    );
    const [page, file] = await Promise.all([fetch(`${site.url}/cours`), fetch(`${site.url}/favicon.svg`)]);
    expect([page.status, file.status]).toEqual([200, 200]);
    const answer = await sent;
    expect(answer.status).toBe(400);
    expect(pictureError(await answer.text())).toBe(pictureMessages.tooSlow);
    expect(await site.database.db.select({ id: pictures.id }).from(pictures)).toEqual([]);
    // The process was killed, not left to finish.
    await vi.waitFor(() => expect(pictureChildren(process.pid)).toEqual([]), { timeout: 10_000 });
  });
});
