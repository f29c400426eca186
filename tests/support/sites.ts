/**
 * The site under test: in this process (`startTestServer`) or as a process
 * of its own (`spawnSite`: the compiled server, as production runs it, to be
 * signalled, killed or measured), and what tests read from its pages.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino, type Logger } from "pino";
import { loadSettings, type Settings } from "../../app/config/settings.server";
import type { RunningServer } from "../../server/main";
import { createPageRenderer, type PageRenderer } from "../../server/render-cache";
import type { RenderCache } from "../../server/render-cache-store";
import type { ServerBuild } from "react-router";
import { systemClock } from "../../app/context.server";
import type { Database } from "../../app/db/client.server";
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from "../../tooling/build-server";
import { freePort, waitFor } from "./network";
import { freshDataDir, SHARED_POSTGRES_ENV, startPostgres } from "./databases";

export const silentLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

/** The limits on what one person books (decision 028) and the owner's digest (036), out of the way of tests that do not test them. */
export const LIMITS_OUT_OF_REACH = {
  BOOKING_SEATS_PER_ADDRESS_PER_DAY: "1000",
  MAILS_PER_RECIPIENT_PER_DAY: "1000",
  // Each booking's own notice to the owner, not a digest (decision 036; app/courses/owner-digest.server.test.ts).
  OWNER_BOOKING_NOTICES_PER_HOUR: "1000",
} as const;

/**
 * The test sites' outbox poll: a mail a request queued leaves at once (the request wakes the worker);
 * the poll only finds rows that became due with time (a back-off, a lease, a reminder) or that
 * another process or the test wrote, within a second. Each idle round is one read of PGlite (about
 * 4.6 ms of CPU): at 0.2 s, a site spent 23 ms of CPU a second doing nothing, the browser tests'
 * sites about 30 s in all.
 */
export const TEST_OUTBOX_POLL_SECONDS = "1";

/** Settings for a test server: a fresh PGlite folder unless `DATABASE_URL` is given, no render-cache warm-up. */
export function testSettings(overrides: Record<string, string | undefined>): Settings {
  return loadSettings({
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    MAIL_FROM: "site@example.ch",
    CONTACT_NOTIFY_TO: "owner@example.ch",
    CONTACT_RATE_LIMIT_MAX: "100000",
    // Tests book many seats from one address (loopback) and mail one address often: the limits of
    // decision 028 are out of reach unless a test sets them (tests/integration/booking-limits.test.ts).
    ...LIMITS_OUT_OF_REACH,
    OUTBOX_POLL_SECONDS: TEST_OUTBOX_POLL_SECONDS,
    // Pages rendered at their first visit: the warm-up is the subject of tests/integration/render-cache.test.ts.
    RENDER_CACHE_WARM_UP: "0",
    LOG_LEVEL: "silent",
    ...overrides,
    DATA_DIR: overrides.DATA_DIR ?? (overrides.DATABASE_URL ? "unused" : freshDataDir()),
  });
}

/**
 * Starts the site in this process (needs `npm run build` first); logs
 * nothing unless given a `logger`. A server given neither DATA_DIR nor
 * DATABASE_URL keeps its data in a copy of the run's PostgreSQL template when
 * the integration tests' global setup started a cluster (decision 076), and
 * otherwise, or with `{ database: "embedded" }` (a test whose subject is the
 * embedded database), in a copy of the prepared PGlite folder, which
 * `close()` removes.
 */
export async function startTestServer(
  overrides: Record<string, string | undefined>,
  logger: Logger = silentLogger,
  { database = "any" }: { database?: "any" | "embedded" } = {},
): Promise<RunningServer & { url: string }> {
  if (database === "any" && !overrides.DATA_DIR && !overrides.DATABASE_URL && process.env[SHARED_POSTGRES_ENV])
    overrides = { ...overrides, DATABASE_URL: (await startPostgres()).url };
  const settings = testSettings(overrides);
  // Imported here, not above: the whole server and every feature, which a browser test's worker that
  // only spawns sites (`spawnSite`) never needs.
  const { startServer } = await import("../../server/main");
  const server = await startServer({ settings, logger });
  return {
    ...server,
    url: `http://127.0.0.1:${server.port}`,
    async close() {
      await server.close();
      if (!overrides.DATA_DIR && !overrides.DATABASE_URL)
        fs.rmSync(settings.DATA_DIR, { recursive: true, force: true });
    },
  };
}

/** The visible text of an HTML page (tags and word joiners dropped, spaces, no-break ones too, collapsed). */
export const pageText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\u2060/g, "")
    .replace(/\s+/g, " ");

/**
 * The text of `sitePath` as the production server answers it, from a site
 * started for this one request (`spawnSite` with `env`, on a throwaway
 * PGlite folder unless `env` names one) and stopped after. For what is
 * rendered on request only, like `/` (decision 017).
 * @throws when the site does not start or the answer is not 200.
 */
