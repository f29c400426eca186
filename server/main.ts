/**
 * Starts the whole site in this process: database (migrations applied),
 * outbox worker, HTTP server. Used by `server/index.ts` and by the
 * integration tests.
 *
 * `startServer({ settings, logger })` resolves once the port listens, to
 * `{ port, database, worker, close() }`; `close()` stops the worker, the HTTP
 * server and the database, in that order.
 * @throws DatabaseOpenError naming DATABASE_URL or DATA_DIR when the
 *   database cannot be opened; an Error naming PORT when it cannot listen.
 */
import fs from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import nodemailer from "nodemailer";
import type { Logger } from "pino";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { OutboxWorker } from "../app/contact/outbox.server.ts";
import { openDatabase, type OpenDatabase } from "../app/db/client.server.ts";
import { createApp } from "./app.ts";
import type { Settings } from "./env.ts";

export interface RunningServer {
  port: number;
  database: OpenDatabase;
  worker: OutboxWorker;
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
  const clientDir = path.join(root, process.env.BUILD_DIR ?? "build", "client");
  let build: ServerBuild | undefined;
  let vite: ViteDevServer | undefined;
  if (settings.NODE_ENV === "development") {
    const { createServer } = await import("vite");
    vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  } else {
    const serverBuildPath = path.join(root, process.env.BUILD_DIR ?? "build", "server", "index.js");
    if (!fs.existsSync(serverBuildPath)) {
      throw new Error(`No build found at ${serverBuildPath}: run "npm run build" first (npm start does it for you).`);
    }
    build = (await import(pathToFileURL(serverBuildPath).href)) as ServerBuild;
  }

  const database = await openDatabase({
    databaseUrl: settings.DATABASE_URL,
    dataDir: settings.DATA_DIR,
    onPoolError: (error) => logger.warn({ err: { message: error.message } }, "database: idle connection lost"),
  });
  logger.info(
    `database: ${database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${settings.DATA_DIR}`}`,
  );

  const transport = settings.SMTP_URL
    ? nodemailer.createTransport({
        url: settings.SMTP_URL,
        connectionTimeout: 15_000,
        greetingTimeout: 15_000,
        socketTimeout: 30_000,
      })
    : null;
  if (!transport)
    logger.warn("SMTP_URL is not set: contact notifications are written to the log and kept until it is set");
  const worker = new OutboxWorker({
    db: database.db,
    logger,
    transport,
    from: settings.MAIL_FROM,
    to: settings.CONTACT_NOTIFY_TO,
    pollInterval: settings.OUTBOX_POLL_SECONDS * 1000,
    leaseSeconds: settings.OUTBOX_LEASE_SECONDS,
  });

  const app = createApp({ settings, logger, clientDir, build, vite, db: database.db, wakeOutbox: () => worker.wake() });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(settings.PORT, settings.HOST, (error?: Error) => {
      if (error) reject(new Error(`PORT: cannot listen on port ${settings.PORT} (${error.message})`));
      else resolve(listening);
    });
  });
  worker.start();

  return {
    port: (server.address() as AddressInfo).port,
    database,
    worker,
    async close() {
      await worker.stop();
      // Let requests in progress finish (2 s at most), drop idle keep-alive connections.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 2000);
      await closed;
      clearTimeout(force);
      await vite?.close();
      await database.close();
    },
  };
}
