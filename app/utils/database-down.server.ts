/**
 * What a loader, an action or the root does when the database does not
 * answer (issue 33, item 10; the outage's state and log lines:
 * app/db/outage.server.ts):
 *
 * - `needsDatabase(context, read)`: `read()`'s result; when the database
 *   is down, throws the 503 answer (`databaseUnavailable()`), which the
 *   root's error boundary shows as the French page in the site's frame
 *   (`UnavailableNotice`, with the telephone of the last settings read,
 *   the root loader's `getSiteSettings`). Any other failure is thrown as it was.
 * - `unlessDatabaseDown(context, read)`: the same, but `{ down: true }`
 *   instead of throwing, for a page that still shows its form (a form
 *   posted during the outage comes back filled in): its loader answers
 *   `data(..., { status: 503 })`.
 * - `databaseFailure(context, error, message)`: for an action's `catch`:
 *   true when the database is down (the outage logs it, once); otherwise
 *   logs `message` with the error's kind and codes and returns false.
 * - `retryLaterOrThrow(context, error, message)`: for an action's `catch`
 *   that answers 503 only when retrying can help (decision 071): "down"
 *   (the database does not answer) or "busy" (a lock or serialization
 *   conflict, a timeout, resources short: `transientDatabaseError`);
 *   anything else is a bug, thrown on to the site's error page (500).
 * - `refusedAnswers`: the root's middleware: every 503 answer carries
 *   `Retry-After`, and one refused during an outage is counted.
 */
import { data, type MiddlewareFunction } from "react-router";
import { countRefused, databaseAnswered, databaseDown } from "~/db/outage.server";
import { errorFields, transientDatabaseError } from "~/db/errors.server";
import { dbContext, loggerContext, type RequestContext } from "~/context.server";
import { RETRY_AFTER_SECONDS } from "./unavailable";

/** The payload of the 503 answer thrown by `needsDatabase`. */
export interface UnavailableAnswer {
  unavailable: true;
}

/** The 503 answer, with `Retry-After`, thrown to the error boundary. */
export function databaseUnavailable() {
  return data<UnavailableAnswer>(
    { unavailable: true },
    { status: 503, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } },
  );
}

/**
 * `read()`'s result, or `{ down: true }` when it failed because the
 * database does not answer.
 * @throws `read`'s error when the database answers (a bug, a refused query).
 */
export async function unlessDatabaseDown<T>(
  context: RequestContext,
  read: () => Promise<T>,
): Promise<{ down: false; value: T } | { down: true }> {
  const db = context.get(dbContext);
  const logger = context.get(loggerContext);
  try {
    const value = await read();
    databaseAnswered(db, logger);
    return { down: false, value };
  } catch (error) {
    if (await databaseDown(db, logger, error)) return { down: true };
    throw error;
  }
}

/**
 * `read()`'s result.
 * @throws the 503 answer (`databaseUnavailable()`) when the database does not answer; `read`'s error otherwise.
 */
export async function needsDatabase<T>(context: RequestContext, read: () => Promise<T>): Promise<T> {
  const result = await unlessDatabaseDown(context, read);
  if (result.down) throw databaseUnavailable();
  return result.value;
}

/**
 * For an action's `catch` around a write: true when the database does not
 * answer (the outage's own lines say it, not one per request); else logs
 * `message` (the error's kind and codes, never its message) and returns false.
 */
export async function databaseFailure(context: RequestContext, error: unknown, message: string): Promise<boolean> {
  const logger = context.get(loggerContext);
  if (await databaseDown(context.get(dbContext), logger, error)) return true;
  logger.error({ err: errorFields(error) }, message);
  return false;
}

/**
 * For an action's `catch` around a write, when only a failure that a retry
 * can mend may answer 503 (decision 071):
 * - "busy": the database answered, but with a transient refusal
 *   (`transientDatabaseError`: a lock or serialization conflict that
 *   outlasted the wait, a timeout, a disk full...): `message` logged with the
 *   error's kind and codes;
 * - "down": the database does not answer (`databaseDown`; the outage's own
 *   lines say it, not one per request).
 * @throws `error` itself otherwise: a bug, for the route's error boundary
 *   (500, the site's error page) and `handleError`'s one log line (kind,
 *   codes and stack frames, never the message: app/entry.server.tsx).
 */
export async function retryLaterOrThrow(
  context: RequestContext,
  error: unknown,
  message: string,
): Promise<"busy" | "down"> {
  const logger = context.get(loggerContext);
  if (transientDatabaseError(error)) {
    logger.error({ err: errorFields(error) }, message);
    return "busy";
  }
  if (await databaseDown(context.get(dbContext), logger, error)) return "down";
  throw error;
}

/**
 * The root's middleware: a 503 answer gets `Retry-After` when it has none,
 * and counts as refused when an outage is under way.
 */
export const refusedAnswers: MiddlewareFunction<Response> = async ({ context }, next) => {
  const response = await next();
  if (response.status !== 503) return response;
  if (!response.headers.has("Retry-After")) response.headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  countRefused(context.get(dbContext));
  return response;
};
