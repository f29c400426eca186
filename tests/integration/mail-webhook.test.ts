/**
 * The mail provider's bounces and complaints (issue 32 item 1, decision 044),
 * on the production server with Mailgun's webhook signing key set, its
 * letters sent through a local SMTP peer:
 * - a correctly signed permanent failure marks the mail (found by its
 *   Message-ID) not delivered, in French on the desk's list, and the next
 *   letter skips her; a complaint (found by the recipient) likewise; a
 *   temporary failure changes nothing;
 * - a wrong signature, a timestamp 10 minutes old, a token replayed with
 *   other event data: 4xx and nothing changes;
 * - every spelling of the path reaches the same guard (signature, methods:
 *   405 with `Allow: POST`), a body over 64 KB is refused (413);
 * - no log line carries a recipient's address.
 * The clock check itself, on a fixed clock: app/mail/mailgun.server.test.ts;
 * without the key (404): server/mail-webhook.test.ts.
 */
import { createHmac, randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { and, eq, isNotNull } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newsletterSubscribers, outbox } from "../../app/db/schema";
import { undeliveredMails } from "../../app/mail/manage.server";
import { outboxIdOfMessageId } from "../../app/mail/provider-events.server";
import { createLetter, letterProgress, sendLetter } from "../../app/newsletter/letters.server";
import { sendRaw, startSmtp, startTestServer, waitFor } from "../support/harness";

const KEY = "key-3f9c1a7e5b2d4c6e8a0b1c2d3e4f5a6b";
const ANNE = "anne.partie@example.ch"; // her mailbox closed: a hard bounce
const BEA = "bea.agacee@example.ch"; // marks the letter as spam
const CLAIRE = "claire.pleine@example.ch"; // a temporary failure
const DORA = "dora.lectrice@example.ch"; // reads her letters
const PATH = "/webhooks/courrier";

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let site: Awaited<ReturnType<typeof startTestServer>>;
const logs: string[] = [];
let firstLetter: number;

beforeAll(async () => {
  smtp = await startSmtp();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString("utf8"));
      callback();
    },
  });
  site = await startTestServer(
    { SMTP_URL: smtp.url, MAIL_FROM: "Jean-Marc Favre <site@exemple.ch>", MAIL_WEBHOOK_SIGNING_KEY: KEY },
    pino({ level: "info" }, sink),
  );
  const db = site.database.db;
  await db.insert(newsletterSubscribers).values(
    [ANNE, BEA, CLAIRE, DORA].map((email) => ({
      email,
      source: "home",
      consentVersion: "test",
      status: "confirmed",
    })),
  );
  firstLetter = await createLetter(db, { subject: "Lettre de janvier", body: "Bonjour." });
  expect(await sendLetter(db, firstLetter, { siteUrl: "https://cours.example.ch" })).toBe(4);
  site.worker.wake();
  await waitFor(async () => (await letterProgress(db, firstLetter)).sent === 4, 15_000, "the first letter sent");
}, 120_000);

afterAll(async () => {
  await site?.close();
  await smtp?.close();
});

/** Mailgun's body for `eventData`, signed with `key` `secondsAgo` seconds ago, with a fresh token. */
function signed(eventData: Record<string, unknown>, { key = KEY, secondsAgo = 0, token = "" } = {}) {
  const timestamp = String(Math.floor(Date.now() / 1000) - secondsAgo);
  token ||= randomBytes(25).toString("hex");
  const signature = createHmac("sha256", key).update(`${timestamp}${token}`).digest("hex");
  return { signature: { timestamp, token, signature }, "event-data": eventData };
}

const post = (body: unknown, path = PATH) =>
  sendRaw(site.url, "POST", path, {
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json", Origin: "https://api.mailgun.net" },
  });

/** The Message-ID of the first letter's mail to `email`, as the SMTP peer received it. */
const messageIdTo = (email: string) => smtp.mails.find((mail) => mail.to === email)!.messageId.replace(/^<|>$/g, "");

const failed = (recipient: string, severity: "permanent" | "temporary", code: number, withId = true) => ({
  event: "failed",
  severity,
  recipient,
  message: { headers: withId ? { "message-id": messageIdTo(recipient) } : {} },
  "delivery-status": { code, message: `${code} 5.1.1 <${recipient}>: Recipient address rejected` },
});

/** Each row of the first letter: recipient, whether sent, its failure's stage. */
async function firstLetterRows() {
  const rows = await site.database.db
    .select({ recipient: outbox.recipient, sentAt: outbox.sentAt, stage: outbox.errorStage })
    .from(outbox)
    .where(eq(outbox.letterId, firstLetter))
    .orderBy(outbox.recipient);
  return rows.map((row) => ({ recipient: row.recipient, sent: row.sentAt !== null, stage: row.stage }));
}

