/**
 * The render cache of public pages (server/render-cache.ts) on one process
 * on PGlite: a booking shows at once; a cached page allows its inline
 * scripts by hash, the others by a fresh nonce; desk pages, token pages and
 * POST answers never come from the cache, and no cached answer sets a
 * cookie; brotli, gzip, 304 and HEAD; a session that starts leaves
 * `/cours` with no database change. A click's data (`/blog.data?_routes=…`)
 * kept beside its page, byte for byte React Router's; the fast path before
 * Express sends the headers Express sends (the kept 404 page too, on an
 * unknown path, never on a route, a public file or a handler of the
 * server), and leaves every other method, declared body and foreign target
 * to the door guards. Two processes on one
 * PostgreSQL: render-cache.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, zurichToUtc } from "../../app/courses/sessions.server";
import type { Database } from "../../app/db/client.server";
import { contactMessages } from "../../app/contact/messages";
import { inlineScriptHashes } from "../../server/security";
import {
  bookingForm as booking,
  createOwner,
  deskFetch,
  placesShown,
  postBooking as book,
  postContact,
  sendRaw,
  sessionFields,
  signIn,
  startTestServer,
  validForm,
  waitFor,
} from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";
import { rawRequest, expectCached, noncesOf } from "./render-cache-support";

describe("one process on PGlite", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  let db: Database;
  beforeAll(async () => {
    site = await startTestServer({}, undefined, { database: "embedded" });
    db = site.database.db;
  });
  afterAll(async () => site?.close());

  it("shows a booking on the very next request", async () => {
    const sessionId = await createSession(
      db,
      sessionFields({
        courseId: "applications-mobiles",
        startsAt: zurichToUtc(`${COURSE_YEAR}-03-01`, "14:00"),
        capacity: 3,
      }),
    );
    for (const page of ["/", "/cours", "/cours/applications-mobiles"]) {
      expect(placesShown(await expectCached(site.url, page), sessionId), page).toBe("3 places restantes");
    }
    expect((await book(site.url, "applications-mobiles", booking(sessionId, 1))).status).toBe(303);
    for (const page of ["/", "/cours", "/cours/applications-mobiles"]) {
      const html = await fetch(`${site.url}${page}`).then((answer) => answer.text());
      expect(placesShown(html, sessionId), page).toBe("2 places restantes");
    }
    expect((await book(site.url, "applications-mobiles", booking(sessionId, 2, { seats: "2" }))).status).toBe(303);
    const html = await fetch(`${site.url}/cours/applications-mobiles`).then((answer) => answer.text());
    expect(placesShown(html, sessionId)).toBe("Complet");
  });

  it("allows a cached page's inline scripts by their hashes, with no nonce, the same policy each time", async () => {
    for (const page of ["/", "/contact", "/cours"]) {
      const answers = [await fetch(`${site.url}${page}`), await fetch(`${site.url}${page}`)];
      const policies = answers.map((answer) => answer.headers.get("content-security-policy")!);
      expect(policies[0], page).not.toContain("'nonce-");
      expect(policies[0], page).toContain("'sha256-");
      expect(policies[1], page).toBe(policies[0]);
      const html = await answers[1]!.text();
      await answers[0]!.text();
      const hashes = inlineScriptHashes(html);
      expect(hashes.length, `${page} has inline scripts`).toBeGreaterThan(0);
      const scriptSrc = /script-src ([^;]*)/.exec(policies[0]!)![1]!.split(" ");
      for (const hash of hashes) expect(scriptSrc, page).toContain(hash);
      expect(html, page).not.toContain("nonce=");
    }
  });

  it("gives each answer of a page that is not cached its own nonce, on its scripts too", async () => {
    // A path with an encoded slash (never cached: a 404 rendered by React Router) and the desk's sign-in.
    for (const page of ["/cours/..%2fnulle-part", "/admin/connexion"]) {
      const answers = [await fetch(`${site.url}${page}`), await fetch(`${site.url}${page}`)];
      const nonces = answers.map((answer) => noncesOf(answer.headers.get("content-security-policy")));
      expect(nonces[0], page).toHaveLength(1);
      expect(nonces[1], page).toHaveLength(1);
      expect(nonces[1]![0], page).not.toBe(nonces[0]![0]);
      expect(answers[0]!.headers.get("cache-control"), page).not.toContain("public");
      const html = await answers[0]!.text();
      await answers[1]!.text();
      expect(html, page).toContain(`nonce="${nonces[0]![0]!.slice("'nonce-".length, -1)}"`);
    }
    expect((await fetch(`${site.url}/cours/..%2fnulle-part`)).status).toBe(404);
  });

  it("answers every unknown path with the one kept 404 page, with the security headers of a kept page", async () => {
    const answers = [];
    for (const path of ["/nulle-part", "/ailleurs/encore", "/Nope-3/"]) {
      const answer = await fetch(`${site.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get("cache-control"), path).toContain("public");
      expect(noncesOf(answer.headers.get("content-security-policy")), path).toEqual([]);
      answers.push({ etag: answer.headers.get("etag"), html: await answer.text() });
    }
    expect(new Set(answers.map((answer) => answer.etag)).size).toBe(1);
    expect(answers[0]!.html).toContain("Oops! Page not found");
    // Its data request is React Router's, answered each time.
    expect((await fetch(`${site.url}/nulle-part.data`)).status).toBe(404);
    // The public files, which no route matches either, are still served.
    for (const file of ["/favicon.svg", "/apple-touch-icon.png"])
      expect((await fetch(`${site.url}${file}`)).status, file).toBe(200);
  });

  it("answers an encoded slash as React Router reads it: /cours/..%2fcontact is no course, not the contact page", async () => {
    const answer = await sendRaw(site.url, "GET", "/cours/..%2fcontact");
    expect(answer.status).toBe(404);
    expect(answer.headers["cache-control"]).not.toContain("public");
  });

  it("keeps a course page chosen by ?seance= under the session's own number only", async () => {
    const sessionId = await createSession(
      db,
      sessionFields({ courseId: "securite", startsAt: zurichToUtc(`${COURSE_YEAR}-03-04`, "14:00") }),
    );
    await expectCached(site.url, `/cours/securite?seance=${sessionId}`);
    await expectCached(site.url, "/cours/securite");
    const bare = (await fetch(`${site.url}/cours/securite`)).headers.get("etag");
    // Other spellings of that number, and values that name no session: the course's kept page itself.
    for (const spelling of [`0${sessionId}`, `00${sessionId}`, `${sessionId}.0`, `%2B${sessionId}`, "999999", "x"]) {
      const answer = await fetch(`${site.url}/cours/securite?seance=${spelling}`);
      expect(answer.status, spelling).toBe(200);
      expect(answer.headers.get("etag"), spelling).toBe(bare);
      expect(answer.headers.get("cache-control"), spelling).toContain("public");
      await answer.text();
    }
  });

  it("never answers a desk page from the cache, nor lets the owner's cookie change a public page", async () => {
    const owner = await createOwner(db, "cache-owner@example.ch");
    const jar = await signIn(site.url, owner);
    const inbox = await deskFetch(site.url, "/admin", { jar });
    expect(inbox.status).toBe(200);
    expect(inbox.headers.get("cache-control")).toBe("no-store");
    const inboxHtml = await inbox.text();
    expect(inboxHtml).toContain("Se déconnecter");
    for (const path of ["/admin", "/Admin", "/%61dmin", "/admin/"]) {
      const anonymous = await sendRaw(site.url, "GET", path);
      expect(anonymous.status, path).toBe(303);
      expect(anonymous.headers.location, path).toMatch(/^\/admin\/connexion/);
      expect(anonymous.headers["cache-control"], path).toBe("no-store");
      expect(anonymous.text, path).not.toContain("Se déconnecter");
    }
    // A public page or a click's data asked with the owner's session cookie: the very answer everyone gets,
    // no cookie set.
    const data = ["/cours.data", "/_root.data?_routes=routes/home", "/blog.data?_routes=blog-index", "/contact.data"];
    for (const page of ["/", "/cours", "/contact", "/newsletter", "/blog", ...data]) {
      await expectCached(site.url, page);
      const anonymous = await fetch(`${site.url}${page}`);
      const asOwner = await deskFetch(site.url, page, { jar });
      expect(asOwner.status, page).toBe(200);
      expect(asOwner.headers.get("etag"), page).toBe(anonymous.headers.get("etag"));
      expect(asOwner.headers.get("set-cookie"), page).toBeNull();
      expect(anonymous.headers.get("set-cookie"), page).toBeNull();
      expect(await asOwner.text(), page).toBe(await anonymous.text());
    }
  });

  it("answers a click's data from the cache, byte for byte what React Router sends for it", async () => {
    // An id React Router ignores makes a request the cache does not keep: React Router answers it itself.
    for (const [kept, own] of [
      ["/_root.data", "/_root.data?_routes=root,routes/home,x"],
      ["/_root.data?_routes=routes/home", "/_root.data?_routes=routes/home,x"],
      ["/blog.data?_routes=blog-index", "/blog.data?_routes=blog-index,x"],
      ["/cours/securite.data?_routes=routes/course", "/cours/securite.data?_routes=routes/course,x"],
      ["/contact.data", "/contact.data?_routes=root,routes/contact,x"],
    ] as const) {
      await expectCached(site.url, kept);
      const cached = await rawRequest(site.url, kept, { "Accept-Encoding": "identity" });
      const rendered = await rawRequest(site.url, own, { "Accept-Encoding": "identity" });
      expect(cached.headers["content-type"], kept).toBe("text/x-script");
      expect(cached.headers["cache-control"], kept).toContain("public");
      expect(rendered.headers.etag, own).toBeUndefined();
      expect(cached.body.toString(), kept).toBe(rendered.body.toString());
      const br = await rawRequest(site.url, kept, { "Accept-Encoding": "br" });
      expect(zlib.brotliDecompressSync(br.body).equals(cached.body), kept).toBe(true);
    }
  });

  it("sends a kept answer before Express with the very headers Express sends for it", async () => {
    // The desk's cookie sends a request through the whole Express chain, which answers from the same entry.
    const viaExpress = { Cookie: "bureau.session_token=inconnu" };
    const withoutDate = (headers: Record<string, unknown>) => ({ ...headers, date: undefined });
    // Unknown paths: the kept 404 page, each spelling the fast path answers.
    const unknown = ["/nulle-part-1?x=1", "/Ailleurs/encore/", "/nope.html", "/a.b_c~d/e-f"];
    for (const page of ["/", "/_root.data?_routes=routes/home", "/cours/securite", ...unknown]) {
      const etag = (await rawRequest(site.url, page)).headers.etag!;
      if (unknown.includes(page)) expect((await rawRequest(site.url, page)).status, page).toBe(404);
      else await expectCached(site.url, page);
      for (const [headers, method] of [
        [{ "Accept-Encoding": "br" }, "GET"],
        [{ "Accept-Encoding": "identity" }, "GET"],
        [{ "Accept-Encoding": "gzip", "X-Forwarded-Proto": "https" }, "GET"],
        [{ "Accept-Encoding": "br" }, "HEAD"],
        [{ "If-None-Match": etag }, "GET"],
      ] as const) {
        const fast = await rawRequest(site.url, page, headers, method);
        const full = await rawRequest(site.url, page, { ...headers, ...viaExpress }, method);
        const label = `${method} ${page} ${JSON.stringify(headers)}`;
        expect(fast.status, label).toBe(full.status);
        expect(withoutDate(fast.headers), label).toEqual(withoutDate(full.headers));
        expect(fast.body.equals(full.body), label).toBe(true);
      }
    }
  });

  it("never answers a route, a public file or a handler of the server with the kept 404 page", async () => {
    const kept404 = (await rawRequest(site.url, "/nulle-part")).headers.etag;
    expect(kept404).toMatch(/^W\/"/);
    const viaExpress = { Cookie: "bureau.session_token=inconnu" };
    // Answered by a route, a public file or a handler of the server, never by the 404 page; then paths
    // near them, which may get it: each as the whole Express chain answers it.
    const claimed = [
      ...["/favicon.svg", "/apple-touch-icon.png", "/og/site.png", "/healthz", "/HEALTHZ/", "/assets/nope.js"],
      ...["/Assets/x", "/webhooks/sms", "/webhooks/courrier/", "/blog/article-inconnu", "/cours/cours-inconnu"],
      ...["/cours/inscription/abc", "/r/abc", "/images/x.jpg", "/robots.txt", "/sitemap.xml", "/blog/rss.xml"],
      ...["/cours/securite/", "/__manifest", "/nulle-part.data", "/nope.DATA"],
    ];
    const near = ["/og/", "/og/nope.png", "/favicon.svg/", "/Favicon.svg", "/nope/../favicon.svg", "//favicon.svg"];
    for (const path of [...claimed, ...near, "/%6Eulle-part"]) {
      const answer = await rawRequest(site.url, path);
      const express = await rawRequest(site.url, path, viaExpress);
      if (claimed.includes(path)) expect(answer.headers.etag === kept404, path).toBe(false);
      const seen = (one: typeof answer) => [one.status, one.headers["content-type"], one.headers.etag === kept404];
      expect(seen(answer), path).toEqual(seen(express));
      if (path === "/favicon.svg") expect(answer.body.toString(), path).toContain("<svg");
    }
  });

  it("runs every door guard on the kept pages' other methods, declared bodies and spellings", async () => {
    for (const page of ["/cours", "/cours.data", "/_root.data"]) await expectCached(site.url, page);
    const kept = (await rawRequest(site.url, "/cours")).headers.etag;
    const unknown = ["/nulle-part", "/Nope-9/", "/nope.DATA"];
    for (const path of ["/cours", "/Cours/", "/%63ours", "/cours.data", "/_root.data", "/", ...unknown]) {
      for (const method of ["PUT", "PATCH", "DELETE"]) {
        const refused = await sendRaw(site.url, method, path);
        expect(refused.status, `${method} ${path}`).toBe(405);
        expect(refused.headers.allow, `${method} ${path}`).toBe("GET, HEAD");
      }
      expect((await sendRaw(site.url, "OPTIONS", path)).status, path).toBe(204);
      expect((await sendRaw(site.url, "POST", path, { body: "x=1" })).status, `POST ${path}`).toBe(405);
      const large = await sendRaw(site.url, "GET", path, { headers: { "Content-Length": String(2 * 1024 * 1024) } });
      expect(large.status, `a 2 MB GET ${path}`).toBe(413);
    }
    // The spellings React Router reads as /cours are the kept page itself.
    for (const path of ["/Cours/", "/%63ours", "/COURS"]) {
      expect((await rawRequest(site.url, path)).headers.etag, path).toBe(kept);
    }
    // A target in absolute form names another host: refused, not answered from the cache.
    const foreign = await sendRaw(site.url, "GET", "http://ailleurs.example/cours");
    expect(foreign.status).toBe(400);
  });

  it("never answers a registration's page from the cache: it shows the registration, then its cancellation", async () => {
    const sessionId = await createSession(
      db,
      sessionFields({ courseId: "cafe-numerique", startsAt: zurichToUtc(`${COURSE_YEAR}-03-02`, "14:00") }),
    );
    const link = (await book(site.url, "cafe-numerique", booking(sessionId, 3))).headers.get("location")!;
    expect(link).toMatch(/^\/cours\/inscription\/[\w-]{43}$/);
    const first = await fetch(`${site.url}${link}`);
    expect(first.headers.get("etag")).toBeNull();
    expect(noncesOf(first.headers.get("content-security-policy"))).toHaveLength(1);
    expect(await first.text()).toContain("Votre inscription est confirmée");
    const cancel = await fetch(`${site.url}${link}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
      body: "intent=cancel&website=",
    });
    expect(await cancel.text()).toContain("Votre inscription est annulée.");
    expect(await fetch(`${site.url}${link}`).then((answer) => answer.text())).toContain(
      "Cette inscription est annulée",
    );
    // Another registration's page is its own.
    const other = (await book(site.url, "cafe-numerique", booking(sessionId, 4))).headers.get("location")!;
    const otherHtml = await fetch(`${site.url}${other}`).then((answer) => answer.text());
    expect(otherHtml).toContain("Dupont 4");
    expect(otherHtml).not.toContain("Dupont 3");
  });

  it("answers each POST with its own errors, and a GET after them with the plain page", async () => {
    const plain = await fetch(`${site.url}/contact`);
    const plainEtag = plain.headers.get("etag");
    const plainHtml = await plain.text();
    expect(plainHtml).not.toContain(contactMessages.firstName);
    expect(plainHtml).not.toContain(contactMessages.email);

    const shortName = await postContact(site.url, { ...validForm(), firstName: "M" });
    const badEmail = await postContact(site.url, { ...validForm(), email: "pas-une-adresse" });
    expect(shortName.status).toBe(400);
    expect(badEmail.status).toBe(400);
    expect(shortName.body).toContain(contactMessages.firstName);
    expect(shortName.body).not.toContain(contactMessages.email);
    expect(badEmail.body).toContain(contactMessages.email);
    expect(badEmail.body).not.toContain(contactMessages.firstName);
    expect(badEmail.body).toContain('value="pas-une-adresse"');

    const after = await fetch(`${site.url}/contact`);
    expect(after.headers.get("etag")).toBe(plainEtag);
    const afterHtml = await after.text();
    expect(afterHtml).toBe(plainHtml);

    // The booking form likewise.
    const sessionId = await createSession(
      db,
      sessionFields({ courseId: "securite", startsAt: zurichToUtc(`${COURSE_YEAR}-03-03`, "14:00") }),
    );
    const plainCourse = await fetch(`${site.url}/cours/securite`).then((answer) => answer.text());
    const noPhone = await book(site.url, "securite", booking(sessionId, 5, { phone: "", lastName: "Sanstel" }));
    const shortFirst = await book(
      site.url,
      "securite",
      booking(sessionId, 6, { firstName: "M", lastName: "Courtprenom" }),
    );
    expect([noPhone.status, shortFirst.status]).toEqual([400, 400]);
    const [noPhoneHtml, shortFirstHtml] = [await noPhone.text(), await shortFirst.text()];
    expect(noPhoneHtml).toContain("Veuillez entrer un numéro de téléphone valide");
    expect(noPhoneHtml).toContain('value="Sanstel"');
    expect(noPhoneHtml).not.toContain("Le prénom doit contenir au moins 2 caractères");
    expect(shortFirstHtml).toContain("Le prénom doit contenir au moins 2 caractères");
    expect(shortFirstHtml).toContain('value="Courtprenom"');
    expect(shortFirstHtml).not.toContain("Sanstel");
    expect(await fetch(`${site.url}/cours/securite`).then((answer) => answer.text())).toBe(plainCourse);
  });

  it("sends brotli or gzip bodies that decompress to the page, 304 for a current copy, headers only for HEAD", async () => {
    const identity = await rawRequest(site.url, "/", { "Accept-Encoding": "identity" });
    expect(identity.status).toBe(200);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body.toString()).toContain("</html>");
    const etag = identity.headers.etag!;
    expect(etag).toMatch(/^W\/"/);

    const br = await rawRequest(site.url, "/", { "Accept-Encoding": "br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.headers.etag).toBe(etag);
    expect(zlib.brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    expect(br.body.length).toBeLessThan(identity.body.length);

    const gzip = await rawRequest(site.url, "/", { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(Number(gzip.headers["content-length"])).toBe(gzip.body.length);
    expect(zlib.gunzipSync(gzip.body).equals(identity.body)).toBe(true);

    // A browser's usual header: brotli preferred.
    const browser = await rawRequest(site.url, "/", { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(browser.headers["content-encoding"]).toBe("br");

    for (const encoding of ["identity", "br", "gzip"]) {
      const current = await rawRequest(site.url, "/", { "Accept-Encoding": encoding, "If-None-Match": etag });
      expect(current.status, encoding).toBe(304);
      expect(current.body.length, encoding).toBe(0);
      expect(current.headers.etag, encoding).toBe(etag);
    }
    const stale = await rawRequest(site.url, "/", { "Accept-Encoding": "identity", "If-None-Match": 'W/"autre"' });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(identity.body)).toBe(true);

    const head = await rawRequest(site.url, "/", { "Accept-Encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.etag).toBe(etag);
    expect(head.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(head.headers["content-encoding"]).toBe("br");
    expect(Number(head.headers["content-length"])).toBe(br.body.length);
    expect(head.headers["content-security-policy"]).toBe(br.headers["content-security-policy"]);
  });

  it("drops a session from /cours once it starts, with no change in the database", async () => {
    const startsAt = new Date(Date.now() + 3000);
    const sessionId = await createSession(
      db,
      sessionFields({ courseId: "cafe-numerique", startsAt, placeName: "Salle Horloge" }),
    );
    const html = await expectCached(site.url, "/cours");
    expect(placesShown(html, sessionId)).toBe("8 places restantes");
    expect(Date.now(), "the session had not started when the page was kept").toBeLessThan(startsAt.getTime());
    await waitFor(
      async () => !(await fetch(`${site.url}/cours`).then((answer) => answer.text())).includes("Salle Horloge"),
      startsAt.getTime() - Date.now() + 3000,
      "the started session gone from /cours",
    );
    expect(Date.now(), "gone once it started, not before").toBeGreaterThanOrEqual(startsAt.getTime());
  });
});

describe("the disk for the pages memory cannot hold (decision 077)", () => {
  it("a folder of the process's own in RENDER_CACHE_DISK_DIR while it runs, removed when it stops", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "pages-disk-"));
    try {
      const running = await startTestServer({ RENDER_CACHE_DISK_DIR: parent });
      const folders = fs.readdirSync(parent);
      expect(folders).toHaveLength(1);
      expect(folders[0]).toMatch(new RegExp(`^site-pages-${process.pid}-`));
      await running.close();
      expect(fs.readdirSync(parent)).toEqual([]);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it("a RENDER_CACHE_DISK_DIR where no folder can be made stops the start with an error naming it", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "pages-disk-"));
    const file = path.join(parent, "a-file");
    fs.writeFileSync(file, "");
    try {
      await expect(startTestServer({ RENDER_CACHE_DISK_DIR: file })).rejects.toThrow(
        /RENDER_CACHE_DISK_DIR: cannot make a folder in .*a-file/,
      );
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
