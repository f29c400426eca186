/**
 * `npm run bench:contact`: throughput and latency of POST /contact (valid
 * requests, rate limit raised) on the embedded PGlite and on PostgreSQL
 * (a throwaway Debian cluster, when installed), measured with autocannon
 * (10 connections, 10 s each); then how many queued notifications per second
 * the outbox worker delivers to a local SMTP peer (smtp-server).
 * Prints a Markdown table. Builds the site first when needed.
 */
import { execFileSync } from "node:child_process";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { outbox } from "../app/db/schema";
import {
  postgresBinaries,
  startPostgres,
  startSmtp,
  startTestServer,
  validForm,
  waitFor,
} from "../tests/support/harness";

execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: "inherit" });

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const rows: string[] = [];

async function measure(label: string, databaseUrl?: string) {
  // No SMTP while measuring requests: the worker only logs (silently), so only the action is timed.
  const site = await startTestServer({ DATABASE_URL: databaseUrl });
  try {
    let counter = 0;
    const result = await autocannon({
      url: `${site.url}/contact`,
      connections: 10,
      duration: DURATION,
      requests: [
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          setupRequest: (request) => ({
            ...request,
            body: new URLSearchParams(validForm(`bench${counter++}@example.ch`)).toString(),
          }),
        },
      ],
    });
    const ok = result["2xx"];
    rows.push(
      `| POST /contact, ${label} | ${(ok / DURATION).toFixed(0)} req/s | ${result.latency.p50} ms | ${result.latency.p99} ms | ${ok} stored, ${result.non2xx} non-2xx, ${result.errors} errors |`,
    );

    // Delivery: send everything queued so far to a local SMTP peer.
    const pending = (await site.database.db.select({ n: sql<number>`count(*)::int` }).from(outbox))[0]!.n;
    const smtp = await startSmtp();
    const { OutboxWorker } = await import("../app/mail/outbox.server");
    const { OUTBOX_PLUGS } = await import("../app/features.server");
    const nodemailer = (await import("nodemailer")).default;
    await site.worker.stop();
    const worker = new OutboxWorker({
      db: site.database.db,
      plugs: OUTBOX_PLUGS,
      logger: (await import("../tests/support/harness")).silentLogger,
      transport: nodemailer.createTransport({ url: smtp.url, pool: true, maxConnections: 1 }),
      from: "site@example.ch",
      ownerAddress: "owner@example.ch",
      batchSize: 50,
      pollInterval: 10,
    });
    const started = performance.now();
    worker.start();
    await waitFor(() => smtp.mails.length >= pending, 600_000, "delivery");
    const seconds = (performance.now() - started) / 1000;
    await worker.stop();
    await smtp.close();
    rows.push(
      `| outbox delivery to local SMTP, ${label} | ${(pending / seconds).toFixed(0)} mails/s | | | ${pending} mails in ${seconds.toFixed(1)} s |`,
    );
  } finally {
    await site.close();
  }
}

await measure("PGlite");
if (postgresBinaries()) {
  const postgres = await startPostgres();
  try {
    await measure("PostgreSQL 15", postgres.url);
  } finally {
    postgres.destroy();
  }
} else {
  rows.push("| PostgreSQL | not installed (apt-get install -y postgresql) | | | |");
}

console.log(`\n| measure | rate | p50 | p99 | notes |\n|---|---:|---:|---:|---|\n${rows.join("\n")}`);
process.exit(0);
