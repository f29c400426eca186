/**
 * The server's logger (decision 064): pino's JSON lines to standard output
 * through pino's own buffered destination (`pino.destination`, sonic-boom),
 * so that a busy site pays one write for about 4 KB of lines instead of one
 * or a few per request (the request log's write was the largest cost of a
 * cached answer).
 *
 * `serverLogger(level)` returns the logger. A line waits in memory until
 * `LOG_BUFFER_BYTES` are buffered or `LOG_FLUSH_MS` have passed; an "error"
 * or "fatal" line is written at once with what precedes it. Writes are
 * synchronous (one `write` of the buffer, never a write still under way when
 * the process ends), and what is left is written when the process exits
 * (`process.exit`, an uncaught exception, the end of the event loop). Lost
 * only when the process is killed without an exit (SIGKILL, V8 out of
 * memory, a native crash, a signal before the server handles it): at most
 * the last `LOG_FLUSH_MS` of lines below "error".
 */
import { pino, type Level, type Logger } from "pino";

/** Lines are written once this many bytes wait (about 25 request lines). */
export const LOG_BUFFER_BYTES = 4096;

/** The longest a line waits before it is written, in milliseconds. */
export const LOG_FLUSH_MS = 200;

/** Pino's number for "error": lines at this level or above are written at once. */
const ERROR_LEVEL = 50;

/**
 * The server's logger at `level`, writing to file descriptor `fd` (standard output by default), a line
 * waiting at most `flushMs` milliseconds (`LOG_FLUSH_MS` by default).
 */
export function serverLogger(
  level: Level | "silent",
  { fd = 1, flushMs = LOG_FLUSH_MS }: { fd?: number; flushMs?: number } = {},
): Logger {
  const destination = pino.destination({ dest: fd, minLength: LOG_BUFFER_BYTES, sync: true, periodicFlush: flushMs });
  // Pino writes what is left at exit only for `sync: false` destinations.
  process.on("exit", () => destination.flushSync());
  return pino(
    {
      level,
      hooks: {
        logMethod(args, method, levelValue) {
          method.apply(this, args);
          if (levelValue >= ERROR_LEVEL) destination.flush();
        },
      },
    },
    destination,
  );
}