export async function renderedPage(sitePath: string, env: Record<string, string> = {}): Promise<string> {
  const site = await spawnSite({ LOG_LEVEL: "warn", ...env });
  try {
    await site.ready();
    const answer = await fetch(`${site.url}${sitePath}`);
    if (answer.status !== 200) throw new Error(`${sitePath} answered ${answer.status}`);
    return await answer.text();
  } finally {
    await site.stop();
  }
}

/**
 * The public pages search engines are asked to leave out (`noindex`), which
 * visitors still open: the public HTML pages the sitemap does not list.
 */
export const NOINDEX_PAGES = ["/mentions-legales", "/confidentialite", "/coordonnees"] as const;

/**
 * The path of every public HTML page: those the sitemap lists while no
 * letter has been sent (`sitemapPages` over the articles of `blogDirectory`,
 * by default BLOG_CONTENT_DIR or the site's), then `NOINDEX_PAGES`. What the
 * server's render cache is warmed with (the feed and robots.txt aside).
 */
export async function publicPagePaths(blogDirectory?: string): Promise<string[]> {
  // Imported here: the articles' parser (unified, the icons) is heavy for the harness's other users.
  const { loadArticles } = await import("../../app/blog/articles.server");
  const { sitemapPages } = await import("../../app/seo/sitemap.server");
  return [...sitemapPages(loadArticles(blogDirectory)).map((page) => page.path), ...NOINDEX_PAGES];
}

/** A page as the server answered it (`servedPages`). */
export interface ServedPage {
  path: string;
  headers: Headers;
  /** The body, decoded (the server sends it compressed). */
  html: string;
}

/**
 * GETs each of `paths` from the site at `baseUrl`, one after the other, as
 * a browser does (brotli or gzip accepted, the body decoded).
 * @throws naming the path when one does not answer 200 with an HTML page.
 */
export async function servedPages(baseUrl: string, paths: readonly string[]): Promise<ServedPage[]> {
  const pages: ServedPage[] = [];
  for (const sitePath of paths) {
    const answer = await fetch(`${baseUrl}${sitePath}`);
    const type = answer.headers.get("content-type") ?? "";
    if (answer.status !== 200 || !type.startsWith("text/html"))
      throw new Error(`${sitePath} answered ${answer.status} (${type || "no Content-Type"}), not a 200 HTML page`);
    pages.push({ path: sitePath, headers: answer.headers, html: await answer.text() });
  }
  return pages;
}

/** A site started as its own process by `spawnSite`. */
export interface SpawnedSite {
  child: ChildProcess;
  url: string;
  /** Every line the process wrote (pino's JSON lines, and anything else), as they come; empty with `logFile`. */
  log: string[];
  /** Resolves with the exit code, or the signal's name if a signal ended it, once the process ends. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** Resolves once `/healthz` answers 200. @throws when the process exits first or after `timeout` ms. */
  ready(timeout?: number): Promise<void>;
  /** Sends `signal` (SIGTERM by default) and resolves as `exited` does. */
  stop(signal?: NodeJS.Signals): Promise<number | NodeJS.Signals | null>;
}

/**
 * A test site's Node flags: production's, and no optimising compiler. A test
 * site lives seconds and serves a few dozen requests: TurboFan's compiles
 * would not pay back (about 0.3 cpu-s less per site, some 60 sites per run).
 * The code runs the same, only its tier of compilation differs.
 */
export const TEST_SITE_NODE_FLAGS = [...SERVER_NODE_FLAGS, "--no-opt"];

/**
 * `spawnSite` as a benchmark runs it: with production's V8 flags (`SERVER_NODE_FLAGS`, TurboFan
 * included), not the tests' `--no-opt`, which would make every figure of a long run pessimistic, and
 * glibc's two malloc arenas (`MALLOC_ARENA_MAX=2`, as `npm start` and the guide's systemd unit; an
 * empty `MALLOC_ARENA_MAX` in the environment or `env` measures glibc's default), and production's
 * outbox poll (OUTBOX_POLL_SECONDS unset: 5 s) unless `env` sets one, not the tests' 1 s, whose
 * idle rounds would cost the benchmark's site CPU production does not spend; `logFile` as
 * `spawnSite`'s. `BENCH_SERVER_NODE_FLAGS` in the environment adds flags of its own (space-separated,
 * e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: the server's profile, written when it stops).
 */
export function spawnBenchSite(
  env: Record<string, string> = {},
  { logFile }: { logFile?: string } = {},
): Promise<SpawnedSite> {
  return spawnSite(
    // An empty OUTBOX_POLL_SECONDS counts as unset (app/config/settings.server.ts): the setting's default.
    {
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
      OUTBOX_POLL_SECONDS: "",
      ...env,
    },
    {
      nodeFlags: [...SERVER_NODE_FLAGS, ...(process.env.BENCH_SERVER_NODE_FLAGS?.split(" ").filter(Boolean) ?? [])],
      logFile,
    },
  );
}

