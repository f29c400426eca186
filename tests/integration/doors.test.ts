/**
 * Every door of the contact action (and of the callback request, /rappel),
 * against a real server process: each
 * method and each spelling of the path that React Router resolves to the
 * action meets the same rate limit, body limit and honeypot; unknown methods
 * and odd paths never get a 5xx.
 */
import fs from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages } from "../../app/contact/messages";
import {
  residentMegabytes,
  spawnSite,
  startSmtp,
  validForm,
  waitFor,
  type SpawnedSite,
  storedEmails,
  freshDataDir,
  sendRaw as send,
} from "../support/harness";
import { openDatabase } from "../../app/db/client.server";
import { contacts, newsletterSubscribers } from "../../app/db/schema";
import { callbackMessages } from "../../app/callback/words";
import { eq } from "drizzle-orm";
import { newsletterMessages } from "../../app/newsletter/words";

/** Spellings of /contact that React Router resolves to the contact route. */
const SPELLINGS = [
  "/contact",
  "/Contact",
  "/contact/",
  "/%63ontact",
  "/%43ONTACT",
  "/./contact",
  "/blog/../contact",
  "/%2e/contact",
  "/contact.data",
  "/CONTACT.data",
  "/contact?index",
];
const OTHER_METHODS = ["PUT", "PATCH", "DELETE"];

/** How long `sendLargeBody`'s client sends before it reads, in milliseconds. */
const READ_DELAY_MS = 100;

/** What `sendLargeBody`'s client holds back of a large body until it has the answer, in bytes. */
const HELD_BACK = 64 * 1024;

/**
 * Sends `bytes` of body over a raw TCP connection, its length declared
 * (`Content-Length`) or not (chunked), 64 KB at a time with a pause in
 * between, and stops sending as soon as the server answers, as a browser
 * does. A body over 64 KB is never finished: the client holds back its last
 * 64 KB (`HELD_BACK`) until the answer, so an answer proves that the server
 * did not wait for the whole body (one that did would never answer, and the
 * test would time out). Resolves with the answer's status. The client starts
 * reading only after `readDelayMs` of sending, as a slow phone may: a server
 * that closed the connection at once on a refused body would reset it, and
 * the client's next write would fail (`EPIPE`) before the answer is read.
 * The server closes in stages (server/lingering-close.ts), so the answer is
 * read.
 */
function sendLargeBody(
  base: string,
  method: string,
  pathname: string,
  bytes: number,
  declared: boolean,
  readDelayMs = READ_DELAY_MS,
) {
  const { hostname, port } = new URL(base);
  const sendable = bytes > HELD_BACK ? bytes - HELD_BACK : bytes;
  return new Promise<{ status: number }>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = "";
    let answer: { status: number } | undefined;
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      if (status && !answer) {
        answer = { status: Number(status) };
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on("error", (error) => answer ?? reject(new Error(`${method} ${pathname}: ${error.message}`)));
    socket.on("close", () => answer ?? reject(new Error(`${method} ${pathname}: closed without an answer`)));
    socket.on("connect", () => {
      // The client reads only after sending for a while, as a slow phone does: an answer that
      // reaches it must survive the server's close (server/lingering-close.ts).
      socket.pause();
      setTimeout(() => socket.resume(), readDelayMs);
      socket.write(
        `${method} ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${base}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\n` +
          (declared ? `Content-Length: ${bytes}\r\n` : "Transfer-Encoding: chunked\r\n") +
          "Connection: close\r\n\r\n",
      );
      let sent = 0;
      const pump = () => {
        if (answer || socket.destroyed) return;
        if (sent >= bytes) return void (declared ? socket.end() : socket.end("0\r\n\r\n"));
        // A large body waits here for the answer, unfinished.
        if (sent >= sendable) return;
        const chunk = Buffer.alloc(Math.min(64 * 1024, sendable - sent), "a");
        sent += chunk.length;
        socket.write(
          declared
            ? chunk
            : Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]),
        );
        setTimeout(pump, 2);
      };
      pump();
    });
  });
}

