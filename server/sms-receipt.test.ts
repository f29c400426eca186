/**
 * The SMS delivery receipt (server/sms-receipt.ts) on one PGlite database:
 * every spelling of its path and every method, with and without the
 * provider, a signature changed, and what a receipt records.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { eq } from "drizzle-orm";
import express from "express";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox } from "../app/db/schema";
import { enqueueSms, receiptUrls } from "../app/mail/sms.server";
import { openTestDatabase, type TestDatabase } from "../tests/support/harness";
import { isSmsReceiptPath, smsReceipt } from "./sms-receipt";

const NOW = new Date("2026-10-01T08:00:00Z");
const PASSWORD = "secret-password";
let database: TestDatabase;
let servers: Server[] = [];

/** A server with the receipt handler (`password` undefined: no provider), other paths answering 299. */
async function serve(password: string | undefined): Promise<string> {
  const app = express();
  app.use(smsReceipt({ password, db: database.db, logger: pino({ level: "silent" }), clock: { now: () => NOW } }));
  app.use((_req, res) => void res.status(299).end());
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  for (const server of servers) server.close();
  servers = [];
  await database?.close();
});

const SPELLINGS = [
  "/webhooks/sms",
  "/webhooks/sms/",
  "/WEBHOOKS/Sms",
  "/webhooks/%73ms",
  "/webhooks/sms.data",
  "/./webhooks/sms",
  "/blog/../webhooks/sms",
];

const sms = (to: string) =>
  enqueueSms(
    database.db,
    { kind: "test-sms", to, label: "SMS : essai", text: "Essai", person: { name: "Marie Dupont" } },
    { perDay: 50, now: NOW },
  );

describe("isSmsReceiptPath", () => {
  it.each(SPELLINGS)("knows %s", (url) => expect(isSmsReceiptPath(`${url}?id=1`)).toBe(true));
  it.each(["/webhooks", "/webhooks/sms/x", "/webhooks/smss", "/webhooks/%zz", "/webhooks/courrier"])(
    "leaves %s to the rest of the site",
    (url) => expect(isSmsReceiptPath(url)).toBe(false),
  );
});

describe("the SMS receipt", () => {
  it("records a signed receipt on every spelling, refuses other methods and changed links", async () => {
    const base = await serve(PASSWORD);
    const links = receiptUrls("https://cours.example.ch", PASSWORD);
    for (const spelling of SPELLINGS) {
      const id = (await sms("+41791112233"))!;
      const query = new URL(links(id).delivered).search;
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const refused = await fetch(`${base}${spelling}${query}`, { method });
        expect([spelling, method, refused.status, refused.headers.get("allow")]).toEqual([
          spelling,
          method,
          405,
          "GET",
        ]);
      }
      const forged = await fetch(`${base}${spelling}${query.replace(/sig=[^&]+/, "sig=AAAAAAAAAAAAAAAAAAAAAA")}`);
      expect([spelling, forged.status]).toEqual([spelling, 401]);
      const [before] = await database.db.select().from(outbox).where(eq(outbox.id, id));
      expect(before!.deliveredAt).toBeNull();
      const answer = await fetch(`${base}${spelling}${query}`);
      expect([spelling, answer.status]).toEqual([spelling, 200]);
      const [after] = await database.db.select().from(outbox).where(eq(outbox.id, id));
      expect(new Date(after!.deliveredAt!).toISOString()).toBe(NOW.toISOString());
    }
    expect((await fetch(`${base}/contact`)).status).toBe(299);
  });

  it("marks an SMS not delivered as the desk's undelivered messages, with the operator's reason", async () => {
    const base = await serve(PASSWORD);
    const id = (await sms("+41791112244"))!;
    const answer = await fetch(
      `${base}/webhooks/sms${new URL(receiptUrls("https://x.ch", PASSWORD)(id).failed).search}`,
    );
    expect(answer.status).toBe(200);
    const [row] = await database.db.select().from(outbox).where(eq(outbox.id, id));
    expect(row).toMatchObject({ sentAt: null, errorStage: "bounce", deliveredAt: null });
    expect(row!.failedAt).not.toBeNull();
  });

  it("answers 404 to every method and spelling without an SMS provider", async () => {
    const base = await serve(undefined);
    for (const spelling of SPELLINGS)
      for (const method of ["GET", "POST"]) {
        const answer = await fetch(`${base}${spelling}?id=1&etat=recu&sig=x`, { method });
        expect([spelling, method, answer.status]).toEqual([spelling, method, 404]);
      }
  });
});
