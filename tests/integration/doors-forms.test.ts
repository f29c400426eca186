/**
 * Every door of the newsletter box and of the callback request (/rappel),
 * against a real server process: each method and spelling that React Router
 * resolves to the action meets the same rate limit, body limit and honeypot;
 * GET and HEAD of odd paths never get a 5xx. The contact form's doors are in
 * doors.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages } from "../../app/contact/messages";
import { spawnSite, waitFor, type SpawnedSite, sendRaw as send } from "../support/harness";
import { openDatabase } from "../../app/db/client.server";
import { contacts, newsletterSubscribers } from "../../app/db/schema";
import { callbackMessages } from "../../app/callback/words";
import { eq } from "drizzle-orm";
import { newsletterMessages } from "../../app/newsletter/words";

import { OTHER_METHODS, SPELLINGS, sendLargeBody, siteForBlock } from "./doors-support";

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
