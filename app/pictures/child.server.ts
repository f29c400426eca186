/**
 * Pictures are made in a child process (issue 33, item 5; decision 037):
 * sharp's native work (decoding, resizing, encoding) never runs in the
 * server, whose memory libvips and the AVIF encoder would otherwise keep,
 * and a decode that runs past its time limit is killed (SIGKILL), which
 * sharp's own `timeout()` cannot do.
 *
 * `runPictureJob(job, { timeoutMs, signal })` starts one child
 * (picture-child.ts) per job, one job at a time (the others wait their
 * turn), and resolves with `{ ok: true, result, peakRssBytes }`, or `{ ok:
 * false, failure }`: `"timeout"` (killed after `timeoutMs` from the moment
 * the child was ready), `"crash"` (it died or exited without an answer:
 * killed by the system for its memory, a fault in libvips), `"aborted"`
 * (`signal` aborted, the owner having gone: a job still waiting is never
 * started, a running one is killed). Never rejects. A photo goes to the
 * child as the path of its file (an upload streamed to disk) or as bytes.
 *
 * Where the child's code is: beside this module when it runs from its
 * TypeScript source (Vitest, `npm run dev`, scripts under tsx: started with
 * `--import tsx`), else `{build}/start/picture-child.js`, compiled by
 * tooling/build-server.ts (this module is bundled into `{build}/start/` and
 * `{build}/server/assets/`: the first folder above it that holds it).
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { MadeFiles } from "./making";

/** One job for the child. */
export type PictureJob =
  /** A photo to make: its bytes, or the path of its file (read by the child, left in place). */
  | { kind: "photo"; bytes: Uint8Array }
  | { kind: "photo"; path: string }
  | { kind: "png"; svg: string }
  /** A picture cut to `width` × `height` (cover, centred), as a JPEG. */
  | { kind: "cover"; bytes: Uint8Array; width: number; height: number };

/** What the child answers. */
export interface PictureJobAnswer {
  result: { kind: "photo"; made: MadeFiles } | { kind: "png"; png: Uint8Array } | { kind: "jpeg"; jpeg: Uint8Array };
  /** The child's peak resident memory, in bytes. */
  peakRssBytes: number;
}

export type PictureJobOutcome =
  | { ok: true; result: PictureJobAnswer["result"]; peakRssBytes: number }
  | { ok: false; failure: "timeout" | "crash" | "aborted" };

/** Time a child may take to load sharp and say it is ready, in milliseconds (not counted in a job's limit). */
const START_LIMIT_MS = 60_000;

/** The child's entry and Node's flags for it. */
function childEntry(): { entry: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith(".ts"))
    return { entry: path.join(path.dirname(here), "picture-child.ts"), execArgv: ["--import", "tsx"] };
  // Bundled: in `{build}/start/` (the server) or `{build}/server/assets/` (React Router's build).
  const folders = [1, 2, 3].map((up) => path.resolve(path.dirname(here), ...Array<string>(up).fill("..")));
  const build = folders.find((folder) => fs.existsSync(path.join(folder, "start", "picture-child.js"))) ?? folders[0]!;
  // A small JavaScript heap: the child holds one photo (at most 15 MB, outside the heap) and its files.
  return { entry: path.join(build, "start", "picture-child.js"), execArgv: ["--max-old-space-size=64"] };
}

/** The end of the queue of jobs: one child at a time (the next starts once the last has exited). */
let queue: Promise<unknown> = Promise.resolve();

export function runPictureJob(
  job: PictureJob,
  { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal },
): Promise<PictureJobOutcome> {
  const run = queue.then(
    (): Promise<{ outcome: PictureJobOutcome; exited: Promise<unknown> }> | { outcome: PictureJobOutcome } =>
      signal?.aborted ? { outcome: { ok: false, failure: "aborted" } } : runInChild(job, timeoutMs, signal),
  );
  queue = run.then((ran) => ("exited" in ran ? ran.exited : undefined));
  return run.then(({ outcome }) => outcome);
}

/** Runs `job` in a new child: its outcome, and when the child has exited. */
async function runInChild(
  job: PictureJob,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<{ outcome: PictureJobOutcome; exited: Promise<unknown> }> {
  const { entry, execArgv } = childEntry();
  const child = fork(entry, [], {
    execArgv,
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { outcome: await outcomeOf(child, job, timeoutMs, signal), exited };
}

function outcomeOf(
  child: ChildProcess,
  job: PictureJob,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<PictureJobOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const abort = () => settle({ ok: false, failure: "aborted" });
    const settle = (outcome: PictureJobOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      resolve(outcome);
    };
    const limit = (ms: number, failure: "timeout" | "crash") => {
      clearTimeout(timer);
      timer = setTimeout(() => settle({ ok: false, failure }), ms);
    };
    limit(START_LIMIT_MS, "crash");
    signal?.addEventListener("abort", abort, { once: true });
    child.on("message", (message: { ready: true } | PictureJobAnswer) => {
      if ("ready" in message) {
        child.send(job);
        limit(timeoutMs, "timeout");
      } else settle({ ok: true, result: message.result, peakRssBytes: message.peakRssBytes });
    });
    child.on("error", () => settle({ ok: false, failure: "crash" }));
    // An answer still in the channel is read before it closes: a child that ended without one crashed.
    child.on("exit", () => {
      if (child.connected) child.once("disconnect", () => settle({ ok: false, failure: "crash" }));
      else setImmediate(() => settle({ ok: false, failure: "crash" }));
    });
  });
}
