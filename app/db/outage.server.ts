/**
 * A database that does not answer, as one process sees it (issue 33, item
 * 10): whether an outage is under way, and its two log lines, one warning
 * when it starts and one when it ends with the count of requests refused
 * meanwhile, instead of a line per request. One state per open database
 * (`Database`), so that two test servers in one process do not share it,
 * and one per process (see `outages`).
 *
 * - `databaseDown(db, logger, error)`: true when `error` came from a
 *   database that does not answer (an outage is known, or a probe's
 *   `select 1` fails within 2 s: `answers`, which tells a busy database
 *   from one that is down, decision 071), and the outage is then started
 *   (logged once, with the error's kind and codes, never its message);
 *   false when the database answers (the error is something else: a
 *   refused write, a bug, a conflict).
 * - `databaseAnswered(db, logger)`: a query succeeded; ends a known outage.
 * - `countRefused(db)`: one more request answered 503 during the outage.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import type { Logger } from "pino";
import type { Database } from "./client.server";
import { errorFields } from "./errors.server";

/** Longest wait for the probe's `select 1` before the database counts as down. */
const PROBE_TIMEOUT_MS = 2000;

interface Outage {
  /** When it started (ms since the epoch). */
  since: number;
  /** Requests answered 503 meanwhile. */
  refused: number;
}

// Kept on `globalThis`: the compiled Express server (the outbox, the rate limits) and React Router's
// build (pages, actions) each bundle their own copy of this module; both must see one outage.
const KEY = Symbol.for("formation-assistance-informatique.database-outages");
const outages: WeakMap<Database, Outage> = ((globalThis as { [KEY]?: WeakMap<Database, Outage> })[KEY] ??=
  new WeakMap());

/** What the probe reads of a PostgreSQL pool (pg-pool's `Pool`, drizzle's `$client` on node-postgres). */
interface PoolState {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: pg.PoolConfig & { max?: number };
}

/** What the probe reads of the embedded database (PGlite, drizzle's `$client` on PGlite). */
interface EmbeddedState {
  closed: boolean;
}

/** `db`'s driver client, by what the probe needs of it. */
function clientOf(db: Database): { pool: PoolState } | { embedded: EmbeddedState } | undefined {
  const client = (db as { $client?: unknown }).$client as Partial<PoolState & EmbeddedState> | undefined;
  if (typeof client?.totalCount === "number" && typeof client.idleCount === "number" && client.options)
    return { pool: client as PoolState };
  if (typeof client?.closed === "boolean") return { embedded: client as EmbeddedState };
  return undefined;
}

/** Whether every connection of the pool is taken (a request for one would wait its turn). */
const saturated = (pool: PoolState) =>
  pool.waitingCount > 0 || (pool.idleCount === 0 && pool.totalCount >= (pool.options.max ?? 10));

/** `probe` settled within `PROBE_TIMEOUT_MS`: true when it answered, false when it failed, `onTimeout` when it did neither. */
async function within(probe: Promise<unknown>, onTimeout: boolean): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      probe.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(onTimeout), PROBE_TIMEOUT_MS))),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `select 1` on a connection of its own, opened and closed here: a pool
 * whose connections are all taken (a burst) says nothing of the server. A
 * server that refuses it for lack of room (too many connections, SQLSTATE
 * class 53) is busy, not down.
 */
async function ownConnectionAnswers(options: pg.PoolConfig): Promise<boolean> {
  const client = new pg.Client({
    ...options,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch (error) {
    return errorFields(error).sqlState?.startsWith("53") ?? false;
  } finally {
    client.end().catch(() => {});
  }
}

/**
 * Whether `db` answers (decision 071: busy is not down):
 * - a PostgreSQL pool with a free connection (or room for one): `select 1`
 *   through it within `PROBE_TIMEOUT_MS`;
 * - a PostgreSQL pool whose connections are all taken: `select 1` on a
 *   connection of its own (`ownConnectionAnswers`), so the probe does not
 *   wait behind every queued request of a burst;
 * - the embedded database: down only when closed or when `select 1` fails;
 *   one still queued after `PROBE_TIMEOUT_MS` is waiting behind the
 *   process's other queries (PGlite runs one at a time), not a database
 *   that does not answer.
 */
async function answers(db: Database): Promise<boolean> {
  const client = clientOf(db);
  if (client && "pool" in client && saturated(client.pool)) return ownConnectionAnswers(client.pool.options);
  if (client && "embedded" in client) {
    if (client.embedded.closed) return false;
    return within(db.execute(sql`select 1`), true);
  }
  return within(db.execute(sql`select 1`), false);
}

/** The probe under way for a database: the errors of a burst share one instead of each opening a connection. */
const probes = new WeakMap<Database, Promise<boolean>>();

/** `answers(db)`, shared with the probe already under way. */
function probe(db: Database): Promise<boolean> {
  let running = probes.get(db);
  if (!running) {
    // A probe that cannot even send its query (a driver that throws at once: a closed pool) does not answer.
    running = answers(db)
      .catch(() => false)
      .finally(() => probes.delete(db));
    probes.set(db, running);
  }
  return running;
}

/**
 * Whether `error` (thrown by a query on `db`) means the database does not
 * answer; starts the outage (one warning) when it does and none was known.
 * Never throws.
 */
export async function databaseDown(db: Database, logger: Logger, error: unknown): Promise<boolean> {
  if (outages.has(db)) return true;
  if (await probe(db)) return false;
  if (outages.has(db)) return true;
  outages.set(db, { since: Date.now(), refused: 0 });
  logger.warn(
    { err: errorFields(error) },
    "database: not answering; pages and forms that need it answer 503 until it is back",
  );
  return true;
}

/** A query on `db` succeeded: ends a known outage with its one line (how long, how many requests refused). */
export function databaseAnswered(db: Database, logger: Logger): void {
  const outage = outages.get(db);
  if (!outage) return;
  outages.delete(db);
  logger.warn(
    { refused: outage.refused, seconds: Math.round((Date.now() - outage.since) / 1000) },
    `database: answering again; ${outage.refused} request(s) refused with 503 meanwhile`,
  );
}

/** Counts one request refused (503) during the outage of `db`; nothing when none is under way. */
export function countRefused(db: Database): void {
  const outage = outages.get(db);
  if (outage) outage.refused += 1;
}
