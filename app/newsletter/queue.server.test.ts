/**
 * A letter queued for every subscriber at once (queue.server.ts, decision
 * 055), against a migrated PGlite database: each mail leaves with its own
 * subscriber's unsubscribe link (in the text, the HTML and the
 * List-Unsubscribe header), never another's nor the merge tag; a queueing
 * that stopped half-way (a process that died) is finished by the job, each
 * subscriber queued once; the outbox sends them over as many SMTP
 * connections at once as it is given (SMTP_MAX_CONNECTIONS), never more;
 * with thousands of a letter's mails due, the outbox's round reads no more
 * of the outbox than it claims (the server's thread is PGlite's).
 */
import type { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import type { Database } from "~/db/client.server";
import * as schema from "~/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newsletterLetters, newsletterSubscribers, outbox } from "~/db/schema";
import { fillListUnsubscribe, LIST_UNSUBSCRIBE_TAG } from "~/mail/layout.server";
import { OutboxWorker, type OutgoingMail } from "~/mail/outbox.server";
import { readToken } from "~/tokens/tokens.server";
import { openTestDatabase, silentLogger, type TestDatabase } from "../../tests/support/harness";
import { createLetter, sendLetter } from "./letters.server";
import { queueLetter, resumeQueueing, STALE_QUEUEING_MS, startLetter } from "./queue.server";
import { TOKEN_PURPOSES } from "./subscriptions.server";

const SITE = "https://cours.example.ch";
const NOW = new Date("2026-12-01T08:00:00Z");

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

async function subscribe(emails: string[]): Promise<Map<string, number>> {
  const rows = await database.db
    .insert(newsletterSubscribers)
    .values(emails.map((email) => ({ email, source: "home", consentVersion: "test", status: "confirmed" })))
    .returning({ id: newsletterSubscribers.id, email: newsletterSubscribers.email });
  return new Map(rows.map((row) => [row.email, row.id]));
}

describe("a letter queued for every subscriber", () => {
  it("leaves with each subscriber's own unsubscribe link, in its text, HTML and header", async () => {
    const ids = await subscribe(["anne@example.ch", "bernard@example.ch", "chantal@example.ch"]);
    const letterId = await createLetter(database.db, { subject: "Lettre de décembre", body: "Un conseil." });
    expect(await sendLetter(database.db, letterId, { siteUrl: SITE, now: NOW })).toBe(3);

    const sent: OutgoingMail[] = [];
    const worker = new OutboxWorker({
      db: database.db,
      logger: silentLogger,
      transport: { sendMail: async (mail) => sent.push(mail) },
      from: "Cours <site@example.ch>",
      plugs: [],
      ownerAddress: "owner@example.ch",
    });
    await worker.processOnce();
    expect(sent.map((mail) => mail.to).sort()).toEqual([...ids.keys()]);

    const links = new Set<string>();
    for (const mail of sent) {
      const link = /^<(.+)>$/.exec(mail.headers!["List-Unsubscribe"]!)![1]!;
      expect(link.startsWith(`${SITE}/newsletter/desabonnement/`)).toBe(true);
      expect(mail.text).toContain(`Se désabonner (un clic suffit) : ${link}\n`);
      expect(mail.html).toContain(`href="${link}"`);
      for (const body of [mail.text, mail.html!]) expect(body).not.toContain(LIST_UNSUBSCRIBE_TAG);
      const token = link.split("/").pop()!;
      // The link unsubscribes the one it was sent to.
      const found = await readToken(database.db, { purpose: TOKEN_PURPOSES.unsubscribe, token, now: NOW });
      expect(found?.subject).toBe(String(ids.get(mail.to)));
      links.add(link);
    }
    expect(links.size).toBe(3);
  });

  it("is finished by the job after its process died half-way, each subscriber queued once", async () => {
    await database.db.delete(outbox);
    await database.db.delete(newsletterSubscribers);
    const emails = Array.from({ length: 5 }, (_, index) => `lecteur${index}@example.ch`);
    await subscribe(emails);
    const letterId = await createLetter(database.db, { subject: "Lettre de janvier", body: "Bonne année." });
    await startLetter(database.db, letterId, { now: NOW });
    const died = new Error("process killed");
    await expect(
      queueLetter(database.db, letterId, {
        siteUrl: SITE,
        now: NOW,
        batchSize: 2,
        onBatch: () => {
          throw died;
        },
      }),
    ).rejects.toBe(died);
    const [halfWay] = await database.db.select().from(newsletterLetters).where(eq(newsletterLetters.id, letterId));
    expect(halfWay!.recipients).toBeNull();

    // The job leaves a letter that moved recently alone, then finishes it.
    expect(await resumeQueueing(database.db, { siteUrl: SITE, now: new Date() })).toBe(0);
    const later = new Date(Date.now() + STALE_QUEUEING_MS + 1000);
    expect(await resumeQueueing(database.db, { siteUrl: SITE, now: later })).toBe(1);
    const rows = await database.db.select({ to: outbox.recipient }).from(outbox).where(eq(outbox.letterId, letterId));
    expect(rows.map((row) => row.to).sort()).toEqual(emails);
    const [done] = await database.db.select().from(newsletterLetters).where(eq(newsletterLetters.id, letterId));
    expect(done!.recipients).toBe(5);
    expect(await resumeQueueing(database.db, { siteUrl: SITE, now: later })).toBe(0);
  });

  it("never leaves with the merge tag when its header has no address", () => {
    const mail = { text: `Se désabonner : ${LIST_UNSUBSCRIBE_TAG}`, headers: {} };
    expect(() => fillListUnsubscribe(mail)).toThrow(/List-Unsubscribe/);
  });
});

describe("the outbox with a pooled transport", () => {
  it("sends as many letters at once as its concurrency, never more, and each once", async () => {
    await database.db.delete(outbox);
    await database.db.delete(newsletterSubscribers);
    const emails = Array.from({ length: 7 }, (_, index) => `pool${index}@example.ch`);
    await subscribe(emails);
    const letterId = await createLetter(database.db, { subject: "Lettre de février", body: "Bonjour." });
    await sendLetter(database.db, letterId, { siteUrl: SITE, now: NOW });
    let inFlight = 0;
    let most = 0;
    const sent: string[] = [];
    const worker = new OutboxWorker({
      db: database.db,
      logger: silentLogger,
      transport: {
        sendMail: async (mail) => {
          most = Math.max(most, ++inFlight);
          await new Promise((resolve) => setTimeout(resolve, 20));
          inFlight--;
          sent.push(mail.to);
        },
      },
      from: "Cours <site@example.ch>",
      plugs: [],
      ownerAddress: "owner@example.ch",
      concurrency: 3,
    });
    expect(await worker.processOnce()).toEqual({ claimed: 7, sent: 7, failed: 0 });
    expect(most).toBe(3);
    expect(sent.sort()).toEqual(emails);
  });
});

describe("the outbox's round beside a letter's thousands of mails", () => {
  it("reads the rows it gives up or claims through an index, never the whole outbox", async () => {
    await database.db.delete(outbox);
    await database.db.delete(newsletterSubscribers);
    await subscribe(Array.from({ length: 2000 }, (_, index) => `nombreux${index}@example.ch`));
    const letterId = await createLetter(database.db, {
      subject: "Lettre de janvier",
      body: "Un conseil.\n\n".repeat(40),
    });
    expect(await sendLetter(database.db, letterId, { siteUrl: SITE, now: NOW })).toBe(2000);
    await database.db.execute(sql`analyze outbox`);
    // The same embedded database, through a Drizzle that keeps every statement and its parameters.
    const statements: { query: string; params: unknown[] }[] = [];
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const db = drizzle(client, {
      schema,
      logger: { logQuery: (query, params) => void statements.push({ query, params }) },
    }) as unknown as Database;
    const sent: OutgoingMail[] = [];
    const worker = new OutboxWorker({
      db,
      logger: silentLogger,
      transport: { sendMail: async (mail) => void sent.push(mail) },
      from: "Cours <site@example.ch>",
      plugs: [],
      ownerAddress: "owner@example.ch",
      rates: { "newsletter-letter": 10_000 },
    });
    await worker.processOnce();
    expect(sent).toHaveLength(10);
    const reads = statements.filter(({ query }) => /^(select|update)\b[\s\S]*"outbox"/.test(query));
    // Expired rows given up, unthrottled kinds, the letter's kind, the claim, each sent row.
    expect(reads.length).toBeGreaterThanOrEqual(4);
    for (const { query, params } of reads) {
      const plan = await client.query<{ "QUERY PLAN": string }>(`explain ${query}`, params);
      expect(plan.rows.map((row) => row["QUERY PLAN"]).join("\n"), query).not.toMatch(/Seq Scan on outbox/);
    }
  });
});
