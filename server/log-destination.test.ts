/**
 * The server's buffered log (server/log-destination.ts, decision 064): no
 * line is lost when the process ends, and an error is written at once.
 * Each case runs `serverLogger` in a Node process of its own (no periodic
 * write within the test) and reads its standard output.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { waitFor } from "../tests/support/harness";

/** A process that logs through `serverLogger`, then runs `ending`; its output as it comes, and its end. */
function loggingProcess(ending: string) {
  const script = `
    const { serverLogger } = await import("./server/log-destination.ts");
    // No periodic write within the test: only an error, or the end of the process, writes the buffer.
    const logger = serverLogger("info", { flushMs: 600000 });
    for (let n = 1; n <= 5; n++) logger.info("before " + n);
    logger.error("an error");
    for (let n = 1; n <= 5; n++) logger.info("after " + n);
    ${ending}
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const messages = () =>
    output.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
  return { child, output, exited, messages };
}

const BEFORE = ["before 1", "before 2", "before 3", "before 4", "before 5"];
const AFTER = ["after 1", "after 2", "after 3", "after 4", "after 5"];

describe.concurrent("serverLogger", () => {
  it("writes an error at once with the lines before it, and every line left when SIGTERM ends the process", async () => {
    const logging = loggingProcess(`
      // As server/index.ts ends: a line, then process.exit once the server is closed.
      process.on("SIGTERM", () => {
        logger.info("closing");
        setImmediate(() => process.exit(0));
      });
      console.error("ready");
      setInterval(() => {}, 1000);
    `);
    try {
      // The process still runs: the error and what precedes it are out without waiting for an exit.
      await waitFor(() => logging.output.stdout.includes("an error"), 30_000, "the error line");
      expect(logging.messages().slice(0, 6)).toEqual([...BEFORE, "an error"]);
      await waitFor(() => logging.output.stderr.includes("ready"), 30_000, "the SIGTERM handler");
      logging.child.kill("SIGTERM");
      expect(await logging.exited).toBe(0);
      // "closing" was logged right before the exit: still in the buffer had the exit not written it.
      expect(logging.messages()).toEqual([...BEFORE, "an error", ...AFTER, "closing"]);
    } finally {
      logging.child.kill("SIGKILL");
    }
  });

  it.each([
    ["process.exit", "logger.info('last'); process.exit(3);", 3],
    ["an uncaught exception", "logger.info('last'); throw new Error('boom');", 1],
  ])("writes every line left when %s ends the process", async (_ending, ending, code) => {
    const logging = loggingProcess(ending);
    expect(await logging.exited).toBe(code);
    expect(logging.messages()).toEqual([...BEFORE, "an error", ...AFTER, "last"]);
  });
});
