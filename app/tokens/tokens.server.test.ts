/**
 * Tokens in links against a real embedded database (PGlite, migrated): a
 * token works for its purpose only, until its expiry (a lifetime, or a
 * given moment); reading it changes nothing, consuming it works once; an
 * erasure deletes the tokens of the subjects a subquery names, and no
 * other.
 */
import { sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../tests/support/harness";
import { consumeToken, deleteTokensOf, freshTokenSql, issueToken, readToken, tokenHashSql } from "./tokens.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const NOW = new Date("2026-10-01T08:00:00Z");
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe("a token", () => {
  it("is read as often as asked until the moment it expires, for its purpose only", async () => {
    const expiresAt = later(3_600_000);
    const token = await issueToken(database.db, { purpose: "essai-lecture", subject: "7", expiresAt, now: NOW });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const now of [NOW, NOW, later(3_599_999)])
      expect(await readToken(database.db, { purpose: "essai-lecture", token, now })).toEqual({
        subject: "7",
        usedAt: null,
      });
    expect(await readToken(database.db, { purpose: "essai-lecture", token, now: expiresAt })).toBeNull();
    expect(await readToken(database.db, { purpose: "autre-usage", token, now: NOW })).toBeNull();
  });

  it("given a lifetime, expires that long after it was issued", async () => {
    const token = await issueToken(database.db, { purpose: "essai-duree", subject: "8", lifetimeMs: 60_000, now: NOW });
    expect(await readToken(database.db, { purpose: "essai-duree", token, now: later(59_999) })).not.toBeNull();
    expect(await readToken(database.db, { purpose: "essai-duree", token, now: later(60_000) })).toBeNull();
  });

  it("is consumed once, even by two uses at the same moment", async () => {
    const token = await issueToken(database.db, { purpose: "essai-usage", subject: "9", lifetimeMs: 60_000, now: NOW });
    const uses = await Promise.all(
      [1, 2].map(() => consumeToken(database.db, { purpose: "essai-usage", token, now: NOW })),
    );
    expect(uses.sort()).toEqual(["9", null]);
    expect(await readToken(database.db, { purpose: "essai-usage", token, now: NOW })).toMatchObject({
      subject: "9",
      usedAt: expect.any(String),
    });
  });

  it("issued by SQL for a set of rows, is a distinct token per row that readToken finds", async () => {
    const { rows } = (await database.db.execute(sql`
      with made as (select ${freshTokenSql} as token, n::text as subject from generate_series(1, 3) as n),
        stored as (insert into link_tokens (hash, purpose, subject, expires_at)
          select ${tokenHashSql(sql`made.token`)}, 'essai-lot', made.subject, ${later(60_000).toISOString()}::timestamptz from made)
      select token, subject from made`)) as unknown as { rows: { token: string; subject: string }[] };
    expect(new Set(rows.map((row) => row.token)).size).toBe(3);
    for (const { token, subject } of rows) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await readToken(database.db, { purpose: "essai-lot", token, now: NOW })).toEqual({
        subject,
        usedAt: null,
      });
    }
  });
});

describe("deleteTokensOf", () => {
  it("deletes the tokens of the subjects a subquery names, for that purpose only", async () => {
    const issue = (purpose: string, subject: string) =>
      issueToken(database.db, { purpose, subject, lifetimeMs: 60_000, now: NOW });
    const [gone, goneToo, kept, otherPurpose] = await Promise.all([
      issue("essai-effacement", "101"),
      issue("essai-effacement", "102"),
      issue("essai-effacement", "103"),
      issue("essai-autre", "101"),
    ]);
    const subjects = new QueryBuilder()
      .select({ subject: sql<string>`subject` })
      .from(sql`(values ('101'), ('102')) as erased(subject)`);
    expect(await deleteTokensOf(database.db, "essai-effacement", subjects)).toBe(2);
    const read = (purpose: string, token: string) => readToken(database.db, { purpose, token, now: NOW });
    expect(await read("essai-effacement", gone)).toBeNull();
    expect(await read("essai-effacement", goneToo)).toBeNull();
    expect(await read("essai-effacement", kept)).not.toBeNull();
    expect(await read("essai-autre", otherPurpose)).not.toBeNull();
    expect(await deleteTokensOf(database.db, "essai-effacement", "103")).toBe(1);
    expect(await read("essai-effacement", kept)).toBeNull();
  });
});
