/**
 * Tokens in links (DESIGN.md section 8): confirm a subscription,
 * unsubscribe, cancel a seat. A token is 32 random bytes (base64url, 43
 * characters); only its SHA-256 is stored (`link_tokens`), with its purpose,
 * the thing it acts on (`subject`, e.g. a subscriber's id) and an expiry.
 * A token is good for its purpose only; a link's page shows a button that
 * posts, so a mail scanner that follows links changes nothing.
 *
 * - `issueToken(tx, { purpose, subject, lifetimeMs, now })` → the token
 *   (or `expiresAt` instead of `lifetimeMs`: a link that works until a
 *   given moment, e.g. a week after a course);
 * - `readToken(db, { purpose, token, now })` → `{ subject, usedAt }` or
 *   null (unknown, tampered, expired, or another purpose): nothing changes;
 * - `consumeToken(tx, { purpose, token, now })` → the subject, once: the
 *   first call marks it used (one conditional update, safe under
 *   concurrency), later calls return null. A link that may be used again
 *   (a registration's page, read and acted on many times) uses `readToken`
 *   and keeps its once-only changes in the state of its subject instead.
 * - `freshTokenSql` and `tokenHashSql(token)`: the same in SQL, for statements
 *   that issue one token per row of a set (a letter to every subscriber,
 *   app/newsletter/queue.server.ts), with no round trip per token;
 * - `deleteExpiredTokens(db, now)` (the daily retention) and
 *   `deleteTokensOf(tx, purposes, subjects)` and `deleteTokensOfRows(tx,
 *   purposes, { id, where })` (an erasure) delete them.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, inArray, isNull, lt, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { QueryBuilder, type PgColumn } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import { linkTokens } from "~/db/schema";

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash("sha256").update(token).digest("base64url");

/** How long a token works: `lifetimeMs` from `now`, or until the moment `expiresAt`. */
export type TokenLifetime = { lifetimeMs: number; expiresAt?: never } | { expiresAt: Date; lifetimeMs?: never };

/** A new token (32 random bytes, 43 base64url characters), not stored yet: `issueToken` stores it. */
export const newToken = () => randomBytes(32).toString("base64url");

/**
 * Makes and stores a token for `purpose` acting on `subject`, valid for
 * `lifetimeMs` after `now` or until `expiresAt`.
 * @returns the token (43 base64url characters), to be put in a link; only its hash is kept.
 * @throws whatever the driver throws.
 */
export async function issueToken(
  tx: Database,
  {
    purpose,
    subject,
    now = new Date(),
    token = newToken(),
    ...lifetime
  }: {
    purpose: string;
    subject: string;
    now?: Date;
    /** A token made before by `newToken` (a mail that carries it rendered before the transaction); absent: a new one. */
    token?: string;
  } & TokenLifetime,
): Promise<string> {
  const expiresAt = lifetime.expiresAt ?? new Date(now.getTime() + lifetime.lifetimeMs!);
  await tx.insert(linkTokens).values({ hash: hashOf(token), purpose, subject, expiresAt: expiresAt.toISOString() });
  return token;
}

/**
 * A fresh token in SQL, one per row it is evaluated for: 32 bytes of two
 * `gen_random_uuid()` (PostgreSQL's strong random source; 244 random bits,
 * the version and variant bits fixed) as 43 base64url characters, the
 * format `readToken` accepts. PostgreSQL 13 or later, no extension.
 */
export const freshTokenSql: SQL<string> = sql<string>`rtrim(translate(encode(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), '=')`;

/** What `link_tokens.hash` stores for the token `token` (an SQL text expression): `hashOf` in SQL. */
export const tokenHashSql = (token: SQLWrapper): SQL<string> =>
  sql<string>`rtrim(translate(encode(sha256(convert_to(${token}, 'UTF8')), 'base64'), '+/', '-_'), '=')`;

/** What a valid token says, without using it; null when it is not valid for `purpose` at `now`. */
export async function readToken(
  db: Database,
  { purpose, token, now = new Date() }: { purpose: string; token: string; now?: Date },
): Promise<{ subject: string; usedAt: string | null } | null> {
  if (!TOKEN_FORMAT.test(token)) return null;
  const [row] = await db
    .select({ subject: linkTokens.subject, usedAt: linkTokens.usedAt })
    .from(linkTokens)
    .where(
      and(
        eq(linkTokens.hash, hashOf(token)),
        eq(linkTokens.purpose, purpose),
        gt(linkTokens.expiresAt, now.toISOString()),
      ),
    );
  return row ?? null;
}

/** Uses a token once: its subject the first time, null after (or when not valid). */
export async function consumeToken(
  tx: Database,
  { purpose, token, now = new Date() }: { purpose: string; token: string; now?: Date },
): Promise<string | null> {
  if (!TOKEN_FORMAT.test(token)) return null;
  const [row] = await tx
    .update(linkTokens)
    .set({ usedAt: now.toISOString() })
    .where(
      and(
        eq(linkTokens.hash, hashOf(token)),
        eq(linkTokens.purpose, purpose),
        gt(linkTokens.expiresAt, now.toISOString()),
        isNull(linkTokens.usedAt),
      ),
    )
    .returning({ subject: linkTokens.subject });
  return row?.subject ?? null;
}

/** Deletes tokens expired before `now` (the daily maintenance). @returns how many. */
export async function deleteExpiredTokens(db: Database, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(linkTokens)
    .where(lt(linkTokens.expiresAt, now.toISOString()))
    .returning({ hash: linkTokens.hash });
  return deleted.length;
}

/**
 * Deletes every token of `purposes` (one or several) acting on `subjects`
 * (an erasure): one subject, or a subquery of Drizzle's query builder
 * selecting subjects as text (e.g. the ids of a person's rows, `id::text`).
 * @returns how many. @throws whatever the driver throws.
 */
export async function deleteTokensOf(
  tx: Database,
  purposes: string | readonly string[],
  subjects: string | SQLWrapper,
): Promise<number> {
  const deleted = await tx
    .delete(linkTokens)
    .where(
      and(
        inArray(linkTokens.purpose, [purposes].flat()),
        typeof subjects === "string" ? eq(linkTokens.subject, subjects) : inArray(linkTokens.subject, subjects),
      ),
    )
    .returning({ hash: linkTokens.hash });
  return deleted.length;
}

/**
 * Deletes the tokens of `purposes` whose subjects are the rows `where`
 * selects, by their `id` column (e.g. a person's registrations): call it in
 * an erasure's transaction before the rows go.
 * @returns how many. @throws whatever the driver throws.
 */
export function deleteTokensOfRows(
  tx: Database,
  purposes: string | readonly string[],
  { id, where }: { id: PgColumn; where: SQL | undefined },
): Promise<number> {
  const subjects = new QueryBuilder()
    .select({ subject: sql<string>`${id}::text` })
    .from(id.table)
    .where(where);
  return deleteTokensOf(tx, purposes, subjects);
}
