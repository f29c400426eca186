/**
 * Starts the whole site in this process: database (migrations applied),
 * outbox worker, HTTP server. Used by `server/index.ts` and by the
 * integration tests.
 *
 * `startServer({ settings, logger })` resolves once the port listens, to
 * `{ port, database, worker, deskLive, close() }`. `close()` stops in this order: the
 * listener (no new connection; requests still arriving on open connections
 * get 503), the requests in progress (up to SHUTDOWN_GRACE_SECONDS, then
 * their connections are cut), the outbox worker (its current mail finished,
 * its other claimed rows given back), the daily retention job
 * (app/desk/retention.server.ts: its timers, and a run in progress), the
 * features' timed jobs (app/desk/jobs.server.ts), the database.
 * In production, public pages come from the render cache
 * (`server/render-cache.ts`), warmed in the background once the port
 * listens, a kept answer sent before Express (`server/render-cache-fast.ts`);
 * it and the desk's event streams (`app/desk/live.server.ts`)
 * hear the database's announcements (`server/announcements.ts`). `close()`
 * ends the event streams first.
 * @throws DatabaseOpenError naming DATABASE_URL or DATA_DIR when the
 *   database cannot be opened, DataDirLockedError when another process uses
 *   DATA_DIR, an Error naming PORT when it cannot listen.
 */
import fs from "node:fs";
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import nodemailer from "nodemailer";
import type { Logger } from "pino";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { OutboxWorker } from "../app/mail/outbox.server.ts";
import { smsSenderFrom } from "../app/mail/sms.server.ts";
import { openDatabase, type Database, type OpenDatabase } from "../app/db/client.server.ts";
import { databaseDown } from "../app/db/outage.server.ts";
import { errorFields } from "../app/db/errors.server.ts";
import { warnOfPlaceholders } from "../app/settings/placeholders.server.ts";
import { claimedBeforeNotFound, createApp } from "./app.ts";
import { announcementListener } from "./announcements.ts";
import { DeskLive, deskSnapshot } from "../app/desk/live.server.ts";
import { createPageRenderer, RENDER_CACHE_CHANNEL } from "./render-cache.ts";
import { RenderCache } from "./render-cache-store.ts";
import { warmUpHead, warmUpRest } from "./render-cache-warm-up.ts";
import { renderCacheFastPath, type FastPathOptions } from "./render-cache-fast.ts";
import { PageSpill } from "./render-cache-spill.ts";
import { invalidSettings, type Settings } from "../app/config/settings.server.ts";
import { systemClock } from "../app/context.server.ts";
import { createRateLimiter } from "./rate-limit.ts";
import { createDeskAuth, resolveAuthSecret } from "../app/desk/auth.server.ts";
import { SIGN_IN_LIMITS } from "../app/desk/sign-in.server.ts";
import { NEWSLETTER_LIMITS } from "../app/newsletter/schema.ts";
import { NEWSLETTER_MAIL_KINDS } from "../app/newsletter/subscriptions.server.ts";
import { JOBS, OUTBOX_PLUGS, runStartSteps, scheduleRetention } from "../app/features.server.ts";
import { scheduleJobs } from "../app/desk/jobs.server.ts";
import { readSiteSettings } from "../app/settings/site.server.ts";

export interface RunningServer {
  port: number;
  database: OpenDatabase;
  worker: OutboxWorker;
  /** The desk's event streams of this process. */
  deskLive: DeskLive;
  close(): Promise<void>;
}

