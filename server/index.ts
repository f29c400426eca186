/**
 * Server entry: reads `.env` when present, validates the settings (exits
 * with a message naming each wrong variable), then serves the site.
 * Production serves `build/`; `NODE_ENV=development` runs Vite in middleware
 * mode with hot reload.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { pino } from "pino";
import type { ServerBuild } from "react-router";
import { loadSettings, SettingsError } from "./env.ts";

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
// before they load, hence the dynamic import of the app below.
process.env.NODE_ENV = settings.NODE_ENV;
const { createApp } = await import("./app.ts");
const logger = pino({ level: settings.LOG_LEVEL });
const root = process.cwd();
const clientDir = path.join(root, "build", "client");

let app;
if (settings.NODE_ENV === "development") {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  app = createApp({ settings, logger, clientDir, vite });
} else {
  const serverBuildPath = path.join(root, "build", "server", "index.js");
  if (!fs.existsSync(serverBuildPath)) {
    logger.fatal(`No build found at ${serverBuildPath}: run "npm run build" first (npm start does it for you).`);
    process.exit(1);
  }
  const build = (await import(pathToFileURL(serverBuildPath).href)) as ServerBuild;
  app = createApp({ settings, logger, clientDir, build });
}

const server = app.listen(settings.PORT, settings.HOST, (error?: Error) => {
  if (error) {
    logger.fatal({ err: error }, `Cannot listen on port ${settings.PORT} (PORT)`);
    process.exit(1);
  }
  logger.info(`Site ready on http://localhost:${settings.PORT} (public address ${settings.SITE_URL})`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    logger.info(`${signal} received, closing`);
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
