/**
 * The one place tests and benchmarks start the site and its peers: a real
 * SMTP server (smtp-server, no STARTTLS, no auth) that records parsed mails,
 * a throwaway PostgreSQL 15 cluster from Debian's packages (when installed),
 * the site in this process (`startTestServer`) or as a process of its own
 * (`spawnSite`: the compiled server, as production runs it, to be signalled,
 * killed or measured).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import * as OTPAuth from "otpauth";
import pg from "pg";
import PostalMime from "postal-mime";
import { pino, type Logger } from "pino";
import { SMTPServer } from "smtp-server";
import { loadSettings, type Settings } from "../../app/config/settings.server";
import { openDatabase, type Database } from "../../app/db/client.server";
import { createDeskAuth, resolveAuthSecret } from "../../app/desk/auth.server";
import { addOwner } from "../../app/desk/owners.server";
import { newsletterSubscribers } from "../../app/db/schema";
import { createLetter, sendLetter } from "../../app/newsletter/letters.server";
import { zurichToUtc, type SessionFields } from "../../app/courses/sessions.server";
import { startServer, type RunningServer } from "../../server/main";
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from "../../tooling/build-server";
import { COURSE_YEAR } from "./course-year";

export interface ReceivedMail {
  from: string;
  to: string;
  replyTo: string | undefined;
  /** The Reply-To's display name ("" when none). */
  replyToName: string;
  subject: string;
  text: string;
  html: string;
  /** Every header, lowercase name to its (last) value. */
  headers: Record<string, string>;
  /** The attached files, their content decoded as UTF-8 text. */
  attachments: { filename: string; mimeType: string; content: string }[];
}

/** A free TCP port on localhost, chosen by the system. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * An SMTP peer on `port` (a free one by default). `mails` collects every
 * accepted message, parsed; `connectionErrors` the socket errors of clients
 * that vanished mid-transaction (ECONNRESET), which are not test failures.
 */
