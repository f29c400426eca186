/**
 * The Express application: request logging (paths only), the door guards
 * (`server/doors.ts`: methods, body size, a stopping server), compression,
 * security headers (`server/security.ts`), `/healthz`, `/csp-report`, the
 * mail provider's webhook (`server/mail-webhook.ts`), the build's static
 * files (hashed assets cached for a year, others revalidated), the public
 * pages from the render cache (`server/render-cache.ts`) and React Router
 * for everything else; the public actions' own guards run in
 * the actions (`app/guards/`).
 *
 * `createApp(options)` returns an Express app that does not listen yet;
 * `server/main.ts` starts it.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { sql } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import type { Database } from "../app/db/client.server.ts";
import type { RateLimiter } from "../app/guards/public-action.server.ts";
import type { DeskAuth } from "../app/desk/auth.server.ts";
import type { DeskLive } from "../app/desk/live.server.ts";
import { errorFields } from "../app/db/errors.server.ts";
import type { Settings } from "../app/config/settings.server.ts";
import { requestContext, type Clock, type RequestValues } from "../app/context.server.ts";
import { lingeringClose } from "./lingering-close.ts";
import { loggedPath } from "./log-fields.ts";
import { actionlessPost, doorGuards, errorHandler, privatePages, routeTree } from "./doors.ts";
import { CSP_REPORT_PATH, cspReportHandlers } from "./csp-report.ts";
import { isMailWebhookPath, MAIL_WEBHOOK_PATH, mailWebhook } from "./mail-webhook.ts";
import { smsReceipt } from "./sms-receipt.ts";
import { SMS_RECEIPT_PATH } from "../app/mail/sms.server.ts";
import { renderCachePages, type PageRenderer } from "./render-cache.ts";
import { securityHeaders } from "./security.ts";

export interface AppOptions {
  settings: Settings;
  logger: Logger;
  /** Folder of the client build (`build/client`): assets and public files. */
  clientDir: string;
  /** Production: the server build module. Development: omitted, `vite` is used. */
  build?: ServerBuild;
  vite?: ViteDevServer;
  db: Database;
  /** Asks the outbox worker to run now. */
  wakeOutbox: () => void;
  /** The public actions' rate limits (server/rate-limit.ts). */
  rateLimit: RateLimiter;
  /** The owner's sign-in (app/desk/auth.server.ts). */
  auth: DeskAuth;
  /** True once the server stops: requests still arriving on open connections get 503. */
  isClosing: () => boolean;
  /** Production: the public pages' render cache (server/render-cache.ts). */
  pages?: PageRenderer;
  /** The desk's event streams (app/desk/live.server.ts). */
  deskLive: DeskLive;
  /** What loaders and actions read as the current moment. */
  clock: Clock;
}

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** Public files: a browser or a CDN may keep them, but asks each time whether they changed. */
function revalidate(res: { setHeader(name: string, value: string): unknown }) {
  res.setHeader("Cache-Control", "public, max-age=0, must-revalidate");
}

/** The health check's path (a monitor's). */
const HEALTH_CHECK_PATH = "/healthz";

/** Where the hashed build assets are served (a missing one answers a short text 404, not the 404 page). */
const ASSETS_PATH = "/assets";

/** First segments (lowercase) of the paths this app's own handlers answer before the site's 404 page. */
const OWN_SEGMENTS = new Set(
  [HEALTH_CHECK_PATH, CSP_REPORT_PATH, MAIL_WEBHOOK_PATH, SMS_RECEIPT_PATH, ASSETS_PATH].map(
    (own) => own.split("/")[1]!,
  ),
);

/**
 * Whether a handler this app places before the site's 404 page (the health
 * check, the CSP reports, the webhooks, the assets, the public files) may
 * answer `pathname`, a plain path (no percent-escape, no `.` or `..`
 * segment, no empty segment: the render cache's fast path asks for no other):
 * its first segment, case ignored and cut at its first dot, is one of those
 * handlers', or names a file or folder of `clientDir` as it is on disk now
 * (a file added while the server runs counts). One `existsSync` per call.
 */
export function claimedBeforeNotFound(clientDir: string): (pathname: string) => boolean {
  return (pathname) => {
    const slash = pathname.indexOf("/", 1);
    const segment = slash === -1 ? pathname.slice(1) : pathname.slice(1, slash);
    if (segment === "") return true;
    const dot = segment.indexOf(".");
    if (OWN_SEGMENTS.has((dot === -1 ? segment : segment.slice(0, dot)).toLowerCase())) return true;
    return fs.existsSync(path.join(clientDir, segment));
  };
}

/** Longest wait for the database's answer before `/healthz` says 503. */
const HEALTH_CHECK_TIMEOUT_MS = 3000;

/** Thrown to roll back the health check's write. */
class HealthCheckRollback extends Error {}

/**
 * Whether the database accepts a write: a temporary table created and a row
 * inserted in a transaction that is then rolled back (nothing stays).
 * @throws the driver's error when the database refuses or is unreachable.
 */
async function probeWrite(db: Database): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`create temporary table healthz_probe (checked_at timestamptz) on commit drop`);
      await tx.execute(sql`insert into healthz_probe values (now())`);
      throw new HealthCheckRollback();
    });
  } catch (error) {
    if (!(error instanceof HealthCheckRollback)) throw error;
  }
}

