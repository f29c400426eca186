/**
 * Every door of the contact action (and of the callback request, /rappel),
 * against a real server process: each
 * method and each spelling of the path that React Router resolves to the
 * action meets the same rate limit, body limit and honeypot; unknown methods
 * and odd paths never get a 5xx.
 */
import { describe, expect, it } from "vitest";
import { contactMessages } from "../../app/contact/messages";
import { residentMegabytes, validForm, waitFor, storedEmails, sendRaw as send } from "../support/harness";
import { OTHER_METHODS, SPELLINGS, form, sendLargeBody, siteForBlock } from "./doors-support";

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
