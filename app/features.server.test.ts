/**
 * The person registry covers the schema: every table of app/db/schema.ts
 * is either searched and erased by person or listed as holding no
 * personal data, so a new table with a visitor's data cannot be forgotten
 * by the export and the erasure. Counts read as French. Every kind of
 * mail a feature writes has its French label for the desk. A server's
 * start runs every feature's start-up step.
 */
import fs from "node:fs";
import path from "node:path";
import { count, getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "~/db/schema";
import { BOOKING_MAIL } from "~/courses/mails.server";
import { openTestDatabase, silentLogger, testSettings, type TestDatabase } from "../tests/support/harness";
import {
  describeCounts,
  FEATURES,
  MAIL_LABELS,
  PERSON_TABLES,
  runStartSteps,
  TABLES_WITHOUT_PERSONAL_DATA,
} from "./features.server";
import { NEWSLETTER_MAIL_KINDS } from "./newsletter/subscriptions.server";

const schemaTables = Object.values(schema)
  .filter((value) => is(value, PgTable))
  .map((table) => getTableName(table))
  .sort();

describe("the person registry", () => {
  it("classifies every table of the schema exactly once", () => {
    const registered = PERSON_TABLES.map((entry) => getTableName(entry.table));
    const without = Object.keys(TABLES_WITHOUT_PERSONAL_DATA);
    expect(schemaTables.length).toBeGreaterThan(5);
    expect([...registered, ...without].sort()).toEqual(schemaTables);
    expect(registered.filter((name) => without.includes(name))).toEqual([]);
  });
  it("finds contact requests, their status history, subscriptions, course registrations, invoices, quotes, letters posted, mails and mail counts", () => {
    expect(PERSON_TABLES.map((entry) => getTableName(entry.table))).toEqual([
      "contacts",
      "contact_events",
      "newsletter_subscribers",
      "course_registrations",
      "invoices",
      "quotes",
      "postal_letters",
      "outbox",
      "recipient_mail_days",
    ]);
  });
});

describe("describeCounts", () => {
  it("writes the counts as a French list, singular for 0 and 1", () => {
    expect(describeCounts({ contacts: 2, contact_events: 1, outbox: 3 })).toBe(
      "2 demandes de contact, 1 changement de statut et 3 e-mails",
    );
    expect(describeCounts({ contacts: 0, outbox: 1 })).toBe("0 demande de contact et 1 e-mail");
  });
});

describe("the mail labels", () => {
  it("name every kind of the courses' and the newsletter's mails in French", () => {
    for (const kind of [...Object.values(BOOKING_MAIL), ...Object.values(NEWSLETTER_MAIL_KINDS)])
      expect(MAIL_LABELS[kind], kind).toMatch(/^[A-ZÉ][a-zà-ÿ’ ]/);
    expect(MAIL_LABELS[BOOKING_MAIL.dateMoved]).toBe("Changement de date d’une séance de cours");
  });
  it("come from the features' plugs, each kind from one feature", () => {
    const kinds = FEATURES.flatMap((feature) => Object.keys(feature.mailLabels ?? {}));
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(Object.keys(MAIL_LABELS)).toEqual(expect.arrayContaining(kinds));
  });
});

describe("a server's start (runStartSteps)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database?.close());

  it("imports the repository's articles and removes the photos a killed process was receiving, an hour old at least", async () => {
    const settings = testSettings({});
    const tmp = path.join(settings.DATA_DIR, "tmp");
    fs.mkdirSync(tmp, { recursive: true });
    const old = path.join(tmp, "site-photo-0b5a3c1e-2f4d-4c6b-9a8e-1d2c3b4a5f60");
    const recent = path.join(tmp, "site-photo-7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f");
    for (const file of [old, recent]) fs.writeFileSync(file, "partial upload");
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(old, twoHoursAgo, twoHoursAgo);
    try {
      await runStartSteps({ db: database.db, logger: silentLogger, settings });
      expect(fs.existsSync(old), "the leftover of a killed process").toBe(false);
      expect(fs.existsSync(recent), "a file another process may still be receiving").toBe(true);
      const [articles] = await database.db.select({ n: count() }).from(schema.articles);
      expect(articles!.n).toBeGreaterThan(0);
    } finally {
      fs.rmSync(settings.DATA_DIR, { recursive: true, force: true });
    }
  });
});
