/**
 * A database that does not answer, as one process sees it (issue 33, item
 * 10): whether an outage is under way, and its two log lines, one warning
 * when it starts and one when it ends with the count of requests refused
 * meanwhile, instead of a line per request. One state per open database
 * (`Database`), so that two test servers in one process do not share it,
 * and one per process (see `outages`).
 *
 * - `databaseDown(db, logger, error)`: true when `error` came from a
 *   database that does not answer (an outage is known, or a `select 1`
 *   fails within 2 s), and the outage is then started (logged once, with
 *   the error's kind and codes, never its message); false when the
 *   database answers (the error is something else: a refused write, a bug).
 * - `databaseAnswered(db, logger)`: a query succeeded; ends a known outage.
 * - `countRefused(db)`: one more request answered 503 during the outage.
 */
import { sql } from "drizzle-orm";
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

/** Whether `db` answers a `select 1` within `PROBE_TIMEOUT_MS`. */
async function answers(db: Database): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db.execute(sql`select 1`),
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error("no answer")), PROBE_TIMEOUT_MS);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether `error` (thrown by a query on `db`) means the database does not
 * answer; starts the outage (one warning) when it does and none was known.
 * Never throws.
 */
export async function databaseDown(db: Database, logger: Logger, error: unknown): Promise<boolean> {
  if (outages.has(db)) return true;
  if (await answers(db)) return false;
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