export async function startSmtp(port?: number) {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    // Closing ends the open connections half a second later, not 30 s (the default): a site's pooled
    // transport keeps its connection open while idle, and a stopped peer is what the tests mean.
    closeTimeout: 500,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const parsed = await PostalMime.parse(Buffer.concat(chunks));
        mails.push({
          from: parsed.from?.address ?? "",
          to: parsed.to?.map((address) => address.address).join(",") ?? "",
          replyTo: parsed.replyTo?.[0]?.address,
          replyToName: parsed.replyTo?.[0]?.name ?? "",
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: parsed.html ?? "",
          headers: Object.fromEntries(parsed.headers.map((header) => [header.key, header.value])),
          attachments: parsed.attachments.map((file) => ({
            filename: file.filename ?? "",
            mimeType: file.mimeType,
            content: typeof file.content === "string" ? file.content : new TextDecoder().decode(file.content),
          })),
        });
        callback();
      });
    },
  });
  // A client that dies in the middle of a transaction (a site process killed
  // by a test) resets its socket: smtp-server then emits "error", which would
  // be an uncaught exception without a listener. Such errors are recorded.
  const connectionErrors: Error[] = [];
  server.on("error", (error: Error) => connectionErrors.push(error));
  const actualPort = port ?? (await freePort());
  await new Promise<void>((resolve) => server.listen(actualPort, "127.0.0.1", () => resolve()));
  return {
    port: actualPort,
    url: `smtp://127.0.0.1:${actualPort}`,
    mails,
    connectionErrors,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * Sends a raw request on a connection of its own, the path exactly as given
 * (`fetch` would normalise `/x/../admin` or `/%61dmin`); `Origin` is the
 * site and the body url-encoded unless `headers` say otherwise.
 */
export function sendRaw(
  base: string,
  method: string,
  pathname: string,
  { body, headers = {} }: { body?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const { hostname, port, origin } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        hostname,
        port,
        method,
        path: pathname,
        agent: false,
        headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded", ...headers },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, text }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** Debian's PostgreSQL binaries, or null when PostgreSQL is not installed. */
export function postgresBinaries(): string | null {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).filter((name) => fs.existsSync(path.join(root, name, "bin", "pg_ctl")));
  return versions.length ? path.join(root, versions.sort().at(-1)!, "bin") : null;
}

/** A PostgreSQL database for a test: its URL, and how to drop or stop it. */
export interface TestPostgres {
  /** `postgres://…/<database>`: a database of its own. */
  url: string;
  port: number;
  /** Stops the cluster (an outage) / starts it again: clusters of their own only (`{ own: true }`). */
  start(): void;
  stop(): void;
  /** Removes the database (or the cluster of its own). */
  destroy(): void;
}

/** The name of the migrated database that `startPostgres` copies in the run's shared cluster. */
const TEMPLATE_DATABASE = "site_template";

/**
 * The environment variable through which the integration tests' global
 * setup hands the run's shared cluster (its `postgres` database's URL) to
 * the test files.
 */
export const SHARED_POSTGRES_ENV = "TEST_SHARED_POSTGRES_URL";

/**
 * A throwaway PostgreSQL cluster (fsync off) on a free port, owned by the
 * `postgres` user when running as root, with an empty database `site`.
 * `stop()` / `start()` simulate an outage; `destroy()` removes it.
 * @throws when PostgreSQL is not installed.
 */
export async function startPostgresCluster(): Promise<TestPostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("PostgreSQL is not installed (apt-get install -y postgresql)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pg-test-"));
  const asRoot = process.getuid?.() === 0;
  fs.chmodSync(dir, 0o777);
  const run = (command: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, command), ...args], { stdio: "pipe" })
      : execFileSync(path.join(bin, command), args, { stdio: "pipe" });
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  const start = () => void run("pg_ctl", ["-D", data, "-o", options, "-w", "-l", path.join(dir, "log"), "start"]);
  const stop = () => void run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  start();
  run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "site"]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/site`,
    port,
    start,
    stop,
    destroy() {
      spawnSync(
        asRoot ? "runuser" : path.join(bin, "pg_ctl"),
        asRoot
          ? ["-u", "postgres", "--", path.join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"]
          : ["-D", data, "-m", "immediate", "stop"],
        { stdio: "ignore" },
      );
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Makes `site_template` in the cluster of `adminUrl` (any database of it):
 * a database migrated by the site's own `openDatabase`, which
 * `startPostgres` copies (`CREATE DATABASE … TEMPLATE`, milliseconds).
 */
export async function preparePostgresTemplate(adminUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DATABASE}`);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ databaseUrl: withDatabase(adminUrl, TEMPLATE_DATABASE), dataDir: "unused" });
  await database.close();
}

/** `url` naming database `name` instead. */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * A PostgreSQL database of the caller's own. In the integration tests (the
 * global setup started one cluster for the run), a copy of the migrated
 * template in that cluster, made in milliseconds; elsewhere (benchmarks), or
 * with `{ own: true }` for a test that stops the server (an outage), a
 * cluster of its own (`startPostgresCluster`, a few seconds).
 * @throws when PostgreSQL is not installed.
 */
export async function startPostgres({ own = false }: { own?: boolean } = {}): Promise<TestPostgres> {
  const shared = process.env[SHARED_POSTGRES_ENV];
  if (own || !shared) return startPostgresCluster();
  const name = `test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: shared });
  await admin.connect();
  try {
    // Two files copying the template at the same moment: PostgreSQL refuses the second while the first copies.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${TEMPLATE_DATABASE}`);
        break;
      } catch (error) {
        if (attempt >= 50 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await admin.end();
  }
  const unsupported = () => {
    throw new Error("a database in the run's shared cluster cannot be stopped: startPostgres({ own: true })");
  };
  return {
    url: withDatabase(shared, name),
    port: Number(new URL(shared).port),
    start: unsupported,
    stop: unsupported,
    // The cluster goes at the end of the run; a database left with open connections goes with it.
    destroy() {},
  };
}

/**
 * A prepared, migrated PGlite folder that test servers copy instead of
 * creating their own (DESIGN.md: creating one takes 3-5 s and 800 MB;
 * copying, a few milliseconds). Its name carries a hash of the migrations,
 * so a new migration makes a new template. Made by the integration tests'
 * global setup (`ensurePgliteTemplate`); absent, servers create their own.
 */
