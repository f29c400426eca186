/**
 * Pictures uploaded in the desk (issue 21, item 3) on a real server: a file
 * too large, a text file named `.jpg` and an SVG with a script are refused
 * with French messages and store nothing; a phone's photo becomes AVIF and
 * WebP at three widths, served with a year-long immutable cache and without
 * its GPS position; put in place of the home page's main picture, it shows
 * there at once, and the repository's comes back on request; a picture
 * added to an article's text shows in the article as `<picture>`.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pictureFiles, pictures } from "../../app/db/schema";
import { MAX_PICTURE_BYTES, pictureMessages } from "../../app/pictures/pictures.server";
import { createOwner, deskFetch, signIn, startTestServer, type CookieJar } from "../support/harness";

/** The French message under field `name`, or null. */
const fieldError = (html: string, name: string) => {
  const line = new RegExp(`<p id="${name}-error"[^>]*>([\\s\\S]*?)</p>`).exec(html)?.[1];
  return line === undefined ? null : line.replace(/<[^>]+>/g, "").trim();
};

/** Entities the server's HTML escapes in messages (’ stays as is). */
const unescape = (text: string) =>
  text
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

describe("pictures uploaded in the desk", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  let jar: CookieJar;
  let photo: Buffer;

  /** Posts `fields` as multipart/form-data to `pathname`, as the desk's form does. */
  const upload = (pathname: string, fields: Record<string, string | Blob>, cookies = true) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    return fetch(`${site.url}${pathname}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: site.url, ...(cookies ? { Cookie: jar.header() } : {}) },
      body,
    });
  };
  const stored = async () => (await site.database.db.select({ id: pictures.id }).from(pictures)).length;

  beforeAll(async () => {
    site = await startTestServer({});
    jar = await signIn(site.url, await createOwner(site.database.db));
    photo = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: { r: 200, g: 90, b: 40 } } })
      .jpeg()
      .withExif({ IFD3: { GPSLatitudeRef: "N", GPSLatitude: "46/1 31/1 0/1" } })
      .toBuffer();
  }, 60_000);
  afterAll(() => site?.close());

  it.each([
    [
      "a file just over 15 MB",
      () => new Blob([new Uint8Array(MAX_PICTURE_BYTES + 10_000).fill(0xff)], { type: "image/jpeg" }),
      400,
      pictureMessages.tooBig,
    ],
    [
      "a form of 15.9 MB (stopped while read)",
      () => new Blob([new Uint8Array(MAX_PICTURE_BYTES + 900_000).fill(0xff)], { type: "image/jpeg" }),
      413,
      pictureMessages.tooBig,
    ],
    [
      "a text file named photo.jpg",
      () => new Blob(["Ceci n’est pas une photo."], { type: "image/jpeg" }),
      400,
      pictureMessages.notImage,
    ],
    [
      "an SVG with a script",
      () =>
        new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], { type: "image/jpeg" }),
      400,
      pictureMessages.svg,
    ],
  ])(
    "refuses %s with its French message beside the field, and stores nothing",
    async (_name, file, status, message) => {
      const body = new FormData();
      body.append("alt", "Une photo");
      body.append("picture", file(), "photo.jpg");
      const answer = await fetch(`${site.url}/admin/images`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: site.url, Cookie: jar.header() },
        body,
      });
      expect(answer.status).toBe(status);
      expect(unescape(fieldError(await answer.text(), "picture") ?? "")).toBe(message);
      expect(await stored()).toBe(0);
    },
  );

  it("refuses a photo without its description, and an upload without a session", async () => {
    const noAlt = await upload("/admin/images", {
      alt: " ",
      picture: new Blob([new Uint8Array(photo)], { type: "image/jpeg" }),
    });
    expect(noAlt.status).toBe(400);
    expect(fieldError(await noAlt.text(), "alt")).toBe(pictureMessages.altMissing);
    const stranger = await upload(
      "/admin/images",
      { alt: "Une photo", picture: new Blob([new Uint8Array(photo)], { type: "image/jpeg" }) },
      false,
    );
    expect(stranger.status).toBe(303);
    expect(stranger.headers.get("location")).toMatch(/^\/admin\/connexion/);
    expect(await stored()).toBe(0);
  });

  it("puts a phone's photo on the home page at once, as AVIF and WebP at three widths, without its position", async () => {
    const before = await fetch(`${site.url}/`).then((answer) => answer.text());
    expect(before).not.toContain("/images/");
    const sent = await upload("/admin/images", {
      alt: "Le formateur aide une dame à régler sa tablette.",
      slot: "hero",
      picture: new Blob([new Uint8Array(photo)], { type: "image/jpeg" }),
    });
    expect(sent.status).toBe(303);
    const home = await fetch(`${site.url}/`).then((answer) => answer.text());
    const srcset = /<source type="image\/avif" srcSet="([^"]+)"/i.exec(home)?.[1] ?? "";
    const files = srcset.split(", ").map((entry) => entry.split(" ")[0]!);
    expect(files).toHaveLength(3);
    expect(home).toContain('alt="Le formateur aide une dame à régler sa tablette."');
    for (const [index, width] of [480, 800, 1200].entries()) {
      for (const format of ["avif", "webp"]) {
        const address = files[index]!.replace(/\.avif$/, `.${format}`);
        expect(address).toMatch(new RegExp(`^/images/\\d+-[0-9a-f]{12}-${width}\\.${format}$`));
        const file = await fetch(`${site.url}${address}`);
        expect(file.status, address).toBe(200);
        expect(file.headers.get("content-type")).toBe(`image/${format}`);
        expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        const metadata = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
        expect(metadata.width).toBe(width);
        expect(metadata.exif, address).toBeUndefined();
      }
    }
    // Another hash, width or format: not found.
    expect((await fetch(`${site.url}${files[0]!.replace(/-[0-9a-f]{12}-/, "-000000000000-")}`)).status).toBe(404);
    expect((await fetch(`${site.url}${files[0]!.replace(/\.avif$/, ".jpg")}`)).status).toBe(404);
    expect((await site.database.db.select({ id: pictureFiles.pictureId }).from(pictureFiles)).length).toBe(6);

    const restored = await upload("/admin/images", { intent: "restore", slot: "hero" });
    expect(restored.status).toBe(200);
    expect(await fetch(`${site.url}/`).then((answer) => answer.text())).not.toContain("/images/");
  });

  it("adds a photo to an article's text, shown in the article as <picture> with both formats", async () => {
    const created = await deskFetch(site.url, "/admin/articles", { jar, form: { title: "Une photo dans un article" } });
    const editor = created.headers.get("location")!;
    const fields = {
      title: "Une photo dans un article",
      excerpt: "Un résumé.",
      category: "Applications",
      body: "Un premier paragraphe.",
      icon: "Lightbulb",
      color: "primary",
      video: "",
    };
    const added = await upload(editor, {
      ...fields,
      intent: "upload",
      pictureAlt: "Un écran de réglages",
      picture: new Blob([new Uint8Array(photo)], { type: "image/jpeg" }),
    });
    expect(added.status).toBe(200);
    const html = await added.text();
    const markdown = /!\[Un écran de réglages\]\((\/images\/\d+-[0-9a-f]{12}-800\.webp)\)/.exec(html);
    expect(markdown, "the picture's Markdown in the text").not.toBeNull();
    const published = await upload(editor, {
      ...fields,
      body: `Un premier paragraphe.\n\n![Un écran de réglages](${markdown![1]})\n`,
      intent: "publish",
    });
    expect(published.status).toBe(200);
    const article = await fetch(`${site.url}/blog/une-photo-dans-un-article`).then((answer) => answer.text());
    expect(article).toMatch(
      /<picture><source type="image\/avif" srcset="[^"]+-480\.avif 480w, [^"]+-800\.avif 800w, [^"]+-1200\.avif 1200w"/i,
    );
    expect(article).toMatch(
      /<img src="\/images\/\d+-[0-9a-f]{12}-800\.webp" alt="Un écran de réglages" width="1200" height="900" loading="lazy"/,
    );
  });
});
