/**
 * The embedded database giving way to the site's other work (issue 34).
 *
 * PGlite runs PostgreSQL in the server's own thread: a statement is
 * synchronous WebAssembly, and the promise it answers resolves in the same
 * turn of the event loop, so a loader's queries, what it computes from them
 * (an article's Markdown) and React's render all ran as one task: a static
 * file, or any request that had just arrived, waited behind all of it.
 * `takeTurns(client)` makes each statement (`query`, `exec`, a
 * `transaction` as a whole) wait for its turn of the event loop
 * (`setImmediate`) before it starts and after it answers, so that the
 * requests waiting meanwhile (their I/O) go in between: the longest task
 * is one statement, or the work of the code between two statements.
 * Statements inside a transaction do not give way (the transaction holds
 * the database; a few short statements).
 *
 * Cost: two turns of the loop a statement (microseconds when nothing
 * waits). On PostgreSQL there is nothing to do: the driver's answers come
 * by the socket, each in a turn of its own.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { PGlite } from "@electric-sql/pglite";

/** `run()`, started in a turn of its own and answered in another (see the module's comment). */
async function inTurn<T>(run: () => Promise<T>): Promise<T> {
  await nextTurn();
  try {
    return await run();
  } finally {
    await nextTurn();
  }
}

/**
 * Makes `client`'s `query`, `exec` and `transaction` take their turn of the
 * event loop (see the module's comment). Changes `client` itself (Drizzle
 * calls those methods on it) and returns it. Errors are those of PGlite,
 * unchanged.
 */
export function takeTurns(client: PGlite): PGlite {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((...args: Parameters<typeof query>) => inTurn(() => query(...args))) as typeof client.query;
  client.exec = (...args: Parameters<typeof exec>) => inTurn(() => exec(...args));
  client.transaction = ((...args: Parameters<typeof transaction>) =>
    inTurn(() => transaction(...args))) as typeof client.transaction;
  return client;
}
