/**
 * The Express application: compression, baseline security headers, request
 * logging, the build's static files (hashed assets and prerendered pages)
 * and React Router for everything else.
 *
 * `createApp({ build, settings, logger, vite })` returns an Express app that
 * does not listen yet; `server/index.ts` starts it.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { rateLimit } from "express-rate-limit";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import type { Database } from "../app/db/client.server.ts";
import type { Settings } from "./env.ts";

export interface AppOptions {
  settings: Settings;
  logger: Logger;
  /** Folder of the client build (`build/client`): assets and prerendered HTML. */
  clientDir: string;
  /** Production: the server build module. Development: omitted, `vite` is used. */
  build?: ServerBuild;
  vite?: ViteDevServer;
  db: Database;
  /** Asks the outbox worker to run now. */
  wakeOutbox: () => void;
}

/** Largest body accepted by POST /contact: the form's fields fit in well under 32 KB. */
export const CONTACT_BODY_LIMIT_BYTES = 32 * 1024;

const CONTACT_PATHS = ["/contact", "/contact.data"];

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export function createApp({ settings, logger, clientDir, build, vite, db, wakeOutbox }: AppOptions): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");

  app.use(
    pinoHttp({
      logger,
      // Assets are not worth a log line each.
      autoLogging: { ignore: (req) => (req.url ?? "").startsWith("/assets/") },
      // One short line per request: no headers (they may carry cookies or tokens).
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, error) =>
        error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
    }),
  );
  app.use(compression());
  // The Content-Security-Policy and the rest of the header policy are set
  // with the "security headers" issue; until then, helmet's other defaults.
  // Referrer-Policy: with helmet's default "no-referrer", browsers send `Origin: null` on form
  // posts, which React Router's same-origin check for actions rightly refuses.
  app.use(helmet({ contentSecurityPolicy: false, referrerPolicy: { policy: "strict-origin-when-cross-origin" } }));

  if (vite) {
    app.use(vite.middlewares);
  } else {
    // Hashed file names: cache for a year, never revalidate.
    app.use(
      "/assets",
      express.static(path.join(clientDir, "assets"), {
        immutable: true,
        maxAge: ONE_YEAR_SECONDS * 1000,
        fallthrough: false,
      }),
    );
    // Prerendered pages and public files: always revalidated. A prerendered
    // page /blog is the file blog/index.html: served for /blog, without the
    // redirect to /blog/ that express.static would make.
    const revalidate = (res: express.Response) => res.setHeader("Cache-Control", "public, max-age=0, must-revalidate");
    app.use(
      express.static(clientDir, {
        redirect: false,
        index: "index.html",
        setHeaders: (res, file) => {
          revalidate(res);
          if (file.endsWith(`${path.sep}rss.xml`)) res.setHeader("Content-Type", "application/rss+xml; charset=utf-8");
          if (file.endsWith(`${path.sep}sitemap.xml`)) res.setHeader("Content-Type", "application/xml; charset=utf-8");
        },
      }),
    );
    app.use((req, res, next) => {
      if ((req.method !== "GET" && req.method !== "HEAD") || path.extname(req.path) || req.path.includes(".."))
        return next();
      const file = path.join(clientDir, req.path, "index.html");
      if (!file.startsWith(clientDir + path.sep) || !fs.existsSync(file)) return next();
      revalidate(res);
      res.sendFile(file, (error) => error && next(error));
    });
  }

  // Spam guards on the contact form (its own messages come from the action).
  app.post(CONTACT_PATHS, (req, res, next) => {
    const length = Number(req.headers["content-length"] ?? NaN);
    if (!Number.isFinite(length) || length > CONTACT_BODY_LIMIT_BYTES) {
      res.status(Number.isFinite(length) ? 413 : 411).type("text/plain; charset=utf-8");
      res.send("Le message envoyé est trop long. Veuillez le raccourcir et réessayer.");
      return;
    }
    next();
  });
  app.post(
    CONTACT_PATHS,
    rateLimit({
      windowMs: settings.CONTACT_RATE_LIMIT_WINDOW_MINUTES * 60_000,
      limit: settings.CONTACT_RATE_LIMIT_MAX,
      standardHeaders: "draft-8",
      legacyHeaders: false,
      // Past the limit the action still answers, in French, with HTTP 429.
      handler: (req, _res, next) => {
        (req as express.Request & { rateLimited?: boolean }).rateLimited = true;
        next();
      },
    }),
  );

  app.all(
    // "/{*splat}" matches "/" too (Express 5 path syntax).
    "/{*splat}",
    createRequestHandler({
      build: vite ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild> : build!,
      mode: settings.NODE_ENV,
      getLoadContext: (req) => ({
        settings,
        db,
        logger,
        wakeOutbox,
        rateLimited: (req as express.Request & { rateLimited?: boolean }).rateLimited === true,
      }),
    }),
  );

  return app;
}
