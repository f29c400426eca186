/**
 * Server entry: reads `.env` when present, validates the settings (exits
 * with a message naming each wrong variable), then starts the site
 * (`server/main.ts`). Production serves `build/`; `NODE_ENV=development`
 * runs Vite in middleware mode with hot reload.
 */
import fs from "node:fs";
import { answerBackupRequest } from "../app/db/backup.server.ts";
import { errorFields } from "../app/db/errors.server.ts";
import { loadSettings, SettingsError } from "../app/config/settings.server.ts";
import { serverLogger } from "./log-destination.ts";

if (fs.existsSync(".env")) process.loadEnvFile(".env");

let settings;
try {
  settings = loadSettings();
} catch (error) {
  if (error instanceof SettingsError) {
    console.error(`${error.message}\nSee .env.example for every setting and its default.`);
    process.exit(1);
  }
  throw error;
}

// Libraries (React, React Router, Express) read NODE_ENV: make it agree with the settings
// before they load, hence the dynamic import below.
process.env.NODE_ENV = settings.NODE_ENV;
const { startServer } = await import("./main.ts");
// Buffered, and written out when the process exits (decision 064).
const logger = serverLogger(settings.LOG_LEVEL);

let running;
try {
  running = await startServer({ settings, logger });
} catch (error) {
  logger.fatal((error as Error).message);
  process.exit(1);
}

let closing = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    logger.info(`${signal} received, closing`);
    // A last resort if closing hangs: the grace period, the worker's 5 s, and margin.
    setTimeout(() => process.exit(1), (settings.SHUTDOWN_GRACE_SECONDS + 15) * 1000).unref();
    running.close().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: errorFields(error) }, "error while closing");
        process.exit(1);
      },
    );
  });
}

// `npm run backup` asks the running server for a copy of the embedded database (app/db/backup.server.ts).
process.on("SIGUSR2", () => void answerBackupRequest(running.database, settings.DATA_DIR, logger));

// Only once SIGTERM is handled: a signal during an await above would end the process uncleanly.
logger.info(`Site ready on http://localhost:${running.port} (public address ${settings.SITE_URL})`);
