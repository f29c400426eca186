/**
 * `npm run bench:newsletter`: how fast a letter leaves, to a local SMTP peer,
 * and what the site's visitors notice meanwhile.
 *
 * First (issue 34, decision 055): 10,000 confirmed subscribers and a draft
 * letter in a fresh embedded database, the site started in production
 * (`NEWSLETTER_RATE_PER_MINUTE=10000`), the owner signed in presses
 * « Oui, envoyer maintenant » (`intent=send`): how long that answer takes,
 * then, while the letters are queued and sent, three probes each asking
 * again 50–100 ms after its answer: `/` (a kept page), a miss (an unknown
 * unsubscribe link: rendered from the database every time) and a static
 * file; the longest wait of each, until the SMTP peer has received the
 * 10,000 letters. The outbox polls at production's pace (OUTBOX_POLL_SECONDS
 * unset: 5 s; `spawnBenchSite`), woken by each queued batch.
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
 *   npm run bench:newsletter -- --big         the letter to 10,000 only
 *
 * Prints a Markdown table and writes it to `reports/bench-newsletter.md`
 * (git-ignored). Exits 1 on any failure, after stopping what it started.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import crypto from "node:crypto";
import os from "node:os";
import { openDatabase } from "../app/db/client.server";
import { newsletterSubscribers } from "../app/db/schema";
import { createLetter } from "../app/newsletter/letters.server";
import {
  createOwner,
  deskFetch,
  signIn,
  freshDataDir,
  lettersByAddress,
  seedLetter,
  spawnBenchSite,
  startSmtp,
  waitFor,
  type SpawnedSite,
} from "../tests/support/harness";
import { publishReport } from "./bench-report";
import { percentile } from "./bench-scale-probe";

const COUNT = 1000;
const BIG = 10_000;
const BIG_ONLY = process.argv.includes("--big");
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
  resources.site = await spawnBenchSite({
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

/** How often each probe asks again: a pause drawn between these, in milliseconds (the static file's own below). */
const PROBE_PAUSE_MS = [50, 100] as const;
/** The static file is asked more often: it stands for the event loop's longest stretch (issue 34: every 10–20 ms). */
const STATIC_PAUSE_MS = [10, 20] as const;

/** The CPU time (user and system, milliseconds, every thread) process `pid` has used: /proc's clock ticks. */
function cpuMilliseconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime, fields 14 and 15 of the line (11 and 12 after the command's closing parenthesis), at 100 Hz.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The longest wait of each probe until `done()`, and its p99: every probe asks its path (`path()`,
 * a fresh one each time for a miss) on its own, again after a pause of 50–100 ms (10–20 ms for
 * `a static file`), so that one slow answer does not hide another. @throws when an answer is a
 * server error (a 404 of a miss is expected).
 */
async function longestWaits(url: string, pid: number, probes: Record<string, () => string>, done: () => boolean) {
  const longest = new Map(Object.keys(probes).map((name) => [name, 0]));
  const cpuDuring = new Map(Object.keys(probes).map((name) => [name, 0]));
  const when = new Map(Object.keys(probes).map((name) => [name, 0]));
  const all = new Map(Object.keys(probes).map((name) => [name, [] as number[]]));
  const start = performance.now();
  let count = 0;
  await Promise.all(
    Object.entries(probes).map(async ([name, path]) => {
      while (!done()) {
        const begun = performance.now();
        const cpuBefore = cpuMilliseconds(pid);
        const response = await fetch(`${url}${path()}`);
        await response.arrayBuffer();
        if (response.status >= 500) throw new Error(`${name} answered ${response.status}`);
        const wait = performance.now() - begun;
        all.get(name)!.push(wait);
        if (wait > longest.get(name)!) {
          longest.set(name, wait);
          cpuDuring.set(name, cpuMilliseconds(pid) - cpuBefore);
          when.set(name, (begun - start) / 1000);
        }
        count++;
        const [low, high] = name === "a static file" ? STATIC_PAUSE_MS : PROBE_PAUSE_MS;
        await new Promise((resolve) => setTimeout(resolve, low + Math.random() * (high - low)));
      }
    }),
  );
  const p99 = new Map([...all].map(([name, waits]) => [name, percentile(waits, 99)]));
  return { longest, p99, when, cpuDuring, count };
}

