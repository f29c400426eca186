/**
 * `npm run bench:scale -- [articles] [--postgres]`: the site with years of
 * articles, people and letters (issue 34, item 5). Fills a fresh database
 * (scripts/bench-scale-fill.ts: `articles` articles, 1000 by default; 500
 * sessions × 20 registrations, 20,000 contact requests, 10,000 subscribers,
 * 2,000 invoices, 300 quotes, the owner), then starts the compiled server
 * (`spawnBenchSite`, as production runs it; `BUILD_DIR` names another
 * build) twice:
 *
 * 1. with the warm-up (`RENDER_CACHE_WARM_UP=1`): the time from start to
 *    the first answer (a static file), the warm-up's head (the pages kept
 *    before the server listens, decision 075), the first answer of each
 *    public page then (target ≤ 50 ms), to the warm-up's end (its log line;
 *    5 minutes at most, `BENCH_WARM_UP_LIMIT_SECONDS`), and the longest
 *    wait of a static file (`/favicon.svg`, asked 20 ms after each answer)
 *    meanwhile (target ≤ 100 ms) and the p99 of those waits; pages kept;
 *    then 20 connections at random articles for 10 s (≥ 500 req/s, p99 ≤
 *    200 ms): what a visitor or a crawler walking the archive meets after
 *    a production start;
 * 2. without it: the first render of each public page (its code's first run), 100
 *    articles not kept one after another; the desk's lists as the owner
 *    (scripts/bench-scale-desk.ts: first page, a middle page, a search;
 *    ≤ 100 ms, ≤ 200 KB; the counts checked) and its CSV exports (first
 *    byte, peak RSS); then 20 connections at every cacheable public page
 *    and its `.data` (`/blog.data` alone too), at the desk's lists, and at
 *    random articles none kept before (each one's first visit is a render:
 *    the miss's cost, not a target): req/s, p99, every non-2xx
 *    by address, CPU a request, the process alive; then (up to 2,000
 *    articles) every article asked for once, 4 at a time, and the random
 *    walk again: what the render cache holds once it has seen the archive;
 *    the feed's size (≤ 500 KB).
 *
 * Peak RSS of the Node process is sampled every 50 ms throughout (target
 * ≤ 300 MB on PGlite, which runs inside it; ≤ 220 MB on PostgreSQL, whose
 * processes are not counted). The database is a fresh PGlite folder, or
 * with `--postgres` a throwaway PostgreSQL cluster (`startPostgres`). A
 * server that dies (heap exhaustion) is reported as such, with its last log
 * line, and the steps after it are skipped.
 *
 *   npm run bench:scale                    1,000 articles on PGlite
 *   npm run bench:scale -- 5000 --postgres 5,000 on PostgreSQL
 *   npm run bench:scale -- --desk          the fill, the first renders and
 *                                          the desk's lists only (no warm-up
 *                                          run, no exports, no loads)
 *   npm run bench:scale -- --warm-up-only  the fill and the warm-up run only
 *
 * With `--warm-up-only`, `BENCH_SCALE_DATA_DIR` names a PGlite folder kept
 * between runs: filled the first time, used as it is afterwards (the fill
 * takes minutes on a busy machine).
 *
 * Prints figures only (Markdown lines on stdout; ✗ marks a target missed);
 * asserts nothing. Builds first when `build/` is stale, unless `--no-build`
 * or `BUILD_DIR` is set.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { freshDataDir, residentMegabytes, spawnBenchSite, startPostgres, waitFor } from "../tests/support/harness";
import { deskExports, deskLists, deskPaths, ownerCookie } from "./bench-scale-desk";
import { fillDatabase, slugOf } from "./bench-scale-fill";
import {
  CONNECTIONS,
  alive,
  cpuMs,
  describe,
  hammer,
  lastLines,
  load,
  percentile,
  sampleRss,
  settle,
  state,
  timed,
} from "./bench-scale-probe";
import type { SpawnedSite, TestOwner } from "../tests/support/harness";
import type { Held } from "./bench-scale-fill";

const COUNT = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 1000);
const POSTGRES = process.argv.includes("--postgres");
/** Only what the desk's lists and the first renders need: a before/after of a list in a minute. */
const DESK_ONLY = process.argv.includes("--desk");
const WARM_UP_ONLY = process.argv.includes("--warm-up-only");
const SECONDS = 10;
/** Beyond this many articles, the walk is not repeated after asking for each one (memory's 16 MB do not hold them). */
const PRIMED_AT_MOST = 2000;
const RSS_BOUND_MB = POSTGRES ? 220 : 300;
/** How long the warm-up run waits for the warm-up's end (an old build took 11 minutes at 1,000 articles). */
const WARM_UP_LIMIT_MS = Number(process.env.BENCH_WARM_UP_LIMIT_SECONDS ?? 300) * 1000;

