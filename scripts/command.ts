/**
 * Runs one of the operator's commands (`npm run owner:add`, `owner:reset-2fa`,
 * `backup`, `restore`; tooling/build-server.ts's COMMANDS): its compiled copy
 * in `build/start/` when the build matches the sources (`buildState`), which
 * starts in about a second, else its TypeScript source through tsx, about
 * four. It never builds: a backup may run beside the live site (a nightly
 * cron job), whose build must not change under it.
 *
 *   tsx scripts/command.ts owner add owner@example.ch
 *
 * Exits with the command's own status (2 for an unknown command).
 */
import { spawnSync } from "node:child_process";
import { COMMANDS, commandArguments } from "../tooling/build-server";
import { buildState } from "../tooling/build-freshness";

const [name, ...rest] = process.argv.slice(2);
if (!name || !(name in COMMANDS)) {
  console.error(`Utilisation : tsx scripts/command.ts ${Object.keys(COMMANDS).join("|")} …`);
  process.exit(2);
}
const command = name as keyof typeof COMMANDS;
const nodeArguments = buildState() === "current" ? commandArguments(command) : ["--import", "tsx", COMMANDS[command]];
const result = spawnSync(process.execPath, [...nodeArguments, ...rest], { stdio: "inherit" });
process.exit(result.status ?? 1);