/** The desk's send of a letter to BIG subscribers: the answer's time, the longest waits of `/` and a static file. */
async function bigLetter() {
  const loadBefore = loadAverage();
  const resources: (typeof started)[number] = {};
  started.push(resources);
  resources.dataDir = freshDataDir();
  const opened = await openDatabase({ dataDir: resources.dataDir });
  for (let start = 0; start < BIG; start += 1000)
    await opened.db.insert(newsletterSubscribers).values(
      Array.from({ length: 1000 }, (_, index) => ({
        email: `abonne${start + index}@example.ch`,
        source: "home",
        consentVersion: "bench",
        status: "confirmed",
      })),
    );
  const letterId = await createLetter(opened.db, {
    subject: "Les arnaques de décembre",
    body: "## Bonjour\n\nMéfiez-vous des faux colis.\n\n".repeat(20),
  });
  await opened.close();
  const owner = await createOwner(resources.dataDir);
  resources.smtp = await startSmtp();
  const smtp = resources.smtp;
  resources.site = await spawnBenchSite({
    DATA_DIR: resources.dataDir,
    SMTP_URL: smtp.url,
    NEWSLETTER_RATE_PER_MINUTE: "10000",
    LOG_LEVEL: "warn",
  });
  await resources.site.ready();
  const url = resources.site.url;
  const jar = await signIn(url, owner);
  const asset = fs.readdirSync("build/client/assets").find((name) => name.endsWith(".css"))!;
  const received = () => [...lettersByAddress(smtp.mails).values()].reduce((sum, count) => sum + count, 0);
  // A miss: a page rendered on every request from the database (an unknown unsubscribe token).
  const miss = () => `/newsletter/desabonnement/${crypto.randomUUID()}`;
  const probes = { "/": () => "/", "a miss": miss, "a static file": () => `/assets/${asset}` };
  // Each answered twice before the send: their first answer (a render, a file read) is not the letter's doing.
  for (const path of Object.values(probes).flatMap((path) => [path, path]))
    await (await fetch(`${url}${path()}`)).arrayBuffer();
  const pid = resources.site.child.pid!;
  const cpuAtSend = cpuMilliseconds(pid);
  const begun = performance.now();
  const answer = await deskFetch(url, `/admin/lettres/${letterId}`, { jar, form: { intent: "send" } });
  const answerMs = performance.now() - begun;
  if (answer.status !== 303) throw new Error(`the send answered ${answer.status}`);
  let timedOut = false;
  const timeout = setTimeout(() => (timedOut = true), 900_000);
  const waits = await longestWaits(url, pid, probes, () => received() >= BIG || timedOut);
  clearTimeout(timeout);
  const seconds = (performance.now() - begun) / 1000;
  const cpuSeconds = (cpuMilliseconds(pid) - cpuAtSend) / 1000;
  const count = received();
  await resources.site.stop();
  return { answerMs, waits, seconds, cpuSeconds, count, loadBefore };
}

/** The machine's load averages over 1, 5 and 15 minutes, e.g. "1.6 / 4.9 / 5.0". */
const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(" / ");

process.once("SIGINT", () => void cleanUp().then(() => process.exit(130)));
try {
  if (!process.argv.includes("--no-build"))
    execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: ["ignore", process.stderr, "inherit"] });
  console.error(`A letter to ${BIG} subscribers from the desk...`);
  const big = await bigLetter();
  const waitOf = (probe: string) =>
    `${big.waits.longest.get(probe)!.toFixed(0)} ms (p99 ${big.waits.p99.get(probe)!.toFixed(0)} ms), ${big.waits.cpuDuring.get(probe)!.toFixed(0)} ms of the site's CPU (${big.waits.when.get(probe)!.toFixed(0)} s after the send)`;
  const bigTable = [
    `## A letter to ${BIG} subscribers, sent from the desk (NEWSLETTER_RATE_PER_MINUTE=10000)`,
    "",
    `Load average before the run ${big.loadBefore}, after ${loadAverage()}.`,
    "",
    "| the send's answer | letters received | in | the site's CPU a letter | longest wait of `/` | of a miss | of a static file | requests meanwhile |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|",
    `| ${big.answerMs.toFixed(0)} ms | ${big.count} | ${big.seconds.toFixed(1)} s | ${((big.cpuSeconds * 1000) / big.count).toFixed(1)} ms | ${waitOf("/")} | ${waitOf("a miss")} | ${waitOf("a static file")} | ${big.waits.count} |`,
    "",
    "A wait's CPU is what the site spent meanwhile (every thread): a long wait with little CPU is a machine too busy to give the site a core, not the site blocking.",
    "",
  ];
  if (BIG_ONLY) {
    console.log(bigTable.join("\n"));
    await cleanUp();
    process.exit(0);
  }
  console.error(`Unthrottled: ${COUNT} letters...`);
  const fast = await run(10_000, (received) => received >= COUNT);
  console.error(`Throttled at ${THROTTLED_RATE}/min for ${THROTTLED_SECONDS} s...`);
  const slow = await run(THROTTLED_RATE, (_received, seconds) => seconds >= THROTTLED_SECONDS);
  const markdown = [
    "# Newsletter: letters sent to a local SMTP peer",
    "",
    `- date: ${new Date().toISOString()}`,
    `- Node ${process.version}, ${os.cpus().length} CPUs; embedded PGlite; nodemailer's pooled transport (SMTP_MAX_CONNECTIONS=1: one kept-open connection)`,
    "",
    ...bigTable,
    "## The outbox's pace (letters written by `sendLetter` before the start)",
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
  console.error(
    `bench:newsletter failed: ${error instanceof Error ? error.message : String(error)}`,
    (error as Error)?.cause ?? "",
  );
  for (const { site } of started)
    if (site)
      console.error(
        `the site (${site.child.exitCode ?? site.child.signalCode ?? "running"}): ${site.log.slice(-5).join("\n")}`,
      );
  await cleanUp();
  process.exit(1);
}