export function pgliteTemplatePath(): string {
  const migrations = path.resolve("app", "db", "migrations");
  const hash = crypto.createHash("sha256");
  for (const name of fs
    .readdirSync(migrations)
    .filter((file) => file.endsWith(".sql"))
    .sort())
    hash.update(name).update(fs.readFileSync(path.join(migrations, name)));
  return path.join(os.tmpdir(), `site-pglite-template-${hash.digest("hex").slice(0, 12)}`);
}

/** Creates the PGlite template (see `pgliteTemplatePath`) unless it exists. */
export async function ensurePgliteTemplate(): Promise<void> {
  const template = pgliteTemplatePath();
  if (fs.existsSync(path.join(template, "pglite", "PG_VERSION"))) return;
  const draft = `${template}.draft-${process.pid}`;
  const { openDatabase } = await import("../../app/db/client.server");
  const database = await openDatabase({ dataDir: draft });
  await database.close();
  fs.rmSync(template, { recursive: true, force: true });
  fs.renameSync(draft, template);
}

/** A fresh DATA_DIR for a test server: a copy of the template when there is one, else empty. */
export function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "site-data-"));
  const template = path.join(pgliteTemplatePath(), "pglite");
  if (fs.existsSync(path.join(template, "PG_VERSION")))
    fs.cpSync(template, path.join(dir, "pglite"), { recursive: true });
  return dir;
}

/**
 * The migrations a deployed site had applied before an upgrade: a copy of
 * app/db/migrations up to the one before the migration whose tag ends with
 * `upgradeTag` (e.g. `"_course_tokens"`), for Drizzle's `migrate`. The
 * caller removes the folder.
 * @throws when no migration after the first has such a tag.
 */
export function migrationsBefore(upgradeTag: string): string {
  const source = path.resolve("app", "db", "migrations");
  const journal = JSON.parse(fs.readFileSync(path.join(source, "meta", "_journal.json"), "utf8"));
  const upgrade = journal.entries.findIndex((entry: { tag: string }) => entry.tag.endsWith(upgradeTag));
  if (upgrade < 1) throw new Error(`no migration after the first ends with ${upgradeTag}`);
  journal.entries = journal.entries.slice(0, upgrade);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "site-migrations-previous-"));
  fs.mkdirSync(path.join(folder, "meta"));
  fs.writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  for (const { tag } of journal.entries)
    fs.copyFileSync(path.join(source, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  return folder;
}

/**
 * A DATA_DIR as a deployed site left it before an upgrade: PGlite migrated
 * by `migrationsBefore(upgradeTag)`, then `seed(client)` writes rows as that
 * version wrote them. Opening it (`openDatabase`, or
 * `startTestServer({ DATA_DIR })`) applies the upgrade. The caller removes `dir`.
 * @returns the folder and what `seed` resolved with.
 * @throws as `migrationsBefore` does.
 */
export async function dataDirBeforeMigration<T>(
  upgradeTag: string,
  seed: (client: PGlite) => Promise<T>,
): Promise<{ dir: string; seeded: T }> {
  const folder = migrationsBefore(upgradeTag);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "site-data-previous-"));
  const client = await PGlite.create(path.join(dir, "pglite"));
  try {
    await migrate(drizzle(client), { migrationsFolder: folder });
    return { dir, seeded: await seed(client) };
  } finally {
    await client.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** A database of a test file's own (`openTestDatabase`). */
export interface TestDatabase {
  db: Database;
  /** Closes it and removes its folder. */
  close(): Promise<void>;
}

/**
 * A migrated PGlite database on a fresh DATA_DIR (`freshDataDir`), for a
 * test file that calls the app's functions without a server: open it in
 * `beforeAll`, close it in `afterAll`.
 * @throws as `openDatabase` does.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const dataDir = freshDataDir();
  const database = await openDatabase({ dataDir });
  return {
    db: database.db,
    async close() {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const silentLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

/** The limits on what one person books (decision 028) and the owner's digest (036), out of the way of tests that do not test them. */
export const LIMITS_OUT_OF_REACH = {
  BOOKING_SEATS_PER_ADDRESS_PER_DAY: "1000",
  MAILS_PER_RECIPIENT_PER_DAY: "1000",
  // Each booking's own notice to the owner, not a digest (decision 036; app/courses/owner-digest.server.test.ts).
  OWNER_BOOKING_NOTICES_PER_HOUR: "1000",
} as const;

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
    OUTBOX_POLL_SECONDS: "0.2",
    // Pages rendered at their first visit: the warm-up is the subject of tests/integration/render-cache.test.ts.
    RENDER_CACHE_WARM_UP: "0",
    LOG_LEVEL: "silent",
    ...overrides,
    DATA_DIR: overrides.DATA_DIR ?? (overrides.DATABASE_URL ? "unused" : freshDataDir()),
  });
}

