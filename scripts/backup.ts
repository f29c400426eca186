/**
 * Backups of the site's database, taken while the site runs, and their
 * restore, from the server's terminal (app/db/backup.server.ts):
 *
 *   npm run backup                       to backups/site-{date}T{time}.tar.gz (PGlite) or .dump (PostgreSQL)
 *   npm run backup -- FILE               to FILE
 *   npm run restore -- FILE              replaces the database with FILE's (the embedded one: stop the site first)
 *
 * Reads `.env` and the same settings as the server (DATABASE_URL or
 * DATA_DIR). Exit status: 0 done, 1 refused or failed (the message says
 * why), 2 wrong usage. Everything it prints is in French: the owner runs it.
 */
import fs from "node:fs";
import path from "node:path";
import { backupEmbedded, backupPostgres, restoreEmbedded, restorePostgres } from "../app/db/backup.server.ts";
import { loadSettings, SettingsError } from "../app/config/settings.server.ts";

const [command, file] = process.argv.slice(2);
if (!["backup", "restore"].includes(command ?? "") || (command === "restore" && !file)) {
  console.error("Utilisation : npm run backup [-- FICHIER]  |  npm run restore -- FICHIER");
  process.exit(2);
}

if (fs.existsSync(".env")) process.loadEnvFile(".env");
let exitCode = 0;
try {
  const settings = loadSettings();
  const onPostgres = Boolean(settings.DATABASE_URL);
  if (command === "backup") {
    const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, "-");
    const archive = path.resolve(file ?? path.join("backups", `site-${stamp}.${onPostgres ? "dump" : "tar.gz"}`));
    if (settings.DATABASE_URL) {
      backupPostgres(settings.DATABASE_URL, archive);
      console.log(`Sauvegarde de la base PostgreSQL écrite dans ${archive}.`);
    } else {
      const how = await backupEmbedded(settings.DATA_DIR, archive);
      const byWhom = how === "by the running server" ? "par le site en marche" : "le site étant arrêté";
      console.log(`Sauvegarde de la base intégrée écrite dans ${archive} (${byWhom}).`);
    }
    console.log("Copiez-la aussi hors du serveur.");
  } else {
    const archive = path.resolve(file!);
    if (!fs.existsSync(archive)) throw new Error(`le fichier ${archive} n’existe pas`);
    if (settings.DATABASE_URL) {
      restorePostgres(settings.DATABASE_URL, archive);
      console.log(`Base PostgreSQL restaurée depuis ${archive}.`);
    } else {
      const aside = await restoreEmbedded(settings.DATA_DIR, archive);
      console.log(`Base intégrée restaurée depuis ${archive}.`);
      if (aside) console.log(`L’ancienne est gardée dans ${aside} : effacez-la quand tout va bien.`);
    }
    console.log("Démarrez le site.");
  }
} catch (error) {
  exitCode = 1;
  console.error(error instanceof SettingsError ? error.message : `Impossible : ${(error as Error).message}`);
}
process.exit(exitCode);
