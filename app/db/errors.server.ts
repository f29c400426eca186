/**
 * What a log line may say about a database or mail error: the error's kind,
 * its code and its cause, never its message. A driver's message carries the
 * query and its parameters (Drizzle: "Failed query: insert ... params:
 * Marie,Dupont,..."), a server's message may quote a value ("invalid input
 * syntax ...: \"...\""), an SMTP reply may name a recipient: all visitors'
 * data, which the privacy notice keeps out of the log.
 *
 * `errorFields(error)` walks `error.cause` and returns
 * `{ name, code?, sqlState?, cause?, syscall?, responseCode?, command? }`:
 * - `code`: a Node system error (`ECONNREFUSED`), nodemailer's (`ECONNECTION`,
 *   `EENVELOPE`) or pg-protocol's SQLSTATE when nothing else is found;
 * - `sqlState`: PostgreSQL's five-character code (`53100` disk full; list:
 *   https://www.postgresql.org/docs/15/errcodes-appendix.html);
 * - `cause`: the system error behind it (`ENOSPC`, `EROFS`, `EACCES`...), read
 *   from the error's code or from the C library's wording in a server message
 *   (strerror texts of glibc), so that "No space left on device" becomes ENOSPC.
 */

export interface ErrorFields {
  name: string;
  code?: string;
  sqlState?: string;
  cause?: string;
  syscall?: string;
  responseCode?: number;
  command?: string;
}

/** glibc's strerror texts, as PostgreSQL quotes them in its messages, and their errno names. */
const STRERROR: [RegExp, string][] = [
  [/No space left on device/i, "ENOSPC"],
  [/Disk quota exceeded/i, "EDQUOT"],
  [/Read-only file system/i, "EROFS"],
  [/Permission denied/i, "EACCES"],
  [/Operation not permitted/i, "EPERM"],
  [/Too many open files/i, "EMFILE"],
  [/Input\/output error/i, "EIO"],
  [/Connection refused/i, "ECONNREFUSED"],
  [/Connection reset/i, "ECONNRESET"],
  [/timed? ?out/i, "ETIMEDOUT"],
];

/** Emscripten's errno numbers (PGlite's file system) that mean the same as the names above. */
const EMSCRIPTEN_ERRNO: Record<number, string> = { 51: "ENOSPC", 69: "EROFS", 2: "EACCES", 63: "EPERM" };

const SYSTEM_CODE = /^E[A-Z0-9]+$/;
const SQLSTATE = /^[0-9A-Z]{5}$/;

export function errorFields(error: unknown): ErrorFields {
  const fields: ErrorFields = { name: "Error" };
  const seen = new Set<unknown>();
  let current: unknown = error;
  let first = true;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const value = current as Record<string, unknown>;
    if (first) fields.name = typeof value.name === "string" ? value.name : "Error";
    first = false;
    const code = value.code;
    if (typeof code === "string") {
      if (SQLSTATE.test(code) && !SYSTEM_CODE.test(code)) fields.sqlState ??= code;
      else if (SYSTEM_CODE.test(code)) fields.code ??= code;
    }
    if (typeof value.errno === "number" && EMSCRIPTEN_ERRNO[value.errno] && value.name === "ErrnoError")
      fields.cause ??= EMSCRIPTEN_ERRNO[value.errno];
    if (typeof value.syscall === "string") fields.syscall ??= value.syscall;
    if (typeof value.responseCode === "number") fields.responseCode ??= value.responseCode;
    if (typeof value.command === "string") fields.command ??= value.command.split(" ")[0];
    if (!fields.cause && typeof value.message === "string" && !/params:/.test(value.message)) {
      const match = STRERROR.find(([pattern]) => pattern.test(value.message as string));
      if (match) fields.cause = match[1];
    }
    current = value.cause;
  }
  if (
    !fields.cause &&
    fields.code &&
    SYSTEM_CODE.test(fields.code) &&
    !/^E(CONNECTION|ENVELOPE|MESSAGE|AUTH|STREAM|PROTOCOL|SOCKET|DNS)$/.test(fields.code)
  ) {
    fields.cause = fields.code;
  }
  return fields;
}

/** A stack frame line, as V8 writes it ("    at fn (file:line:col)"). */
const STACK_FRAME = /^\s+at\s/;

/**
 * Where an error was thrown: the frame lines of its stack only, without its
 * message and whatever an error class writes between the message and the
 * frames (Drizzle's query error puts "params: …", the visitor's values,
 * on the line after its message). Undefined when there is no stack.
 */
export function stackFrames(error: unknown): string | undefined {
  const stack = (error as { stack?: unknown } | null | undefined)?.stack;
  if (typeof stack !== "string") return undefined;
  return stack
    .split("\n")
    .filter((line) => STACK_FRAME.test(line))
    .join("\n");
}

/**
 * SQLSTATE classes and codes of a database that is there but cannot do
 * the work now (decision 071): a retry in an instant may succeed.
 * - class 08: the connection failed or was lost;
 * - class 40: a transaction rolled back by a serialization failure
 *   (40001) or a deadlock (40P01);
 * - class 53: insufficient resources (53100 disk full, 53200 out of memory,
 *   53300 too many connections);
 * - 55P03: a lock not granted (`lock_timeout`, `NOWAIT`);
 * - 57014: a statement cancelled (`statement_timeout`); 57P01–57P05: the
 *   server shutting down, crashed, or not yet accepting connections.
 */
const TRANSIENT_SQLSTATE = /^(08|40|53)|^55P03$|^57014$|^57P0[1-5]$/;

/** pg's own wording when `query_timeout` passes (no code): a query that had no answer within it. */
const QUERY_TIMEOUT = /^Query read timeout$/;

/**
 * Whether `error` (thrown by a query) is the database being busy or short
 * of something rather than a bug: a transient SQLSTATE (`TRANSIENT_SQLSTATE`,
 * anywhere in its `cause` chain) or the driver's query timeout. A refused
 * value (class 22), a broken constraint (23), a wrong statement (42) or any
 * error of the code itself is not. Never throws.
 */
export function transientDatabaseError(error: unknown): boolean {
  const { sqlState } = errorFields(error);
  if (sqlState && TRANSIENT_SQLSTATE.test(sqlState)) return true;
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === "object" && !seen.has(current);) {
    seen.add(current);
    const { message, cause } = current as { message?: unknown; cause?: unknown };
    if (typeof message === "string" && QUERY_TIMEOUT.test(message)) return true;
    current = cause;
  }
  return false;
}