/**
 * Starts the site in this process (needs `npm run build` first); logs
 * nothing unless given a `logger`. A DATA_DIR it made is removed by `close()`.
 */
export async function startTestServer(
  overrides: Record<string, string | undefined>,
  logger: Logger = silentLogger,
): Promise<RunningServer & { url: string }> {
  const settings = testSettings(overrides);
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
 * A valid contact request as form fields; `email` makes it unique. The
 * newsletter box is left unticked (ticking it sends a confirmation mail as
 * well): add `newsletterConsent: "on"` to tick it.
 */
export function validForm(email = "marie.dupont@example.ch"): Record<string, string> {
  return {
    firstName: "Marie",
    lastName: "Dupont",
    email,
    phone: "+41 21 123 45 67",
    service: "one-to-one-course",
    message: "Bonjour,\nj’aimerais apprendre à utiliser mon smartphone.",
    website: "",
  };
}

/** POSTs a form to /contact as a browser without JavaScript does; returns the status and the body text. */
export async function postContact(
  baseUrl: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${baseUrl}/contact`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: await response.text() };
}

/**
 * The link to `pathname` (a prefix such as `/newsletter/confirmer/`) in a
 * mail's plain text, made to point at `site` (mails name SITE_URL).
 * @throws when the mail has no such link.
 */
export function linkIn(mail: ReceivedMail, pathname: string, site: { url: string }): string {
  const found = mail.text.match(new RegExp(`https?://[^/\\s]+(${pathname.replace(/[/.]/g, "\\$&")}\\S+)`));
  if (!found) throw new Error(`no ${pathname} link in:\n${mail.text}`);
  return `${site.url}${found[1]}`;
}

/** Polls `check` every 50 ms until it returns true or `timeout` ms pass. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeout = 10_000,
  what = "condition",
): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeout) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

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
  /** Every line the process wrote (pino's JSON lines, and anything else), as they come. */
  log: string[];
  /** Resolves with the exit code, or the signal's name if a signal ended it, once the process ends. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** Resolves once `/healthz` answers 200. @throws when the process exits first or after `timeout` ms. */
  ready(timeout?: number): Promise<void>;
  /** Sends `signal` (SIGTERM by default) and resolves as `exited` does. */
  stop(signal?: NodeJS.Signals): Promise<number | NodeJS.Signals | null>;
}

/**
 * Starts the compiled server (`build/start/index.js`, with the flags
 * production uses; that of `BUILD_DIR` when `env` or the environment names
 * another build) on a free port, with the given
 * settings over test defaults (a fresh PGlite folder unless `DATA_DIR` or
 * `DATABASE_URL` is given, no SMTP, rate limit raised, no render-cache warm-up, `LOG_LEVEL` info so
 * that tests can read the log). Does not wait: call `ready()`.
 */