if (!process.argv.includes("--no-build") && !process.env.BUILD_DIR)
  execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: "inherit" });

const over = (value: number, bound: number) => (value > bound ? " ✗" : "");

/** The warm-up run (see the module's header, 1). */
async function warmUpRun(env: Record<string, string>): Promise<void> {
  const started = performance.now();
  const site = await spawnBenchSite({ ...env, RENDER_CACHE_WARM_UP: "1", LOG_LEVEL: "info" });
  const rss = sampleRss(site);
  try {
    let first = NaN;
    await waitFor(
      async () => {
        if (!alive(site)) throw new Error(`the server exited before answering: ${lastLines(site)}`);
        const ok = await fetch(`${site.url}/favicon.svg`).then(
          (answer) => answer.ok,
          () => false,
        );
        if (ok) first = performance.now() - started;
        return ok;
      },
      600_000,
      "the first answer",
    );
    console.log(`- start to first answer: ${Math.round(first)} ms`);
    const head = site.log.find((line) => line.includes("first pages kept before listening"));
    if (head) console.log(`- ${JSON.parse(head).msg}`);
    await firstAnswers(site, "first answer of each public page right after the first answer, the warm-up running");
    const waits: number[] = [];
    // The longest wait, and the server's CPU meanwhile: a long wait with little CPU is a machine that gave the server no core.
    let longest = { ms: 0, cpu: 0 };
    let ready: string | undefined;
    const giveUp = performance.now() + WARM_UP_LIMIT_MS;
    while (alive(site) && !(ready = site.log.find((line) => line.includes("pages ready")))) {
      if (performance.now() > giveUp) break;
      const cpuBefore = cpuMs(site.child.pid!);
      const { ms } = await timed(`${site.url}/favicon.svg`).catch(() => ({ ms: NaN }));
      waits.push(ms);
      if (ms > longest.ms) longest = { ms, cpu: cpuMs(site.child.pid!) - cpuBefore };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (!ready && alive(site)) {
      console.log(
        `- warm-up not done after ${WARM_UP_LIMIT_MS / 1000} s (${site.log.length} log lines; server CPU ${Math.round(cpuMs(site.child.pid!))} ms, load ${load()}): left running no longer ✗`,
      );
    } else if (!ready) {
      console.log(`- the server DIED during the warm-up (${lastLines(site)}) ✗`);
    } else {
      const kept = /(\d+) pages ready/.exec(ready)?.[1];
      console.log(
        `- start to warm-up done: ${Math.round(performance.now() - started)} ms (${kept} pages kept; server CPU ${Math.round(cpuMs(site.child.pid!))} ms, load ${load()})`,
      );
      const stopped = site.log.find((line) => line.includes("near its bound"));
      if (stopped) console.log(`- ${JSON.parse(stopped).msg}`);
    }
    console.log(
      `- longest wait of a static file during the warm-up: ${Math.round(longest.ms)} ms${over(longest.ms, 100)}, server CPU meanwhile ${longest.cpu} ms (p99 ${Math.round(percentile(waits, 99))} ms of ${waits.length} asked, ${waits.filter((ms) => !Number.isFinite(ms)).length} failed; load ${load()})`,
    );
    if (ready && alive(site)) {
      // What a visitor or a crawler walking the archive meets once a production start has warmed up:
      // the articles the warm-up kept are answered from the cache, the others rendered (the load run
      // below measures the same walk on a process that kept none).
      await settle(site);
      const figures = await randomArticles(site);
      console.log(
        `- ${CONNECTIONS} connections at random articles after the warm-up (target ≥ 500 req/s, p99 ≤ 200 ms): ${describe(figures)}${over(500, figures.perSecond)}${over(figures.p99, 200)}; RSS after ${Math.round(residentMegabytes(site.child.pid!))} MB; ${state(site)}`,
      );
    }
  } finally {
    rss.stop();
    console.log(`- peak RSS (warm-up run): ${Math.round(rss.peak)} MB${over(rss.peak, RSS_BOUND_MB)}`);
    await site.stop();
  }
}

/** 20 connections for `SECONDS` at articles picked at random among all `COUNT` (the issue's random walk). */
const randomArticles = (site: SpawnedSite) =>
  hammer(site, { pick: () => `/blog/${slugOf(1 + Math.floor(Math.random() * COUNT))}`, seconds: SECONDS });

/** A page's data request (React Router's `.data`; the home page's is `/_root.data`). */
const dataOf = (path: string) => (path === "/" ? "/_root.data" : `${path}.data`);

/**
 * Every cacheable public page of `site` to load: what its sitemap lists
 * but the articles and the blog's pages (the newest and oldest articles,
 * the blog's second, middle and last pages stand for them), the pages it
 * leaves out, and each HTML page's `.data`.
 */
async function publicPaths(site: SpawnedSite): Promise<string[]> {
  const sitemap = (await timed(`${site.url}/sitemap.xml`)).body;
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  const last = Math.ceil(COUNT / 12);
  const pages = [
    ...listed.filter((path) => !path.startsWith("/blog/")),
    ...["/blog/page/2", `/blog/page/${Math.ceil(last / 2)}`, `/blog/page/${last}`],
    ...[`/blog/${slugOf(COUNT)}`, `/blog/${slugOf(1)}`],
    ...["/mentions-legales", "/confidentialite", "/coordonnees"],
  ];
  const unique = [...new Set(pages)];
  return [...unique, ...unique.map(dataOf), "/blog/rss.xml", "/sitemap.xml", "/robots.txt"];
}

/**
 * The first answer of each public page, one after another, under `heading`: on the warm-up run (1),
 * what the first visitors after a start meet (a page the warm-up's head or its rest kept, or a render
 * on a process whose code the head warmed; decision 075); on the run without it (2), each page's
 * render on a process that never ran that code.
 */
async function firstAnswers(site: SpawnedSite, heading: string, { target = true } = {}): Promise<void> {
  const pages = [
    "/",
    "/cours",
    "/cours/securite",
    "/blog",
    `/blog/page/${Math.ceil(COUNT / 12)}`,
    `/blog/${slugOf(COUNT)}`,
    `/blog/${slugOf(1)}`,
    "/blog/rss.xml",
    "/sitemap.xml",
    "/contact",
    "/newsletter",
    "/page-qui-n-existe-pas",
  ];
  console.log(`- ${heading} (load ${load()}; server CPU in ticks of 10 ms${target ? "; target ≤ 50 ms" : ""}):`);
  for (const page of pages) {
    if (!alive(site)) return;
    const cpu = cpuMs(site.child.pid!);
    const { ms, status, bytes } = await timed(`${site.url}${page}`).catch(() => ({ ms: NaN, status: 0, bytes: 0 }));
    console.log(
      `  - ${page}: ${Math.round(ms)} ms, CPU ${cpuMs(site.child.pid!) - cpu} ms (${status}, ${Math.round(bytes / 1024)} KB)${target ? over(ms, 50) : ""}`,
    );
  }
}

/** The first render of each public page on a process started without the warm-up, and of 100 articles not kept (see the module's header, 2). */
async function firstRenders(site: SpawnedSite): Promise<void> {
  await firstAnswers(
    site,
    "first render of each public page, a process started without the warm-up (its code not yet run)",
    {
      target: false,
    },
  );
  // A miss's cost, less noisy than one wall time: 100 articles not kept yet, one after another.
  const cpu = cpuMs(site.child.pid!);
  const started = performance.now();
  for (let n = 2; n <= 101 && alive(site); n++) await timed(`${site.url}/blog/${slugOf(n)}`);
  console.log(
    `- 100 articles not kept, one after another: ${Math.round((performance.now() - started) / 100)} ms each, server CPU ${Math.round((cpuMs(site.child.pid!) - cpu) / 100)} ms each`,
  );
}

/** The run without warm-up (see the module's header, 2). */
async function loadRun(env: Record<string, string>, { owner, held }: { owner: TestOwner; held: Held }): Promise<void> {
  const site = await spawnBenchSite({ ...env, LOG_LEVEL: "warn" });
  const rss = sampleRss(site);
  try {
    await site.ready(600_000);
    await firstRenders(site);
    const cookie = await ownerCookie(site, owner);
    if (alive(site)) await deskLists(site, cookie, held);
    if (DESK_ONLY) return;
    if (alive(site)) await deskExports(site, cookie, held, rss);
    rss.reset();
    const loads: [string, () => Promise<Parameters<typeof describe>[0]>][] = [
      ["/blog.data", () => hammer(site, { paths: ["/blog.data"], seconds: SECONDS })],
      [
        "every cacheable public page and its .data",
        async () => hammer(site, { paths: await publicPaths(site), seconds: 20 }),
      ],
      [
        "the desk's lists as the owner",
        () => hammer(site, { paths: deskPaths(held), seconds: SECONDS, headers: { cookie } }),
      ],
      ["random articles, none kept before", () => randomArticles(site)],
    ];
    const report = async (what: string, run: () => Promise<Parameters<typeof describe>[0]>) => {
      await settle(site);
      const figures = await run();
      console.log(
        `- ${CONNECTIONS} connections at ${what}: ${describe(figures)}; RSS after ${Math.round(residentMegabytes(site.child.pid!))} MB; ${state(site)}`,
      );
    };
    for (const [what, run] of loads) {
      if (!alive(site)) break;
      await report(what, run);
    }
    if (alive(site) && COUNT <= PRIMED_AT_MOST) {
      // Every article asked for once (the cache should hold them all), then the same walk again.
      const cpu = cpuMs(site.child.pid!);
      const started = performance.now();
      let next = 1;
      const asker = async () => {
        while (next <= COUNT && alive(site)) await timed(`${site.url}/blog/${slugOf(next++)}`).catch(() => undefined);
      };
      await Promise.all(Array.from({ length: 4 }, asker));
      console.log(
        `- every article asked for once (4 at a time): ${Math.round((performance.now() - started) / 1000)} s, server CPU ${Math.round((cpuMs(site.child.pid!) - cpu) / COUNT)} ms each; RSS after ${Math.round(residentMegabytes(site.child.pid!))} MB`,
      );
      const [, run] = loads.at(-1)!;
      if (alive(site)) await report("random articles, each asked for once before", run);
    }
    if (alive(site)) {
      const feed = await timed(`${site.url}/blog/rss.xml`);
      console.log(`- feed: ${Math.round(feed.bytes / 1024)} KB${over(feed.bytes, 500 * 1024)}`);
    } else {
      console.log(`- the server DIED (${lastLines(site)}) ✗`);
    }
  } finally {
    rss.stop();
    console.log(`- peak RSS (load run, from the loads on): ${Math.round(rss.peak)} MB${over(rss.peak, RSS_BOUND_MB)}`);
    await site.stop();
  }
}

const postgres = POSTGRES ? await startPostgres() : undefined;
const keptDir = WARM_UP_ONLY && !postgres ? process.env.BENCH_SCALE_DATA_DIR : undefined;
const dataDir = postgres ? undefined : (keptDir ?? freshDataDir());
const env: Record<string, string> = postgres ? { DATABASE_URL: postgres.url } : { DATA_DIR: dataDir! };
try {
  const filling = performance.now();
  const reused = keptDir !== undefined && fs.existsSync(keptDir) && fs.readdirSync(keptDir).length > 0;
  const filled = reused ? undefined : await fillDatabase(env, COUNT);
  console.log(
    `## ${COUNT} articles on ${postgres ? "PostgreSQL" : "PGlite"} (build: ${process.env.BUILD_DIR ?? "build"}; ${reused ? `the folder of an earlier run` : `filled in ${Math.round((performance.now() - filling) / 1000)} s`}; RSS target ≤ ${RSS_BOUND_MB} MB)`,
  );
  if (!DESK_ONLY) await warmUpRun(env);
  if (!WARM_UP_ONLY && filled) await loadRun(env, filled);
} finally {
  postgres?.destroy();
  if (dataDir && !keptDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