export async function startServer({
  settings,
  logger,
  root = process.cwd(),
}: {
  settings: Settings;
  logger: Logger;
  root?: string;
}): Promise<RunningServer> {
  const buildDir = path.join(root, process.env.BUILD_DIR ?? "build");
  const clientDir = path.join(buildDir, "client");
  let build: ServerBuild | undefined;
  let vite: ViteDevServer | undefined;
  if (settings.NODE_ENV === "development") {
    const { createServer } = await import("vite");
    vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  } else {
    const serverBuildPath = path.join(buildDir, "server", "index.js");
    if (!fs.existsSync(serverBuildPath)) {
      throw new Error(`No build found at ${serverBuildPath}: run "npm run build" first (npm start does it for you).`);
    }
    build = (await import(pathToFileURL(serverBuildPath).href)) as ServerBuild;
  }
  // Before the database opens: a folder that cannot be made stops the start with nothing left open.
  const spill = build ? pageSpill(settings, logger) : undefined;

  // A connection lost in an outage is said by the outage's own line (app/db/outage.server.ts), not one each.
  const opened: { db?: Database } = {};
  const onPoolError = async (error: Error) => {
    if (opened.db && (await databaseDown(opened.db, logger, error))) return;
    logger.warn({ err: errorFields(error) }, "database: idle connection lost");
  };
  const database = await openDatabase({
    databaseUrl: settings.DATABASE_URL,
    dataDir: settings.DATA_DIR,
    createDataDir: settings.DATA_DIR_CREATE,
    onPoolError: (error) => void onPoolError(error),
  });
  opened.db = database.db;
  logger.info(
    `database: ${database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${path.resolve(settings.DATA_DIR)} (DATA_DIR)`}`,
  );

  // Each feature's start-up step: the repository's articles imported (decision 023), the photos an
  // earlier process was receiving when it was killed removed (app/features.server.ts).
  await runStartSteps({ db: database.db, logger, settings });
  // Fictitious values still in Réglages or the articles (README, "First thing to change").
  if (settings.NODE_ENV === "production") await warnOfPlaceholders(database.db, logger);

  const transport = settings.SMTP_URL
    ? nodemailer.createTransport({
        url: settings.SMTP_URL,
        // Kept-open connections (a new one per mail costs a greeting and EHLO each time), at most
        // SMTP_MAX_CONNECTIONS: the worker sends that many mails at once, the ceiling a provider sees.
        pool: true,
        maxConnections: settings.SMTP_MAX_CONNECTIONS,
        connectionTimeout: 15_000,
        greetingTimeout: 15_000,
        socketTimeout: 30_000,
      })
    : null;
  if (!transport)
    logger.warn("SMTP_URL is not set: mails (such as contact notifications) wait in the outbox table until it is set");
  const sms = smsSenderFrom(settings, logger);
  if (!sms.delivers)
    logger.warn(
      "SMS_PROVIDER is log: SMS are written to the log (row id only), not sent; the call list shows those people",
    );
  const worker = new OutboxWorker({
    db: database.db,
    plugs: OUTBOX_PLUGS,
    logger,
    transport,
    sms,
    from: settings.MAIL_FROM,
    ownerAddress: settings.CONTACT_NOTIFY_TO,
    pollInterval: settings.OUTBOX_POLL_SECONDS * 1000,
    leaseSeconds: settings.OUTBOX_LEASE_SECONDS,
    maxAttempts: settings.OUTBOX_MAX_ATTEMPTS,
    concurrency: settings.SMTP_MAX_CONNECTIONS,
    // SMTP providers limit how fast one sender may send: letters go at this pace.
    rates: { [NEWSLETTER_MAIL_KINDS.letter]: settings.NEWSLETTER_RATE_PER_MINUTE },
  });
  const publicFormLimit = {
    limit: settings.CONTACT_RATE_LIMIT_MAX,
    windowMs: settings.CONTACT_RATE_LIMIT_WINDOW_MINUTES * 60_000,
  };
  const rateLimit = createRateLimiter(
    database.db,
    {
      // The public forms a visitor fills: the contact form, the callback request and the newsletter boxes.
      contact: publicFormLimit,
      // /rappel (issue 23): counted apart from the contact form. An action without an entry here is not limited.
      callback: publicFormLimit,
      newsletter: publicFormLimit,
      // Course registrations and cancellations (app/routes/course*.tsx): the same allowance, counted apart.
      booking: publicFormLimit,
      ...SIGN_IN_LIMITS,
      ...NEWSLETTER_LIMITS,
    },
    logger,
  );
  const auth = createDeskAuth({
    db: database.db,
    siteUrl: settings.SITE_URL,
    secret: await resolveAuthSecret(database.db, settings.AUTH_SECRET),
    logger,
  });

  // The desk's event streams (app/desk/live.server.ts), and public pages kept in memory
  // (server/render-cache.ts): both hear the database's announcements over one connection
  // (server/announcements.ts).
  const deskLive = new DeskLive({ snapshot: () => deskSnapshot(database.db), logger });
  const renderCache = build
    ? new RenderCache({ maxBytes: settings.RENDER_CACHE_MAX_MB * 1024 * 1024, spill })
    : undefined;
  const stopListening = await database.listen(
    RENDER_CACHE_CHANNEL,
    announcementListener({ cache: renderCache, desk: deskLive, logger }),
  );

  const pages =
    build && renderCache
      ? createPageRenderer({
          build,
          mode: settings.NODE_ENV,
          cache: renderCache,
          siteUrl: settings.SITE_URL,
          loadContext: () => ({ settings, db: database.db, logger, clock: systemClock }),
          logger,
        })
      : undefined;

  let closing = false;
  const app = createApp({
    settings,
    logger,
    clientDir,
    build,
    vite,
    db: database.db,
    wakeOutbox: () => worker.wake(),
    rateLimit,
    auth,
    isClosing: () => closing,
    pages,
    deskLive,
    clock: systemClock,
  });
  // A kept page, data answer or 404 page is sent before Express (server/render-cache-fast.ts, decision 054).
  const fast = pages
    ? renderCacheFastPath({
        renderer: pages,
        logger,
        isClosing: () => closing,
        trustProxy: app.get("trust proxy fn") as FastPathOptions["trustProxy"],
        claimedBeforeNotFound: claimedBeforeNotFound(clientDir),
      })
    : null;
  // The outbox's first round (its statements' first run) and the warm-up's head before the first
  // request (decision 075): the first render of each kind of page, the costly one, keeps no visitor
  // and no static file waiting.
  worker.start();
  const warmUpStarted = Date.now();
  const warmUp = pages && settings.RENDER_CACHE_WARM_UP ? await warmUpHead(pages) : undefined;
  if (warmUp)
    logger.info(`render cache: ${warmUp.kept} first pages kept before listening, in ${Date.now() - warmUpStarted} ms`);
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = http.createServer(fast ? (req, res) => fast(req, res) || app(req, res) : app);
    listening.once("error", (error) =>
      reject(new Error(`PORT: cannot listen on port ${settings.PORT} (${error.message})`)),
    );
    listening.listen(settings.PORT, settings.HOST, () => resolve(listening));
  }).catch(async (error: unknown) => {
    await worker.stop();
    throw error;
  });
  // The privacy notice's deletions: shortly after start, then daily (app/desk/retention.server.ts).
  const retention = scheduleRetention({
    db: database.db,
    logger,
    // Read at each run: the owner changes them in Réglages (the privacy notice states them).
    periods: async () => (await readSiteSettings(database.db, logger)).legal,
  });

  // The features' timed jobs (offers of freed seats expiring): shortly after start, then each at its interval.
  const jobs = scheduleJobs(JOBS, {
    db: database.db,
    logger,
    clock: systemClock,
    siteUrl: settings.SITE_URL,
    settings,
  });

  if (pages && warmUp) {
    // Every other page of the sitemap rendered once, in the background: the first visitors find them ready.
    void warmUpRest(pages, warmUp).then((kept) =>
      logger.info(`render cache: ${kept} pages ready in ${Date.now() - warmUpStarted} ms`),
    );
  }

  return {
    port: (server.address() as AddressInfo).port,
    database,
    worker,
    deskLive,
    async close() {
      // 1. No new connection; idle keep-alive connections dropped; a request still arriving
      //    on an open connection is refused (503, server/doors.ts).
      closing = true;
      // Open event streams would hold the server until the grace period: ended now (browsers connect again).
      deskLive.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // 2. Requests in progress finish, within the grace period.
      const force = setTimeout(() => server.closeAllConnections(), settings.SHUTDOWN_GRACE_SECONDS * 1000);
      await closed;
      clearTimeout(force);
      // 3. The worker finishes its mail and gives back what it claimed, a retention run in
      //    progress ends; then the database.
      await worker.stop();
      transport?.close();
      await retention.stop();
      await jobs.stop();
      await stopListening();
      await renderCache?.close();
      await vite?.close();
      await database.close();
    },
  };
}

/**
 * The render cache's disk tier (server/render-cache-spill.ts), unless RENDER_CACHE_DISK_MB is 0.
 * @throws SettingsError naming RENDER_CACHE_DISK_DIR when its folder cannot be made there
 */
function pageSpill(settings: Settings, logger: Logger): PageSpill | undefined {
  if (settings.RENDER_CACHE_DISK_MB === 0) return undefined;
  try {
    return new PageSpill({
      parent: settings.RENDER_CACHE_DISK_DIR,
      maxBytes: settings.RENDER_CACHE_DISK_MB * 1024 * 1024,
      onError: (error) => logger.warn({ err: errorFields(error) }, "render cache: a page's file on disk failed"),
    });
  } catch (error) {
    throw invalidSettings([
      [
        "RENDER_CACHE_DISK_DIR",
        `cannot make a folder in ${settings.RENDER_CACHE_DISK_DIR} (${(error as Error).message}); set another folder, or RENDER_CACHE_DISK_MB=0`,
      ],
    ]);
  }
}