export async function spawnSite(env: Record<string, string> = {}): Promise<SpawnedSite> {
  const port = await freePort();
  // A DATA_DIR made here goes with the process.
  const ownDataDir = env.DATA_DIR || env.DATABASE_URL ? undefined : freshDataDir();
  const buildDir = env.BUILD_DIR ?? process.env.BUILD_DIR ?? "build";
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(buildDir, SERVER_ENTRY)], {
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
      OUTBOX_POLL_SECONDS: "0.2",
      RENDER_CACHE_WARM_UP: "0",
      MAIL_FROM: "site@example.ch",
      CONTACT_NOTIFY_TO: "owner@example.ch",
      ...env,
      DATA_DIR: env.DATA_DIR ?? ownDataDir ?? "unused",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
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
              `The site exited (${child.exitCode ?? child.signalCode}) before answering:\n${log.join("\n")}`,
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

/** Opens a stopped site's PGlite folder, runs `read` on it, and closes it. */
export async function readStoppedDatabase<T>(dataDir: string, read: (db: PGlite) => Promise<T>): Promise<T> {
  const db = await PGlite.create(path.join(dataDir, "pglite"));
  try {
    return await read(db);
  } finally {
    await db.close();
  }
}

/** The e-mail addresses of the contact requests in a stopped site's PGlite folder, in arrival order. */
export function storedEmails(dataDir: string): Promise<string[]> {
  return readStoppedDatabase(dataDir, async (db) =>
    (await db.query<{ email: string }>("select email from contacts order by id")).rows.map((row) => row.email),
  );
}

/** The password of the owners the tests make (long, not a common password). */
export const TEST_OWNER_PASSWORD = "Correct-Horse-Battery-9";

/** An owner account made by `createOwner`, with what `npm run owner:add` prints. */
export interface TestOwner {
  email: string;
  password: string;
  /** The `otpauth://` URI an authenticator app scans. */
  totpUri: string;
  /** The ten single-use recovery codes. */
  recoveryCodes: string[];
}

/**
 * Creates a desk owner with a second factor, as `npm run owner:add` does
 * (`addOwner`), on `target`: the open database of a running test server
 * (`site.database.db`), a `postgres://` URL, or a DATA_DIR whose server is
 * stopped (PGlite allows one process at a time). The auth secret is the one
 * kept in the database, which the site reads when AUTH_SECRET is unset.
 */
export async function createOwner(target: Database | string, email = "owner@example.ch"): Promise<TestOwner> {
  const opened =
    typeof target === "string"
      ? await openDatabase(
          target.startsWith("postgres") ? { databaseUrl: target, dataDir: "unused" } : { dataDir: target },
        )
      : null;
  const db = opened?.db ?? (target as Database);
  try {
    const auth = createDeskAuth({
      db,
      siteUrl: "http://localhost:3000",
      secret: await resolveAuthSecret(db, undefined),
    });
    const setup = await addOwner(auth, db, { email, password: TEST_OWNER_PASSWORD });
    return { email, password: TEST_OWNER_PASSWORD, ...setup };
  } finally {
    await opened?.close();
  }
}

/**
 * Creates an owner with the operator's own command, `npm run owner:add --
 * EMAIL` (scripts/owner.ts), the password piped on standard input, against
 * `env` (`DATA_DIR` of a stopped site, or `DATABASE_URL`); reads the
 * `otpauth://` URI and the recovery codes from what it prints.
 * @throws with the command's output when it does not succeed.
 */
export function ownerAddCommand(env: Record<string, string>, email: string): TestOwner {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/owner.ts", "add", email], {
    input: `${TEST_OWNER_PASSWORD}\n`,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "warn", ...env },
  });
  const totpUri = /^otpauth:\/\/\S+$/m.exec(result.stdout)?.[0];
  const recoveryCodes = result.stdout
    .split(/Codes de secours[^\n]*\n/)[1]
    ?.split("\n")
    .filter((line) => /^ {2}\S+$/.test(line))
    .map((line) => line.trim());
  if (result.status !== 0 || !totpUri || !recoveryCodes?.length)
    throw new Error(`owner:add failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return { email, password: TEST_OWNER_PASSWORD, totpUri, recoveryCodes };
}

/** The TOTP code `owner`'s authenticator app shows at `timestamp` (now by default). */
export function totpCode(owner: Pick<TestOwner, "totpUri">, timestamp = Date.now()): string {
  return OTPAuth.URI.parse(owner.totpUri).generate({ timestamp });
}

/** The cookies a browser would keep for the site: fed with answers, read as a `Cookie` header. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Stores the `Set-Cookie` values of `response`; a cookie set to expire is dropped. */
  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const equals = pair.indexOf("=");
      const name = pair.slice(0, equals).trim();
      if (/;\s*Max-Age=0/i.test(line) || !pair.slice(equals + 1)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(equals + 1));
    }
  }

  /** The value of cookie `name`, if kept. */
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** The `Cookie` request header. */
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** A copy, to go on from the same point in another "browser". */
  clone(): CookieJar {
    const copy = new CookieJar();
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    return copy;
  }
}

/**
 * A request to the desk as a browser on the site's own pages sends it:
 * `Origin` set to the site (override it in `headers`), the jar's cookies,
 * redirects not followed; a `form` is sent url-encoded with POST. The
 * answer's cookies go into the jar.
 */
export async function deskFetch(
  baseUrl: string,
  pathname: string,
  {
    jar,
    form,
    method = form ? "POST" : "GET",
    headers = {},
  }: { jar?: CookieJar; form?: Record<string, string>; method?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const response = await fetch(`${baseUrl}${pathname}`, {
    method,
    redirect: "manual",
    headers: {
      Origin: baseUrl,
      ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      ...(jar ? { Cookie: jar.header() } : {}),
      ...headers,
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  jar?.keep(response);
  return response;
}

/** The text of the sign-in page's alert (`role="alert"`) in an HTML answer, or null. */
export function alertText(html: string): string | null {
  const match = /<p role="alert"[^>]*>([\s\S]*?)<\/p>/.exec(html);
  return match ? match[1]!.replace(/<[^>]+>/g, "").trim() : null;
}

/**
 * The first sign-in step (e-mail and password) from `address` (sent as
 * `X-Forwarded-For`, which the site trusts from loopback), as the no-JS
 * form posts it. Resolves with the answer (303 when the password is right).
 */
export function postPassword(
  baseUrl: string,
  jar: CookieJar,
  { email, password }: { email: string; password: string },
  address = "198.51.100.1",
): Promise<Response> {
  return deskFetch(baseUrl, "/admin/connexion", {
    jar,
    form: { step: "password", email, password, website: "" },
    headers: { "X-Forwarded-For": address },
  });
}

/** The second sign-in step: a TOTP or recovery `code`. Resolves with the answer (303 to /admin when accepted). */
export function postCode(baseUrl: string, jar: CookieJar, code: string, address = "198.51.100.1"): Promise<Response> {
  return deskFetch(baseUrl, "/admin/connexion", {
    jar,
    form: { step: "code", code, website: "" },
    headers: { "X-Forwarded-For": address },
  });
}

/**
 * The combined sign-in step (e-mail, password and code in one form, asked
 * while the account is over its allowance of failed passwords) from
 * `address`. Resolves with the answer (303 to /admin when accepted).
 */
export function postCombined(
  baseUrl: string,
  jar: CookieJar,
  { email, password, code }: { email: string; password: string; code: string },
  address = "198.51.100.1",
): Promise<Response> {
  return deskFetch(baseUrl, "/admin/connexion", {
    jar,
    form: { step: "combined", email, password, code, website: "" },
    headers: { "X-Forwarded-For": address },
  });
}

/**
 * Signs `owner` in (password, then `code`: the current TOTP code by
 * default) and resolves with the jar that holds the session cookie.
 * @throws when a step is not accepted.
 */
export async function signIn(baseUrl: string, owner: TestOwner, code = totpCode(owner)): Promise<CookieJar> {
  const jar = new CookieJar();
  const first = await postPassword(baseUrl, jar, owner);
  if (first.status !== 303) throw new Error(`password step answered ${first.status}`);
  const second = await postCode(baseUrl, jar, code);
  if (second.status !== 303 || second.headers.get("location") !== "/admin")
    throw new Error(`code step answered ${second.status}: ${alertText(await second.text())}`);
  return jar;
}

/**
 * The desk's article editor on a test server (`startTestServer({})`) with an
 * owner signed in: `get(path)` fetches a public page, `create(title)` makes
 * a draft and returns its id, `edit(id, form)` posts the editor's form.
 * Close it with `site.close()`.
 */
export async function startArticleDesk() {
  const site = await startTestServer({});
  const jar = await signIn(site.url, await createOwner(site.database.db));
  return {
    site,
    jar,
    get: (pathname: string) => fetch(`${site.url}${pathname}`),
    async create(title: string): Promise<number> {
      const created = await deskFetch(site.url, "/admin/articles", { jar, form: { title } });
      return Number(created.headers.get("location")!.split("/").pop());
    },
    edit: (id: number, form: Record<string, string>) => deskFetch(site.url, `/admin/articles/${id}`, { jar, form }),
  };
}

/** The subject of the letter `seedLetter` sends. */
export const SEEDED_LETTER_SUBJECT = "Les arnaques de décembre";

/**
 * Writes `count` confirmed subscribers (`abonne{i}@example.ch`) and one
 * letter sent to them (`sendLetter`: one outbox row each) into `db`.
 * @returns their addresses.
 */
export async function seedLetter(db: Database, count: number, siteUrl: string): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, index) => `abonne${index}@example.ch`);
  for (let start = 0; start < emails.length; start += 250) {
    await db
      .insert(newsletterSubscribers)
      .values(
        emails
          .slice(start, start + 250)
          .map((email) => ({ email, source: "home", consentVersion: "test", status: "confirmed" })),
      );
  }
  const letterId = await createLetter(db, { subject: SEEDED_LETTER_SUBJECT, body: "Méfiez-vous des faux colis." });
  const written = await sendLetter(db, letterId, { siteUrl });
  if (written !== count) throw new Error(`sendLetter wrote ${written} mails for ${count} subscribers`);
  return emails;
}

/** How many copies of the seeded letter each address received. */
export function lettersByAddress(mails: readonly ReceivedMail[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of mails)
    if (mail.subject === SEEDED_LETTER_SUBJECT) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1);
  return counts;
}

/**
 * The fields of a course session for tests (`createSession`): the security
 * course, 12 January of `COURSE_YEAR` (tests/support/course-year.ts) at
 * 14 h 00 in Vevey, 2 hours, 8 seats, 4 at least, CHF 55.–; `overrides`
 * change any of them.
 */
export function sessionFields(overrides: Partial<SessionFields> = {}): SessionFields {
  return {
    courseId: "securite",
    startsAt: zurichToUtc(`${COURSE_YEAR}-01-12`, "14:00"),
    durationMinutes: 120,
    placeName: "Salle paroissiale",
    placeAddress: "Rue du Lac 1, 1800 Vevey",
    placeAccess: "Rez-de-chaussée, ascenseur",
    capacity: 8,
    minimum: 4,
    priceChf: 55,
    ...overrides,
  };
}

/**
 * A booking form for `sessionId`, one seat, as a browser without JavaScript
 * posts it to `/cours/{slug}` (`postBooking`); `n` makes the person unique
 * (name, telephone, e-mail); `extra` overrides any field.
 */
export const bookingForm = (sessionId: number, n: number, extra: Record<string, string> = {}) => ({
  sessionId: String(sessionId),
  firstName: "Marie",
  lastName: `Dupont ${n}`,
  // One telephone per person: a telephone registers once per session.
  phone: `079 1${String(n).padStart(6, "0")}`,
  email: `marie${n}@example.ch`,
  seats: "1",
  website: "",
  ...extra,
});

/** POSTs `form` to `/cours/{slug}` on `baseUrl`; the answer (303 to the registration's page) is not followed. */
export function postBooking(baseUrl: string, slug: string, form: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}/cours/${slug}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    body: new URLSearchParams(form).toString(),
  });
}

/**
 * The places left a page shows for session `sessionId` ("7 places restantes",
 * "Complet"), or null when it does not show it: its `<li id="seance-…">`
 * on `/cours` and `/cours/{slug}`, its card link on the home page.
 */
export function placesShown(html: string, sessionId: number): string | null {
  const block =
    new RegExp(`id="seance-${sessionId}"[\\s\\S]*?</li>`).exec(html) ??
    new RegExp(`\\?seance=${sessionId}#inscription"[\\s\\S]*?</a>`).exec(html);
  if (!block) return null;
  return /(\d+ places? restantes?|Complet)/.exec(block[0].replace(/<[^>]+>/g, " "))?.[1] ?? null;
}