/**
 * `GET /healthz`: 200 "ok" when the database accepts a write (rolled back)
 * within 3 s, 503 otherwise (and a log line with the error's code and cause,
 * never its message). Never cached.
 */
function healthCheck(db: Database, logger: Logger): express.RequestHandler {
  return async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.type("text/plain; charset=utf-8");
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        probeWrite(db),
        new Promise((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${HEALTH_CHECK_TIMEOUT_MS} ms`)),
            HEALTH_CHECK_TIMEOUT_MS,
          );
        }),
      ]);
      res.send("ok");
    } catch (error) {
      logger.error({ err: errorFields(error) }, "healthz: the database does not accept a write");
      res.status(503).send("database unavailable");
    } finally {
      clearTimeout(timer);
    }
  };
}

export function createApp({
  settings,
  logger,
  clientDir,
  build,
  vite,
  db,
  wakeOutbox,
  rateLimit,
  auth,
  isClosing,
  pages,
  deskLive,
  clock,
}: AppOptions): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");
  // An answer that leaves a body unread closes its connection in stages (the client reads the answer).
  app.use(lingeringClose());

  app.use(
    pinoHttp({
      logger,
      // Assets are not worth a log line each, nor a monitor's health checks (a failing one logs its cause).
      autoLogging: {
        ignore: (req) => (req.url ?? "").startsWith(`${ASSETS_PATH}/`) || req.url === HEALTH_CHECK_PATH,
      },
      // One short line per request: no headers (they may carry cookies or tokens), no query
      // string, no link token (server/log-fields.ts).
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: loggedPath(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, error) =>
        error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
    }),
  );
  app.use(compression());
  app.use(securityHeaders({ development: Boolean(vite) }));
  // Refusals (405, 413, 503 while stopping) carry the security headers too; nothing above reads a body.
  // Which routes have an action, for the refusals of doorGuards and actionlessPost (made once).
  const routes = build ? routeTree(build.routes) : null;
  const webhookOn = (url: string) => Boolean(settings.MAIL_WEBHOOK_SIGNING_KEY) && isMailWebhookPath(url);
  app.use(doorGuards({ tree: routes, isClosing, postOnly: webhookOn }));
  app.use(privatePages(routes));
  app.get(HEALTH_CHECK_PATH, healthCheck(db, logger));
  app.post(CSP_REPORT_PATH, ...cspReportHandlers(logger));
  // The mail provider's bounces and complaints (server/mail-webhook.ts, decision 044).
  app.use(mailWebhook({ signingKey: settings.MAIL_WEBHOOK_SIGNING_KEY, db, logger, clock }));
  // The SMS provider's delivery receipts (server/sms-receipt.ts, decision 051).
  const receiptKey = settings.SMS_PROVIDER === "aspsms" ? settings.ASPSMS_PASSWORD : undefined;
  app.use(smsReceipt({ password: receiptKey, db, logger, clock }));

  if (vite) {
    app.use(vite.middlewares);
  } else {
    // Hashed file names: cache for a year, never revalidate. Sent as compressed at build time
    // (tooling/precompress.ts): brotli, else gzip, else as is.
    app.use(
      ASSETS_PATH,
      expressStaticGzip(path.join(clientDir, "assets"), {
        enableBrotli: true,
        orderPreference: ["br", "gz"],
        serveStatic: { immutable: true, maxAge: ONE_YEAR_SECONDS * 1000 },
      }),
    );
    // A missing asset (an old page asking for a file of a former build): a short 404, not the HTML 404 page.
    app.use(ASSETS_PATH, (_req, res) => {
      res.status(404).type("text/plain; charset=utf-8").send("Not found");
    });
    // Public pages, from the render cache (server/render-cache.ts): before the files, which cost a
    // disk lookup each.
    if (pages) app.use(renderCachePages(pages));
    // Public files (pictures, share images, favicon): always revalidated. No index
    // files and no redirect to a trailing slash: pages are served above.
    app.use(
      express.static(clientDir, {
        redirect: false,
        index: false,
        setHeaders: revalidate,
      }),
    );
    // Any other path no route matches: the site's 404 page, kept once (server/render-cache.ts); the fast
    // path sends it before Express when `claimedBeforeNotFound` says no handler above may answer it.
    if (pages) app.use(renderCachePages(pages, { notFound: true }));
  }

  app.use(actionlessPost(routes));
  app.all(
    // "/{*splat}" matches "/" too (Express 5 path syntax).
    "/{*splat}",
    createRequestHandler({
      build: vite ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild> : build!,
      mode: settings.NODE_ENV,
      // The typed request context (app/context.server.ts, decision 032): every value set.
      getLoadContext: (req, res) => {
        const cspNonce = res.locals.cspNonce;
        if (!cspNonce) throw new Error("No CSP nonce: securityHeaders must run before React Router");
        return requestContext({
          settings,
          db,
          logger,
          wakeOutbox,
          clock,
          clientAddress: req.ip ?? req.socket.remoteAddress ?? "unknown",
          rateLimit,
          auth,
          deskLive,
          // A single-fetch request (`/admin.data`): the desk answers 401 to it instead of a redirect.
          dataRequest: req.path.endsWith(".data"),
          cspNonce,
        } satisfies RequestValues);
      },
    }),
  );
  app.use(errorHandler(logger));

  return app;
}
