/**
 * What PGlite's planner does without statistics, and what ANALYZE costs
 * (decision 071): fills a fresh PGlite folder as `npm run bench:scale` does
 * (`fillDatabase`, 100 articles by default: the desk's tables are the
 * subject), then prints
 * - whether anything analysed the tables by itself (`autovacuum`, each
 *   table's `last_autoanalyze` and `reltuples` after a pause of 5 s);
 * - for each statement of a few desk lists (requests, subscribers,
 *   sessions: first page, a middle page, a search), its plan's top nodes
 *   and its execution time (`EXPLAIN ANALYZE`, median of 3), before and
 *   after ANALYZE;
 * - what each start now runs (`refreshStatistics`): the tables analysed,
 *   wall and CPU time, the longest stall of the event loop meanwhile; then
 *   the same for a database-wide ANALYZE.
 * Usage: `npx tsx scripts/pglite-analyze.ts [articles]`. Asserts nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import type { Database } from "../app/db/client.server";
import { refreshStatistics } from "../app/db/statistics.server";
import * as schema from "../app/db/schema";
import { requestsPage } from "../app/contact/requests.server";
import { subscribersPage } from "../app/newsletter/subscriptions.server";
import { deskSessionsPage } from "../app/courses/sessions.server";
import { fillDatabase, SEARCHED } from "./bench-scale-fill";

const articles = Number(process.argv[2] ?? 100);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-analyze-"));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The statements (SQL and parameters) the desk lists send. */
async function deskStatements(client: PGlite): Promise<{ name: string; query: string; params: unknown[] }[]> {
  const statements: { name: string; query: string; params: unknown[] }[] = [];
  let name = "";
  const db = drizzle(client, {
    schema,
    logger: { logQuery: (query, params) => void statements.push({ name, query, params }) },
  }) as unknown as Database;
  const lists: [string, () => Promise<unknown>][] = [
    ["requests p1", () => requestsPage(db, {}, 1)],
    ["requests p200", () => requestsPage(db, {}, 200)],
    ["requests search", () => requestsPage(db, { search: SEARCHED }, 1)],
    ["requests status", () => requestsPage(db, { status: "nouveau" }, 50)],
    ["subscribers p100", () => subscribersPage(db, undefined, 100)],
    ["subscribers search", () => subscribersPage(db, "abonne-7", 1)],
    ["sessions p5", () => deskSessionsPage(db, new Date(), 5)],
  ];
  for (const [label, run] of lists) {
    name = label;
    await run();
  }
  return statements;
}

/** Each statement's plan (its first nodes) and median execution time. */
async function plans(client: PGlite, statements: { name: string; query: string; params: unknown[] }[]) {
  const rows: { name: string; plan: string; ms: number }[] = [];
  for (const { name, query, params } of statements) {
    const times: number[] = [];
    let plan = "";
    for (let run = 0; run < 3; run++) {
      const result = await client.query<{ "QUERY PLAN": { Plan: PlanNode; "Execution Time": number }[] }>(
        `explain (analyze, format json) ${query}`,
        params,
      );
      const [top] = result.rows[0]!["QUERY PLAN"];
      times.push(top!["Execution Time"]);
      plan = shape(top!.Plan);
    }
    rows.push({ name, plan, ms: median(times) });
  }
  return rows;
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/** A plan as one line: node types (with the table or index), depth first, the first 6. */
function shape(node: PlanNode): string {
  const names: string[] = [];
  const walk = (current: PlanNode) => {
    names.push(
      `${current["Node Type"]}${current["Index Name"] ? `(${current["Index Name"]})` : current["Relation Name"] ? `(${current["Relation Name"]})` : ""}`,
    );
    for (const child of current.Plans ?? []) walk(child);
  };
  walk(node);
  return names.slice(0, 6).join(" > ");
}

/** `work()`'s wall time and the event loop's longest stall meanwhile, in ms. */
async function stall(work: () => Promise<unknown>): Promise<{ wallMs: number; stallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 5));
  histogram.disable();
  return { wallMs, stallMs: histogram.max / 1e6 };
}

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const filledAt = performance.now();
await fillDatabase({ DATA_DIR: dataDir }, articles);
console.log(
  `filled (${articles} articles) in ${Math.round(performance.now() - filledAt)} ms; load ${os.loadavg()[0]!.toFixed(1)}`,
);
// Opened as PGlite itself, not by `openDatabase`, which would analyse the filled tables first.
const client = await PGlite.create(path.join(dataDir, "pglite"), { postgresqlconf: ["shared_buffers=16MB"] });
try {
  const autovacuum = (
    await client.query<{ setting: string }>("select setting from pg_settings where name = 'autovacuum'")
  ).rows[0]?.setting;
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const tables = await client.query<{
    relname: string;
    reltuples: number;
    last_autoanalyze: string | null;
    last_analyze: string | null;
  }>(
    `select c.relname, c.reltuples, s.last_autoanalyze, s.last_analyze from pg_class c
       left join pg_stat_user_tables s on s.relid = c.oid
      where c.relname in ('contacts','newsletter_subscribers','course_sessions','course_registrations','outbox','articles')
      order by c.relname`,
  );
  console.log(`autovacuum setting: ${autovacuum}`);
  for (const row of tables.rows)
    console.log(
      `  ${row.relname}: reltuples ${row.reltuples}, last_autoanalyze ${row.last_autoanalyze}, last_analyze ${row.last_analyze}`,
    );

  const statements = await deskStatements(client);
  const before = await plans(client, statements);

  const cpu = cpuMs();
  let analysed: string[] = [];
  const refresh = await stall(async () => (analysed = await refreshStatistics(client)));
  console.log(
    `refreshStatistics (what each start now runs): ${analysed.join(", ")}: ${refresh.wallMs.toFixed(0)} ms wall, ${(cpuMs() - cpu).toFixed(0)} ms CPU, longest stall of the event loop ${refresh.stallMs.toFixed(0)} ms`,
  );
  const again = cpuMs();
  const next = await stall(() => refreshStatistics(client));
  console.log(
    `refreshStatistics at the next start: ${next.wallMs.toFixed(0)} ms wall, ${(cpuMs() - again).toFixed(0)} ms CPU`,
  );
  const after = await plans(client, statements);
  console.log("\n| list: statement | before: plan | ms | after: plan | ms |\n|---|---|---|---|---|");
  before.forEach((row, index) => {
    const later = after[index]!;
    const same = later.plan === row.plan ? "(same)" : later.plan;
    console.log(`| ${row.name} #${index} | ${row.plan} | ${row.ms.toFixed(2)} | ${same} | ${later.ms.toFixed(2)} |`);
  });
  const whole = cpuMs();
  const database = await stall(() => client.exec("analyze"));
  console.log(
    `analyze (the whole database, catalogs included): ${database.wallMs.toFixed(0)} ms wall, ${(cpuMs() - whole).toFixed(0)} ms CPU, longest stall ${database.stallMs.toFixed(0)} ms`,
  );
  console.log(`load ${os.loadavg()[0]!.toFixed(1)}`);
} finally {
  await client.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
