import { describe, expect, it } from "vitest";
import { errorFields, stackFrames, transientDatabaseError } from "./errors.server";

describe("errorFields", () => {
  it("keeps the codes and the cause of a failed query, never its message or parameters", () => {
    const driver = Object.assign(new Error('could not extend file "base/1/2": No space left on device'), {
      name: "error",
      code: "53100",
    });
    const drizzle = Object.assign(
      new Error("Failed query: insert into contacts ... params: Marie,marie@example.ch,+41 79 555 12 34"),
      { name: "DrizzleQueryError", cause: driver },
    );
    const fields = errorFields(drizzle);
    expect(fields).toEqual({ name: "DrizzleQueryError", sqlState: "53100", cause: "ENOSPC" });
    expect(JSON.stringify(fields)).not.toMatch(/marie|79 555/i);
  });

  it("reads a system error's code and a mail server's reply code, not its text", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:25"), {
      code: "ECONNREFUSED",
      syscall: "connect",
    });
    expect(errorFields(refused)).toEqual({
      name: "Error",
      code: "ECONNREFUSED",
      cause: "ECONNREFUSED",
      syscall: "connect",
    });
    const rejected = Object.assign(new Error("550 5.1.1 <someone@example.ch>: Recipient address rejected"), {
      code: "EENVELOPE",
      responseCode: 550,
      command: "RCPT TO",
      response: "550 5.1.1 <someone@example.ch>: Recipient address rejected",
    });
    expect(errorFields(rejected)).toEqual({ name: "Error", code: "EENVELOPE", responseCode: 550, command: "RCPT" });
  });

  it("names PGlite's file system errors by their errno", () => {
    expect(errorFields({ name: "ErrnoError", errno: 51 })).toEqual({ name: "ErrnoError", cause: "ENOSPC" });
  });

  it("survives anything thrown, including a cause that loops", () => {
    const loop: Record<string, unknown> = { name: "Loop" };
    loop.cause = loop;
    expect(errorFields(loop)).toEqual({ name: "Loop" });
    expect(errorFields("text")).toEqual({ name: "Error" });
    expect(errorFields(null)).toEqual({ name: "Error" });
  });
});

describe("stackFrames", () => {
  it("keeps the frames of a failed query's stack, never its message nor the parameters line", () => {
    const error = new Error("Failed query: select * from newsletter_letters where slug = $1\nparams: marie@example.ch");
    const frames = stackFrames(error)!;
    expect(frames).toMatch(/^\s+at /);
    expect(frames).not.toContain("marie@example.ch");
    expect(frames).not.toContain("Failed query");
  });

  it("answers undefined for what has no stack", () => {
    expect(stackFrames("text")).toBeUndefined();
    expect(stackFrames(null)).toBeUndefined();
  });
});

describe("transientDatabaseError (decision 071: 503 only when a retry can help)", () => {
  /** A failed query as Drizzle throws it: its message carries the parameters, the driver's error is its cause. */
  const failedQuery = (cause: unknown) =>
    Object.assign(new Error("Failed query: insert into course_registrations ... params: Odette,079 555 98 76"), {
      name: "DrizzleQueryError",
      cause,
    });
  const driver = (code: string) => Object.assign(new Error("refused"), { name: "error", code });

  it("calls a lock or serialization conflict, a timeout or a resource short of the database busy", () => {
    for (const code of ["40001", "40P01", "55P03", "57014", "53100", "53300", "08006", "57P01", "57P03"])
      expect(transientDatabaseError(failedQuery(driver(code))), code).toBe(true);
    expect(transientDatabaseError(failedQuery(new Error("Query read timeout")))).toBe(true);
  });

  it("calls a refused value, a broken constraint, a wrong statement or the code's own error a bug", () => {
    for (const code of ["23505", "23514", "22P02", "42703", "42P01"])
      expect(transientDatabaseError(failedQuery(driver(code))), code).toBe(false);
    expect(transientDatabaseError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(transientDatabaseError(null)).toBe(false);
    // A server that refuses the connection is for the outage's probe to tell (`databaseDown`), not a busy one.
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(transientDatabaseError(refused)).toBe(false);
  });
});
