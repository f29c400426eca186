/**
 * `npm run bench:newsletter`: how fast a letter leaves, to a local SMTP peer.
 *
 * Writes 1,000 confirmed subscribers and one letter sent to them into a
 * fresh embedded database (`seedLetter` from tests/support/harness.ts: one
 * outbox row each, as the desk's "Envoyer" does), then starts
 * `server/index.ts` in production as its own process (`spawnSite`) with the
 * outbox delivering to a local SMTP peer (`startSmtp`), and measures:
 * - unthrottled: `NEWSLETTER_RATE_PER_MINUTE=10000` (the highest setting),
 *   the time from the server answering `/healthz` to the 1,000th letter
 *   received: letters per second the worker reaches on this machine;
 * - throttled: a second run with `NEWSLETTER_RATE_PER_MINUTE=120`, counted
 *   over 60 s: the pace the setting holds.
 *
 *   npm run bench:newsletter                  builds first when build/ is stale
 *   npm run bench:newsletter -- --no-build    uses build/ as it is
 *
 * Prints a Markdown table and writes it to `reports/bench-newsletter.md`
 * (git-ignored). Exits 1 on any failure, after stopping what it started.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { openDatabase } from "../app/db/client.server";
import {
  freshDataDir,
  lettersByAddress,
  seedLetter,
  spawnSite,
  startSmtp,
  waitFor,
  type SpawnedSite,
} from "../tests/support/harness";
import { publishReport } from "./bench-report";

const COUNT = 1000;
const THROTTLED_RATE = 120;
const THROTTLED_SECONDS = 60;
const REPORT = "reports/bench-newsletter.md";

const started: { site?: SpawnedSite; dataDir?: string; smtp?: Awaited<ReturnType<typeof startSmtp>> }[] = [];

async function cleanUp() {
  for (const run of started) {
    await run.site?.stop().catch(() => undefined);
    await run.smtp?.close().catch(() => undefined);
    if (run.dataDir) fs.rmSync(run.dataDir, { recursive: true, force: true });
  }
}

/** One run: seeds, starts the site at `rate` a minute, and resolves when `done(received)` holds. */
async function run(rate: number, until: (received: number, seconds: number) => boolean) {
  const resources: (typeof started)[number] = {};
  started.push(resources);
  resources.dataDir = freshDataDir();
  const opened = await openDatabase({ dataDir: resources.dataDir });
  await seedLetter(opened.db, COUNT, "http://localhost:3000");
  await opened.close();
  resources.smtp = await startSmtp();
  const smtp = resources.smtp;
  resources.site = await spawnSite({
    DATA_DIR: resources.dataDir,
    SMTP_URL: smtp.url,
    NEWSLETTER_RATE_PER_MINUTE: String(rate),
    LOG_LEVEL: "warn",
  });
  await resources.site.ready();
  const start = performance.now();
  const received = () => [...lettersByAddress(smtp.mails).values()].reduce((sum, count) => sum + count, 0);
  await waitFor(() => until(received(), (performance.now() - start) / 1000), 600_000, `the letters at ${rate}/min`);
  const seconds = (performance.now() - start) / 1000;
  const count = received();
  await resources.site.stop();
  return { count, seconds };
}

process.once("SIGINT", () => void cleanUp().then(() => process.exit(130)));
try {
  if (!process.argv.includes("--no-build"))
    execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: ["ignore", process.stderr, "inherit"] });
  console.error(`Unthrottled: ${COUNT} letters...`);
  const fast = await run(10_000, (received) => received >= COUNT);
  console.error(`Throttled at ${THROTTLED_RATE}/min for ${THROTTLED_SECONDS} s...`);
  const slow = await run(THROTTLED_RATE, (_received, seconds) => seconds >= THROTTLED_SECONDS);
  const markdown = [
    "# Newsletter: letters sent to a local SMTP peer",
    "",
    `- date: ${new Date().toISOString()}`,
    `- Node ${process.version}, ${os.cpus().length} CPUs; embedded PGlite; one SMTP connection per mail (nodemailer without a pool)`,
    "",
    "| NEWSLETTER_RATE_PER_MINUTE | letters received | in | letters per second | per minute |",
    "|---:|---:|---:|---:|---:|",
    `| 10000 (highest) | ${fast.count} | ${fast.seconds.toFixed(1)} s | ${(fast.count / fast.seconds).toFixed(1)} | ${Math.round((fast.count / fast.seconds) * 60)} |`,
    `| ${THROTTLED_RATE} | ${slow.count} | ${slow.seconds.toFixed(1)} s | ${(slow.count / slow.seconds).toFixed(2)} | ${Math.round((slow.count / slow.seconds) * 60)} |`,
    "",
  ].join("\n");
  publishReport(REPORT, markdown);
  await cleanUp();
  process.exit(0);
} catch (error) {
  console.error(`bench:newsletter failed: ${error instanceof Error ? error.message : String(error)}`);
  await cleanUp();
  process.exit(1);
}
