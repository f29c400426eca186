/**
 * The PostgreSQL connection pool (DATABASE_URL), with its two waits apart
 * (decision 065): pg-pool's `connectionTimeoutMillis` bounds both opening a
 * connection and waiting for a busy pool's free one, so a burst of requests
 * on a loaded machine failed as if the database were down (a 503) while it
 * answered. Here opening a connection is bounded (a server that does not
 * accept one is down), waiting for a free one is not: the requests queue
 * while the database works through them, and a database that stops
 * answering fails them anyway (the connections it breaks, the connections
 * that cannot be opened again, the query timeout).
 *
 * `postgresPool(url, { max, timeouts })` → a `pg.Pool`.
 */
import pg from "pg";

/** Timeouts of the PostgreSQL pool (`postgresPool`), in milliseconds. */
export interface PoolTimeouts {
  connect: number;
  poolWait: number;
  query: number;
}

/** The site's timeouts. */
export const POOL_TIMEOUTS: PoolTimeouts = {
  /** Opening a connection: a server that does not accept one within this is down. */
  connect: 5000,
  /**
   * Waiting for a free connection when all are busy: none. A burst's requests queue for the pool's
   * connections while the database answers (decision 065); a database that stops answering fails
   * them anyway, through `connect` and `query`.
   */
  poolWait: 0,
  /** One query: one on a connection that died mid-way rejects instead of waiting forever. */
  query: 15_000,
};

/**
 * A pg pool of `max` connections to `databaseUrl` whose two waits are apart
 * (pg-pool's `connectionTimeoutMillis` bounds both): opening a connection
 * fails after `timeouts.connect` (the server is down); waiting for a busy
 * pool's free connection lasts `timeouts.poolWait` (0: as long as it takes).
 * Queries fail after `timeouts.query`.
 */
export function postgresPool(
  databaseUrl: string,
  { max = 10, timeouts = {} }: { max?: number; timeouts?: Partial<PoolTimeouts> } = {},
): pg.Pool {
  const { connect, poolWait, query } = { ...POOL_TIMEOUTS, ...timeouts };
  /** pg's client with its own bound on opening, whatever the pool's wait. */
  class Client extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connect });
    }
  }
  return new pg.Pool({
    connectionString: databaseUrl,
    max,
    Client,
    connectionTimeoutMillis: poolWait,
    query_timeout: query,
  });
}
