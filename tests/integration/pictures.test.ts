/**
 * Pictures uploaded in the desk (issue 21, item 3) on a real server: a file
 * too large, a text file named `.jpg` and an SVG with a script are refused
 * with French messages and store nothing; a phone's photo becomes AVIF and
 * WebP at three widths, served with a year-long immutable cache and without
 * its GPS position; put in place of the home page's main picture, it shows
 * there at once, and the repository's comes back on request; a picture
 * added to an article's text shows in the article as `<picture>`. The
 * owner deletes a picture nothing shows (after a confirmation), is told in
 * French where a picture still shows when it cannot be deleted, and a
 * slot's picture replaced or given back leaves with its files unless an
 * article shows it (issue 33, item 5). A crafted progressive JPEG of 883
 * scans is refused before decoding; the process making a picture killed
 * (as the system does when memory runs out) gives a French message, the
 * site keeps answering and the next photo is made (decision 037). A photo
 * waits its turn in a temporary file (DATA_DIR/tmp), removed with every
 * answer; one whose sender went away is never made.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { pictureFiles, pictures } from "../../app/db/schema";
import { MAX_PICTURE_BYTES, pictureFileUrl, pictureMessages } from "../../app/pictures/pictures.server";
import { craftedProgressiveJpeg } from "../support/crafted-jpeg";
import { pictureChildren } from "../support/processes";
import { freshDataDir } from "../support/databases";
import { createOwner, deskFetch, pageText, signIn, startTestServer, type CookieJar } from "../support/harness";

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
  let dataDir: string;
  /** The temporary files of uploads (in DATA_DIR/tmp, app/pictures/upload-form.server.ts) still there. */
  const uploadFiles = () => {
    const tmp = path.join(dataDir, "tmp");
    return fs.existsSync(tmp) ? fs.readdirSync(tmp) : [];
  };

  /** Posts `fields` as multipart/form-data to `pathname`, as the desk's form does (`signal`: the owner leaving). */
  const upload = (pathname: string, fields: Record<string, string | Blob>, cookies = true, signal?: AbortSignal) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    return fetch(`${site.url}${pathname}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: site.url, ...(cookies ? { Cookie: jar.header() } : {}) },
      body,
      signal,
    });
  };
  const stored = async () => (await site.database.db.select({ id: pictures.id }).from(pictures)).length;

  beforeAll(async () => {
    // A generous time limit: the process making a photo is killed by the test, not by the clock.
    dataDir = freshDataDir();
    site = await startTestServer({ PICTURE_TIMEOUT_SECONDS: "600", DATA_DIR: dataDir });
    jar = await signIn(site.url, await createOwner(site.database.db));
    photo = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: { r: 200, g: 90, b: 40 } } })
      .jpeg()
      .withExif({ IFD3: { GPSLatitudeRef: "N", GPSLatitude: "46/1 31/1 0/1" } })
      .toBuffer();
  }, 60_000);
  afterAll(async () => {
    await site?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

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
      // The file received is gone with the answer.
      expect(uploadFiles()).toEqual([]);
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

  /** Uploads the test photo (its hash made unique by `tag`) with `fields`; resolves with the new picture's id. */
  const uploadPhoto = async (tag: string, fields: Record<string, string> = {}) => {
    const unique = await sharp(photo)
      .withExif({ IFD0: { ImageDescription: tag } })
      .jpeg()
      .toBuffer();
    const sent = await upload("/admin/images", {
      alt: `Photo ${tag}`,
      ...fields,
      picture: new Blob([new Uint8Array(unique)], { type: "image/jpeg" }),
    });
    expect(sent.status, await sent.clone().text()).toBe(303);
    return Number(/ajoutee=(\d+)/.exec(sent.headers.get("location") ?? "")?.[1]);
  };
  /** The status of picture `id`'s 800 px WebP file. */
  const fileStatus = async (id: number) => {
    const [row] = await site.database.db.select().from(pictures).where(eq(pictures.id, id));
    if (!row) return 404;
    return (await fetch(`${site.url}${pictureFileUrl(row, 800, "webp")}`)).status;
  };
  const exists = async (id: number) =>
    (
      await site.database.db
        .select({ id: pictureFiles.pictureId })
        .from(pictureFiles)
        .where(eq(pictureFiles.pictureId, id))
    ).length > 0;
  const notice = (html: string) => unescape(pageText(html));

  it("deletes a picture nothing shows once the owner confirms it, its files with it", async () => {
    const id = await uploadPhoto("à supprimer");
    expect(await fileStatus(id)).toBe(200);
    const asked = await upload("/admin/images", { intent: "confirm-delete", pictureId: String(id) });
    expect(asked.status).toBe(200);
    expect(notice(await asked.text())).toContain("Supprimer la photo « Photo à supprimer » ?");
    expect(await exists(id), "nothing deleted before the confirmation").toBe(true);
    const stranger = await upload("/admin/images", { intent: "delete", pictureId: String(id) }, false);
    expect(stranger.status).toBe(303);
    expect(await exists(id)).toBe(true);
    const deleted = await upload("/admin/images", { intent: "delete", pictureId: String(id) });
    expect(deleted.status).toBe(200);
    expect(notice(await deleted.text())).toContain("Photo supprimée : « Photo à supprimer » n’est plus sur le site.");
    expect(await exists(id)).toBe(false);
    expect((await site.database.db.select().from(pictures).where(eq(pictures.id, id))).length).toBe(0);
  });

  it("refuses in French to delete a picture the home page or an article shows, and deletes nothing", async () => {
    const hero = await uploadPhoto("en tête", { slot: "hero" });
    const refused = await upload("/admin/images", { intent: "delete", pictureId: String(hero) });
    expect(refused.status).toBe(409);
    expect(notice(await refused.text())).toContain(
      "Cette photo est encore utilisée : pour la grande image de la page d’accueil.",
    );
    expect(await fileStatus(hero)).toBe(200);

    const inText = await uploadPhoto("dans un texte");
    const [row] = await site.database.db.select().from(pictures).where(eq(pictures.id, inText));
    const created = await deskFetch(site.url, "/admin/articles", { jar, form: { title: "Les photos du cours" } });
    const saved = await upload(created.headers.get("location")!, {
      title: "Les photos du cours",
      excerpt: "Un résumé.",
      category: "Applications",
      body: `Un brouillon.\n\n![Une photo](${pictureFileUrl(row!, 800, "webp")})\n`,
      icon: "Lightbulb",
      color: "primary",
      video: "",
      intent: "save",
    });
    expect(saved.status).toBe(200);
    const inArticle = await upload("/admin/images", { intent: "delete", pictureId: String(inText) });
    expect(inArticle.status).toBe(409);
    expect(notice(await inArticle.text())).toContain(
      "Cette photo est encore utilisée : dans l’article « Les photos du cours ».",
    );
    expect(await fileStatus(inText)).toBe(200);
  });

  it("takes a slot's old picture down when it is replaced or the slot given back, but keeps one an article shows", async () => {
    const first = await uploadPhoto("portrait 1", { slot: "portrait" });
    const second = await uploadPhoto("portrait 2", { slot: "portrait" });
    expect(await fileStatus(first), "the replaced picture's files").toBe(404);
    expect(await exists(first)).toBe(false);
    expect(await fileStatus(second)).toBe(200);
    const restored = await upload("/admin/images", { intent: "restore", slot: "portrait" });
    expect(restored.status).toBe(200);
    expect(await fileStatus(second), "the picture of a slot given back").toBe(404);

    // A picture an article shows stays when its slot is given back.
    const shared = await uploadPhoto("partagée", { slot: "portrait" });
    const [row] = await site.database.db.select().from(pictures).where(eq(pictures.id, shared));
    const created = await deskFetch(site.url, "/admin/articles", { jar, form: { title: "Un portrait partagé" } });
    await upload(created.headers.get("location")!, {
      title: "Un portrait partagé",
      excerpt: "Un résumé.",
      category: "Applications",
      body: `![Un portrait](${pictureFileUrl(row!, 800, "webp")})\n`,
      icon: "Lightbulb",
      color: "primary",
      video: "",
      intent: "save",
    });
    await upload("/admin/images", { intent: "restore", slot: "portrait" });
    expect(await fileStatus(shared)).toBe(200);
  });

  it("refuses a crafted progressive JPEG in 883 scans before decoding it, and stores nothing", async () => {
    const before = await stored();
    const answer = await upload("/admin/images", {
      alt: "Une photo piégée",
      picture: new Blob([new Uint8Array(craftedProgressiveJpeg(4000, 3000))], { type: "image/jpeg" }),
    });
    expect(answer.status).toBe(400);
    expect(unescape(fieldError(await answer.text(), "picture") ?? "")).toBe(pictureMessages.tooManyScans);
    expect(await stored()).toBe(before);
  });

  it("answers in French when the process making a photo is killed, keeps answering, and makes the next photo", async () => {
    const before = await stored();
    // A slow file (a 48 MP progressive JPEG of 100 scans): its process is killed as soon as it appears.
    const sent = upload("/admin/images", {
      alt: "Une photo",
      picture: new Blob([new Uint8Array(craftedProgressiveJpeg(8000, 6000, 100))], { type: "image/jpeg" }),
    });
    const killed = await vi.waitFor(
      () => {
        const [child] = pictureChildren(process.pid);
        if (!child) throw new Error("no picture process yet");
        process.kill(child, "SIGKILL");
        return child;
      },
      { timeout: 60_000, interval: 2 },
    );
    expect(killed).toBeGreaterThan(0);
    const answer = await sent;
    expect(answer.status).toBe(400);
    expect(unescape(fieldError(await answer.text(), "picture") ?? "")).toBe(pictureMessages.tooManyPixels);
    expect(await stored()).toBe(before);
    expect(uploadFiles()).toEqual([]);
    expect((await fetch(`${site.url}/favicon.svg`)).status).toBe(200);
    const next = await upload("/admin/images", {
      alt: "Une photo après l’incident",
      picture: new Blob([new Uint8Array(photo)], { type: "image/jpeg" }),
    });
    expect(next.status).toBe(303);
    expect(await stored()).toBe(before + 1);
  });

  it("keeps a photo waiting its turn on disk, and forgets it (file removed, nothing made) when the owner goes away", async () => {
    const before = await stored();
    // A slow photo (a 48 MP progressive JPEG of 100 scans) holds the one-at-a-time queue while it is made.
    const slow = upload("/admin/images", {
      alt: "Une photo lente",
      picture: new Blob([new Uint8Array(craftedProgressiveJpeg(8000, 6000, 100))], { type: "image/jpeg" }),
    });
    await vi.waitFor(
      () => {
        if (pictureChildren(process.pid).length === 0) throw new Error("no picture process yet");
      },
      { timeout: 60_000, interval: 2 },
    );
    const first = uploadFiles();
    // A second photo, sent meanwhile: received whole into a file of its own, where it waits.
    const gone = new AbortController();
    const abandoned = upload(
      "/admin/images",
      { alt: "Une photo abandonnée", picture: new Blob([new Uint8Array(photo)], { type: "image/jpeg" }) },
      true,
      gone.signal,
    ).catch((error: unknown) => error);
    const waiting = await vi.waitFor(
      () => {
        const file = uploadFiles().find((name) => !first.includes(name));
        if (!file || fs.statSync(path.join(dataDir, "tmp", file)).size !== photo.length)
          throw new Error("the second photo is not received yet");
        return file;
      },
      { timeout: 60_000, interval: 2 },
    );
    // The owner closes the page: the photo waiting is forgotten, its file removed.
    gone.abort();
    expect(await abandoned).toBeInstanceOf(Error);
    await vi.waitFor(() => expect(uploadFiles()).not.toContain(waiting), { timeout: 10_000 });
    expect((await slow).status).toBe(303);
    // The next photo is made after where the abandoned one stood in the queue: by then it would be stored.
    const next = await upload("/admin/images", {
      alt: "Une photo suivante",
      picture: new Blob([new Uint8Array(photo)], { type: "image/jpeg" }),
    });
    expect(next.status).toBe(303);
    const alts = await site.database.db.select({ alt: pictures.alt }).from(pictures);
    expect(alts.map((row) => row.alt)).not.toContain("Une photo abandonnée");
    expect(await stored()).toBe(before + 2);
    expect(uploadFiles()).toEqual([]);
  });
});