const form = (email: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({ ...validForm(email), ...extra }).toString();

/**
 * A site process with its own data folder and SMTP peer for the tests of a
 * `describe` block (started before them, stopped and removed after); its
 * fields are set once `beforeAll` has run.
 */
function siteForBlock(env: Record<string, string> = {}) {
  const block = {} as { site: SpawnedSite; dataDir: string; smtp: Awaited<ReturnType<typeof startSmtp>> };
  beforeAll(async () => {
    block.smtp = await startSmtp();
    block.dataDir = freshDataDir();
    block.site = await spawnSite({ DATA_DIR: block.dataDir, SMTP_URL: block.smtp.url, ...env });
    await block.site.ready();
  }, 120_000);
  afterAll(async () => {
    await block.site?.stop();
    await block.smtp?.close();
    fs.rmSync(block.dataDir, { recursive: true, force: true });
  });
  return block;
}

describe("the contact action behind every door", () => {
  const block = siteForBlock();

  it("refuses methods other than GET, HEAD and POST with 405 and Allow, on every spelling, before reading", async () => {
    for (const pathname of SPELLINGS) {
      for (const method of [...OTHER_METHODS, "TRACE", "PROPFIND"]) {
        const answer = await send(block.site.url, method, pathname, { body: form("method@example.ch") });
        expect(answer.status, `${method} ${pathname}`).toBe(405);
        expect(answer.headers.allow, `${method} ${pathname}`).toBe("GET, HEAD, POST");
      }
      const options = await send(block.site.url, "OPTIONS", pathname);
      expect(options.status).toBe(204);
      expect(options.headers.allow).toBe("GET, HEAD, POST");
    }
    // Pages without an action: POST is refused too, and Allow says so.
    for (const pathname of ["/", "/blog", "/Blog/", "/mentions-legales.data"]) {
      const answer = await send(block.site.url, "POST", pathname, { body: form("page@example.ch") });
      expect(answer.status, `POST ${pathname}`).toBe(405);
      expect(answer.headers.allow).toBe("GET, HEAD");
    }
    const trace = await send(block.site.url, "TRACE", "/");
    expect(trace.status).toBe(405);
    // A refusal carries the site's security headers like any answer.
    expect(trace.headers["x-content-type-options"]).toBe("nosniff");
    expect(trace.headers["content-security-policy"]).toContain("default-src 'self'");
  });

  it("runs the contact action on every spelling: an empty form gets the French messages", async () => {
    for (const pathname of SPELLINGS) {
      const answer = await send(block.site.url, "POST", pathname, { body: "firstName=&website=" });
      expect(answer.status, pathname).toBe(400);
      expect(answer.text, pathname).toContain(contactMessages.firstName);
    }
  });

  it("treats a honeypot sent twice, or filled in any copy, as spam: answered like a success, stored nowhere", async () => {
    for (const [index, honeypots] of [
      ["", ""],
      ["", "https://spam.example"],
      ["https://spam.example", ""],
    ].entries()) {
      const params = new URLSearchParams(validForm(`honeypot${index}@example.ch`));
      params.delete("website");
      for (const value of honeypots) params.append("website", value);
      const answer = await send(block.site.url, "POST", "/contact", { body: params.toString() });
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(contactMessages.successTitle);
    }
  });

  it("refuses an RFC 2047 encoded word in a name with a French message beside the field", async () => {
    const answer = await send(block.site.url, "POST", "/contact", {
      body: form("mime@example.ch", { lastName: "=?utf-8?B?QWRtaW4=?=" }),
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(contactMessages.mimeSyntax);
  });

  it("refuses a 10 MB body on every method and spelling before it is sent whole, without growing the process by 50 MB", async () => {
    const doors = SPELLINGS.flatMap((pathname) =>
      ["POST", ...OTHER_METHODS].flatMap((method) => [true, false].map((declared) => ({ pathname, method, declared }))),
    );
    // The same requests with small bodies first: the process's memory is then warm.
    // (Their answers do not matter here: the tests above check small bodies.)
    for (const { pathname, method, declared } of doors)
      await sendLargeBody(block.site.url, method, pathname, 1024, declared, 0).catch(() => undefined);
    const before = residentMegabytes(block.site.child.pid!);
    for (const { pathname, method, declared } of doors) {
      // Answered while the body is unfinished (`sendLargeBody`): the server never waits for the 10 MB.
      const { status } = await sendLargeBody(block.site.url, method, pathname, 10 * 1024 * 1024, declared);
      const door = `${method} ${pathname} ${declared ? "declared" : "chunked"}`;
      // Declared: refused on the headers (any door); chunked: read up to 64 KB by the action, or never (405).
      expect(status, door).toBe(declared || method === "POST" ? 413 : 405);
    }
    const after = residentMegabytes(block.site.child.pid!);
    expect(after - before, `RSS ${before.toFixed(0)} MB, then ${after.toFixed(0)} MB`).toBeLessThan(50);
  }, 120_000);

  it("stored none of the requests above: wrong methods, spam, invalid, too large", async () => {
    expect(await block.site.stop()).toBe(0);
    expect(await storedEmails(block.dataDir)).toEqual([]);
    expect(block.smtp.mails).toEqual([]);
  });
});

describe("the desk's picture uploads behind every door", () => {
  const block = siteForBlock();
  const UPLOAD_SPELLINGS = [
    "/admin/images",
    "/ADMIN/Images",
    "/admin/images/",
    "/admin/./images",
    "/admin/%69mages",
    "/admin/images.data",
    "/admin/articles/1",
    "/admin/articles/1.data",
  ];

  it("lets a photo's body through to the owner's check (never stored without a session), and no more than 16 MB", async () => {
    for (const pathname of UPLOAD_SPELLINGS) {
      // 10 MB: past the door; the action checks the session before reading it (303 to the sign-in
      // page, 401 for the client router's `.data` request).
      const photo = await sendLargeBody(block.site.url, "POST", pathname, 10 * 1024 * 1024, true);
      expect(pathname.endsWith(".data") ? 401 : 303, `${pathname}: 10 MB reaches the action`).toBe(photo.status);
      const huge = await sendLargeBody(block.site.url, "POST", pathname, 17 * 1024 * 1024, true);
      expect(huge.status, `${pathname}: 17 MB`).toBe(413);
    }
    // Every other door keeps its 1 MB.
    for (const pathname of ["/admin/lettres/1", "/admin", "/contact", "/images/1-0123456789ab-800.webp"]) {
      const { status } = await sendLargeBody(block.site.url, "POST", pathname, 2 * 1024 * 1024, true);
      expect(status, pathname).toBe(413);
    }
  }, 120_000);
});

describe("the contact rate limit behind every door", () => {
  const LIMIT = 3;
  const block = siteForBlock({ CONTACT_RATE_LIMIT_MAX: String(LIMIT) });

  it("counts every spelling against one rate limit: past it, nothing is stored, on any door", async () => {
    const bySpelling: number[] = [];
    for (const [index, pathname] of SPELLINGS.entries()) {
      bySpelling.push(
        (await send(block.site.url, "POST", pathname, { body: form(`limit${index}@example.ch`) })).status,
      );
    }
    expect(bySpelling).toEqual([...Array(LIMIT).fill(200), ...Array(SPELLINGS.length - LIMIT).fill(429)]);
    for (const method of OTHER_METHODS) {
      const answer = await send(block.site.url, method, "/%63ontact", { body: form(`limit-${method}@example.ch`) });
      expect(answer.status).toBe(405);
    }
    const limited = await send(block.site.url, "POST", "/%63ontact", { body: form("late@example.ch") });
    expect(limited.status).toBe(429);
    expect(limited.text).toContain(contactMessages.rateLimited);

    await waitFor(() => block.smtp.mails.length >= LIMIT, 10_000, "the mails");
    expect(await block.site.stop()).toBe(0);
    const stored = await storedEmails(block.dataDir);
    expect(stored).toEqual(["limit0@example.ch", "limit1@example.ch", "limit2@example.ch"]);
    expect(block.smtp.mails.map((mail) => mail.replyTo).sort()).toEqual(stored);
  }, 60_000);
});

describe("the newsletter's rate limit behind every door", () => {
  const LIMIT = 3;
  const block = siteForBlock({ CONTACT_RATE_LIMIT_MAX: String(LIMIT) });
  /** The spellings of /contact above, made for /newsletter. */
  const NEWSLETTER_SPELLINGS = SPELLINGS.map((pathname) =>
    pathname
      .replace("%63ontact", "%6Eewsletter")
      .replace("%43ONTACT", "%4EEWSLETTER")
      .replace(/contact/i, (word) =>
        word === "contact" ? "newsletter" : word === "Contact" ? "Newsletter" : "NEWSLETTER",
      ),
  );
  const subscription = (email: string) => new URLSearchParams({ email, source: "home", website: "" }).toString();

  it("counts every spelling of POST /newsletter against one limit, refuses other methods, subscribes nobody past it", async () => {
    expect(NEWSLETTER_SPELLINGS).toContain("/%6Eewsletter");
    const bySpelling: number[] = [];
    for (const [index, pathname] of NEWSLETTER_SPELLINGS.entries())
      bySpelling.push(
        (await send(block.site.url, "POST", pathname, { body: subscription(`nl${index}@example.ch`) })).status,
      );
    expect(bySpelling).toEqual([...Array(LIMIT).fill(200), ...Array(NEWSLETTER_SPELLINGS.length - LIMIT).fill(429)]);
    for (const method of OTHER_METHODS) {
      const answer = await send(block.site.url, method, "/%6Eewsletter", {
        body: subscription(`nl-${method}@example.ch`),
      });
      expect(answer.status).toBe(405);
    }
    const limited = await send(block.site.url, "POST", "/newsletter", { body: subscription("late@example.ch") });
    expect(limited.status).toBe(429);
    expect(limited.text).toContain(newsletterMessages.rateLimited);

    await waitFor(() => block.smtp.mails.length >= LIMIT, 10_000, "the confirmation mails");
    expect(await block.site.stop()).toBe(0);
    const opened = await openDatabase({ dataDir: block.dataDir });
    try {
      const rows = await opened.db.select({ email: newsletterSubscribers.email }).from(newsletterSubscribers);
      expect(rows.map((row) => row.email).sort()).toEqual(["nl0@example.ch", "nl1@example.ch", "nl2@example.ch"]);
    } finally {
      await opened.close();
    }
    expect(block.smtp.mails.map((mail) => mail.to).sort()).toEqual([
      "nl0@example.ch",
      "nl1@example.ch",
      "nl2@example.ch",
    ]);
  }, 60_000);
});

/** The spellings of /contact above, made for /rappel (the callback request, issue 23). */
const CALLBACK_SPELLINGS = SPELLINGS.map((pathname) =>
  pathname
    .replace("%63ontact", "%72appel")
    .replace("%43ONTACT", "%52APPEL")
    .replace(/contact/i, (word) => (word === "contact" ? "rappel" : word === "Contact" ? "Rappel" : "RAPPEL")),
);
/** A valid callback request (a telephone, two half-days, no e-mail); `lastName` makes it recognisable. */
const callback = (lastName: string, extra: Record<string, string> = {}) => {
  const params = new URLSearchParams({ firstName: "Jeanne", lastName, phone: "079 123 45 67", website: "", ...extra });
  params.append("halfDays", "lundi-matin");
  params.append("halfDays", "samedi-matin");
  return params.toString();
};
/** The last names of the callback requests stored in `dataDir` (the site stopped), in order. */
async function storedCallbacks(dataDir: string): Promise<string[]> {
  const opened = await openDatabase({ dataDir });
  try {
    const rows = await opened.db.select().from(contacts).where(eq(contacts.kind, "rappel")).orderBy(contacts.id);
    return rows.map((row) => row.lastName);
  } finally {
    await opened.close();
  }
}

describe("the callback action (/rappel) behind every door", () => {
  const block = siteForBlock();

  it("answers every spelling: 405 with Allow for other methods, the French messages for an empty form", async () => {
    expect(CALLBACK_SPELLINGS).toContain("/%72appel");
    expect(CALLBACK_SPELLINGS).toContain("/RAPPEL.data");
    for (const pathname of CALLBACK_SPELLINGS) {
      for (const method of [...OTHER_METHODS, "TRACE"]) {
        const answer = await send(block.site.url, method, pathname, { body: callback("Methode") });
        expect(answer.status, `${method} ${pathname}`).toBe(405);
        expect(answer.headers.allow, `${method} ${pathname}`).toBe("GET, HEAD, POST");
      }
      const empty = await send(block.site.url, "POST", pathname, { body: "firstName=&website=" });
      expect(empty.status, pathname).toBe(400);
      expect(empty.text, pathname).toContain(callbackMessages.halfDays);
      expect(empty.text, pathname).toContain(contactMessages.firstName);
    }
  });

  it("treats a filled or repeated honeypot as spam, and refuses a 10 MB body before it is sent whole on every spelling", async () => {
    for (const [index, honeypot] of ["https://spam.example", ""].entries()) {
      const body = index === 0 ? callback("Spam", { website: honeypot }) : `${callback("Spam")}&website=`;
      const answer = await send(block.site.url, "POST", "/rappel", { body });
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(callbackMessages.successTitle);
    }
    for (const pathname of CALLBACK_SPELLINGS) {
      for (const declared of [true, false]) {
        const { status } = await sendLargeBody(block.site.url, "POST", pathname, 10 * 1024 * 1024, declared);
        expect(status, `${pathname} ${declared ? "declared" : "chunked"}`).toBe(413);
      }
    }
  }, 60_000);

  it("stored none of the requests above, and sent no mail", async () => {
    expect(await block.site.stop()).toBe(0);
    expect(await storedCallbacks(block.dataDir)).toEqual([]);
    expect(block.smtp.mails).toEqual([]);
  });
});

describe("the callback rate limit behind every door", () => {
  const LIMIT = 3;
  const block = siteForBlock({ CONTACT_RATE_LIMIT_MAX: String(LIMIT) });

  it("counts every spelling of POST /rappel against one limit: past it, nothing is stored", async () => {
    const bySpelling: number[] = [];
    for (const [index, pathname] of CALLBACK_SPELLINGS.entries())
      bySpelling.push((await send(block.site.url, "POST", pathname, { body: callback(`Limite ${index}`) })).status);
    expect(bySpelling).toEqual([...Array(LIMIT).fill(200), ...Array(CALLBACK_SPELLINGS.length - LIMIT).fill(429)]);
    const limited = await send(block.site.url, "POST", "/%72appel", { body: callback("Tard") });
    expect(limited.status).toBe(429);
    expect(limited.text).toContain(callbackMessages.rateLimited);

    await waitFor(() => block.smtp.mails.length >= LIMIT, 10_000, "the owner's notifications");
    expect(await block.site.stop()).toBe(0);
    expect(await storedCallbacks(block.dataDir)).toEqual(["Limite 0", "Limite 1", "Limite 2"]);
    expect(block.smtp.mails).toHaveLength(LIMIT);
  }, 60_000);
});

describe("GET of any path", () => {
  let site: SpawnedSite;
  beforeAll(async () => {
    site = await spawnSite();
    await site.ready();
  }, 120_000);
  afterAll(() => site?.stop());

  it("never answers 5xx, and logs no error", async () => {
    const paths = [
      "/robots.txt/x",
      "/favicon.svg/x",
      "/blog/rss.xml/x",
      "/sitemap.xml/x/y",
      "/assets/x.js/y",
      "/blog/reconnaitre-email-frauduleux/x",
      "/%00",
      "/%",
      "/%E0%A4%A",
      "/..%2f..%2fetc/passwd",
      "/./../../etc/passwd",
      `/${"a".repeat(5000)}`,
      "/blog/page/abc",
      "/blog/page/999",
      "//contact",
      "/contact.data",
      "/_root.data",
      // A NUL byte in a parameter that reaches a query (PostgreSQL refuses it: 22021).
      "/newsletter/archives/a%00b",
      "/newsletter/archives/a%00b.data",
      "/cours/a%00b",
      "/blog/a%00b",
      "/cours/inscription/a%00b",
      "/newsletter/confirmer/a%00b",
      "/newsletter/desabonnement/a%00b",
      "/Cours/Applications-Mobiles/",
      "/blog/..%2Fadmin",
      "/cours/securite?seance=%00",
    ];
    for (const pathname of paths) {
      for (const method of ["GET", "HEAD"]) {
        const { status } = await send(site.url, method, pathname);
        expect(status, `${method} ${pathname}`).toBeLessThan(500);
      }
    }
    expect(site.log.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});
