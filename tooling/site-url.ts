/**
 * The `SITE_URL` a build made now would use: the environment's, else
 * `.env`'s (read here as the server reads it; variables already set win),
 * else the default. Prerendered pages, the sitemap and the feed carry it.
 */
import fs from "node:fs";
import { buildSettings } from "../app/config/settings.server";

if (fs.existsSync(".env")) process.loadEnvFile(".env");

export function builtSiteUrl(): string {
  return buildSettings().SITE_URL;
}