/**
 * Starts the compiled server (`build/start/index.js`, with the flags
 * production uses and `--no-opt`: `TEST_SITE_NODE_FLAGS`; that of `BUILD_DIR` when `env` or the environment names
 * another build) on a free port, with the given
 * settings over test defaults (a fresh PGlite folder unless `DATA_DIR` or
 * `DATABASE_URL` is given, no SMTP, rate limit raised, no render-cache warm-up, `LOG_LEVEL` info so
 * that tests can read the log). Does not wait: call `ready()`. A benchmark passes `nodeFlags`
 * (`SERVER_NODE_FLAGS`: what production runs, TurboFan included), and may pass `logFile`: the
 * process's output is appended to that file by the system, as a production log is written, instead
 * of being read by this process into `log` (which stays empty).
 */
export async function spawnSite(
  env: Record<string, string> = {},
  { nodeFlags = TEST_SITE_NODE_FLAGS, logFile }: { nodeFlags?: readonly string[]; logFile?: string } = {},
): Promise<SpawnedSite> {
  const port = await freePort();
  // A DATA_DIR made here goes with the process.
  const ownDataDir = env.DATA_DIR || env.DATABASE_URL ? undefined : freshDataDir();
  const buildDir = env.BUILD_DIR ?? process.env.BUILD_DIR ?? "build";
  const output = logFile === undefined ? undefined : fs.openSync(logFile, "a");
  const child = spawn(process.execPath, [...nodeFlags, path.join(buildDir, SERVER_ENTRY)], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      // Empty counts as unset (app/config/settings.server.ts) and keeps a .env file from setting them.
      DATABASE_URL: "",
      SMTP_URL: "",
      LOG_LEVEL: "info",
      CONTACT_RATE_LIMIT_MAX: "100000",
      ...LIMITS_OUT_OF_REACH,
      OUTBOX_POLL_SECONDS: TEST_OUTBOX_POLL_SECONDS,
      RENDER_CACHE_WARM_UP: "0",
      MAIL_FROM: "site@example.ch",
      CONTACT_NOTIFY_TO: "owner@example.ch",
      ...env,
      DATA_DIR: env.DATA_DIR ?? ownDataDir ?? "unused",
    },
    stdio: output === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", output, output],
  });
  if (output !== undefined) fs.closeSync(output);
  const log: string[] = [];
  for (const stream of output === undefined ? [child.stdout!, child.stderr!] : []) {
    let rest = "";
    stream.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      log.push(...lines.filter(Boolean));
    });
    stream.on("end", () => rest && log.push(rest));
  }
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once("exit", (code, signal) => {
      if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
      resolve(code ?? signal);
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  return {
    child,
    url,
    log,
    exited,
    async ready(timeout = 120_000) {
      await waitFor(
        async () => {
          if (child.exitCode !== null || child.signalCode !== null)
            throw new Error(
              `The site exited (${child.exitCode ?? child.signalCode}) before answering:\n${logFile ? fs.readFileSync(logFile, "utf8") : log.join("\n")}`,
            );
          return fetch(`${url}/healthz`).then(
            (response) => response.ok,
            () => false,
          );
        },
        timeout,
        `the site on ${url}`,
      );
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Resident memory of process `pid` in MB (Linux /proc), or NaN where unreadable. */
export function residentMegabytes(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * A small tmpfs of `megabytes` (a disk that fills up), or the reason it
 * cannot be had (mounting needs root and a kernel that allows it).
 */
export function mountTmpfs(
  megabytes: number,
  options = "",
): { dir: string; resize(megabytes: number): void; unmount(): void } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: "mounting a small tmpfs needs root" };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tmpfs-"));
  const mount = (args: string[]) => spawnSync("mount", args, { encoding: "utf8" });
  const result = mount(["-t", "tmpfs", "-o", `size=${megabytes}m${options ? `,${options}` : ""}`, "tmpfs", dir]);
  if (result.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { skip: `mount -t tmpfs failed: ${result.stderr.trim()}` };
  }
  return {
    dir,
    resize(size) {
      mount(["-o", `remount,size=${size}m`, dir]);
    },
    unmount() {
      spawnSync("umount", ["-l", dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fills the file system of `dir` up to its last byte with a file named `filler`. */
export function fillDisk(dir: string): void {
  const file = path.join(dir, "filler");
  const fd = fs.openSync(file, "a");
  const block = Buffer.alloc(64 * 1024);
  try {
    for (let size = block.length; size >= 1; size = Math.floor(size / 2)) {
      for (;;) {
        try {
          fs.writeSync(fd, block, 0, size);
        } catch {
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The render cache's page renderer (`createPageRenderer`) of `build` on
 * `cache`, its loaders on `db` with `settings`, counting its renders (each
 * asks for a load context once): `renders`.
 */
export function countingRenderer(
  build: ServerBuild,
  cache: RenderCache,
  settings: Settings,
  db: Database,
): PageRenderer & { readonly renders: number } {
  let renders = 0;
  const pages = createPageRenderer({
    build,
    mode: "production",
    cache,
    siteUrl: settings.SITE_URL,
    loadContext: () => {
      renders += 1;
      return { settings, logger: silentLogger, db, clock: systemClock };
    },
    logger: silentLogger,
  });
  return {
    ...pages,
    get renders() {
      return renders;
    },
  };
}
