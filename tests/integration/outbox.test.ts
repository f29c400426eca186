/**
 * The outbox under stress: a server killed in the middle of a burst of
 * requests, and two workers sharing one PostgreSQL.
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OutboxWorker } from "../../app/mail/outbox.server";
import { OUTBOX_PLUGS } from "../../app/features.server";
import { saveContactRequest } from "../../app/contact/save.server";
import { openDatabase } from "../../app/db/client.server";
import {
  postContact,
  postgresBinaries,
  silentLogger,
  spawnSite,
  startPostgres,
  startSmtp,
  validForm,
  waitFor,
  freshDataDir,
} from "../support/harness";

describe("a server killed during a burst of submissions", () => {
  it("has, after its restart, the row and the mail of every request it answered with success", async () => {
    const smtp = await startSmtp();
    const dataDir = freshDataDir();
    // A short lease: rows the killed process had claimed are retried within seconds.
    const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, OUTBOX_LEASE_SECONDS: "2" };
    let server = await spawnSite(env);
    await server.ready();
    const succeeded: string[] = [];
    let answered = 0;
    const burst = Array.from({ length: 60 }, (_, index) => `burst${index}@example.ch`).map(async (email, index) => {
      await new Promise((resolve) => setTimeout(resolve, index * 15));
      try {
        const { status } = await postContact(server.url, validForm(email));
        answered++;
        if (status === 200) succeeded.push(email);
      } catch {
        // the connection died with the server: no success was promised
      }
    });
    await waitFor(() => answered >= 15, 30_000, "15 answers");
    await server.stop("SIGKILL");
    await Promise.all(burst);
    expect(succeeded.length).toBeGreaterThanOrEqual(15);
    expect(succeeded.length).toBeLessThan(60);

    server = await spawnSite(env);
    await server.ready();
    await waitFor(
      () => {
        const mailed = new Set(smtp.mails.map((mail) => mail.replyTo));
        return succeeded.every((email) => mailed.has(email));
      },
      30_000,
      "every answered request's mail",
    );
    expect(await server.stop("SIGTERM")).toBe(0);

    const db = await PGlite.create(path.join(dataDir, "pglite"));
    const { rows } = await db.query<{ email: string }>("select email from contacts");
    await db.close();
    const stored = new Set(rows.map((row) => row.email));
    const mailed = new Set(smtp.mails.map((mail) => mail.replyTo));
    for (const email of succeeded) {
      expect(stored.has(email), `row for ${email}`).toBe(true);
      expect(mailed.has(email), `mail for ${email}`).toBe(true);
    }
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);
});

describe.runIf(postgresBinaries() || process.env.CI)("two workers on one PostgreSQL", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.destroy());

  it("send each notification exactly once", async () => {
    const smtp = await startSmtp();
    const [first, second] = await Promise.all([
      openDatabase({ databaseUrl: postgres.url, dataDir: "unused" }),
      openDatabase({ databaseUrl: postgres.url, dataDir: "unused" }),
    ]);
    const count = 80;
    for (let index = 0; index < count; index++)
      await saveContactRequest(first!.db, {
        ...validForm(`client${index}@example.ch`),
        service: "small-group",
        newsletterConsent: false,
        message: undefined,
      } as never);
    const transport = (await import("nodemailer")).default.createTransport({ url: smtp.url });
    const workers = [first!, second!].map(
      (database) =>
        new OutboxWorker({
          db: database.db,
          plugs: OUTBOX_PLUGS,
          logger: silentLogger,
          transport,
          from: "site@example.ch",
          ownerAddress: "owner@example.ch",
          batchSize: 5,
          pollInterval: 50,
        }),
    );
    for (const worker of workers) worker.start();
    await waitFor(() => smtp.mails.length >= count, 60_000, "every mail");
    await new Promise((resolve) => setTimeout(resolve, 1000)); // a duplicate would arrive by now
    for (const worker of workers) await worker.stop();
    const recipients = smtp.mails.map((mail) => mail.replyTo);
    expect(recipients).toHaveLength(count);
    expect(new Set(recipients).size).toBe(count);
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    const { rows } = await client.query("select count(*)::int as unsent from outbox where sent_at is null");
    await client.end();
    expect(rows[0].unsent).toBe(0);
    await Promise.all([first!.close(), second!.close(), smtp.close()]);
  }, 120_000);
});