describe("refused, nothing changes", () => {
  it("a wrong signature, a timestamp 10 minutes old, a replayed token: 4xx, every mail still sent", async () => {
    const before = await firstLetterRows();
    expect((await post(signed(failed(DORA, "permanent", 550), { key: "another-key-0123456789" }))).status).toBe(401);
    expect((await post(signed(failed(DORA, "permanent", 550), { secondsAgo: 600 }))).status).toBe(401);
    // A signature Mailgun made for a delivery, replayed with a bounce for Dora.
    const delivered = signed({ event: "delivered", recipient: DORA });
    expect((await post(delivered)).status).toBe(200);
    expect((await post({ ...delivered, "event-data": failed(DORA, "permanent", 550) })).status).toBe(409);
    expect(await firstLetterRows()).toEqual(before);
    expect(before.every((row) => row.sent && row.stage === null)).toBe(true);
  });

  it("a temporary failure: 200, the mail stays sent (the provider retries it)", async () => {
    expect((await post(signed(failed(CLAIRE, "temporary", 452)))).status).toBe(200);
    expect((await firstLetterRows()).find((row) => row.recipient === CLAIRE)).toEqual({
      recipient: CLAIRE,
      sent: true,
      stage: null,
    });
  });
});

describe("the guard on every spelling of the path", () => {
  const spellings = [PATH, `${PATH}/`, "/Webhooks/COURRIER", "/webhooks/%63ourrier", `${PATH}.data`, `${PATH}?x=1`];

  it.each(spellings)("%s: a wrong signature 401, GET/HEAD/PUT/DELETE 405 with Allow: POST", async (path) => {
    expect((await post(signed(failed(DORA, "permanent", 550), { key: "another-key-0123456789" }), path)).status).toBe(
      401,
    );
    for (const method of ["GET", "HEAD", "PUT", "DELETE", "PATCH"]) {
      const answer = await sendRaw(site.url, method, path);
      expect([method, answer.status, answer.headers.allow]).toEqual([method, 405, "POST"]);
    }
    const options = await sendRaw(site.url, "OPTIONS", path);
    expect([options.status, options.headers.allow]).toEqual([204, "POST"]);
  });

  it("refuses a body over 64 KB (413), declared or sent in chunks, and one that is not JSON (400)", async () => {
    const long = JSON.stringify({ ...signed(failed(DORA, "permanent", 550)), padding: "x".repeat(100_000) });
    const declared = await sendRaw(site.url, "POST", PATH, {
      body: long,
      headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(long)) },
    });
    expect(declared.status).toBe(413);
    expect((await post(long)).status).toBe(413); // chunked: no length declared
    expect((await post("{not json")).status).toBe(400);
    expect((await firstLetterRows()).every((row) => row.sent)).toBe(true);
  });
});

describe("a hard bounce and a complaint", () => {
  it("mark the mails not delivered, say why in French on the desk, and the next letter skips both", async () => {
    // Her mail's Message-ID names its row: the bounce is matched by it, not only by her address.
    const [annes] = await site.database.db
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(eq(outbox.letterId, firstLetter), eq(outbox.recipient, ANNE)));
    expect(outboxIdOfMessageId(messageIdTo(ANNE))).toBe(annes!.id);
    expect((await post(signed(failed(ANNE, "permanent", 550)))).status).toBe(200);
    expect((await post(signed({ event: "complained", recipient: BEA }))).status).toBe(200);
    expect(await firstLetterRows()).toEqual([
      { recipient: ANNE, sent: false, stage: "bounce" },
      { recipient: BEA, sent: false, stage: "complaint" },
      { recipient: CLAIRE, sent: true, stage: null },
      { recipient: DORA, sent: true, stage: null },
    ]);
    const desk = await undeliveredMails(site.database.db, eq(outbox.letterId, firstLetter));
    expect(
      desk
        .map(({ recipient, reason }) => ({ recipient, reason }))
        .sort((a, b) => a.recipient!.localeCompare(b.recipient!)),
    ).toEqual([
      { recipient: ANNE, reason: "Le fournisseur a renvoyé le message : adresse inexistante (550)" },
      { recipient: BEA, reason: "La personne a signalé ce message comme indésirable" },
    ]);

    const db = site.database.db;
    const second = await createLetter(db, { subject: "Lettre de février", body: "Bonjour." });
    expect(await sendLetter(db, second, { siteUrl: "https://cours.example.ch" })).toBe(2);
    const rows = await db
      .select({ recipient: outbox.recipient })
      .from(outbox)
      .where(and(eq(outbox.letterId, second), isNotNull(outbox.recipient)))
      .orderBy(outbox.recipient);
    expect(rows).toEqual([{ recipient: CLAIRE }, { recipient: DORA }]);
  });

  it("never wrote a recipient's address in the log", () => {
    const written = logs.join("");
    expect(written).toContain("mail webhook: bounce marked");
    for (const email of [ANNE, BEA, CLAIRE, DORA]) expect(written).not.toContain(email);
  });
});
