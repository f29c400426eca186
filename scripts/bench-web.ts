/**
 * `npm run bench:web`: what the browser downloads and what Lighthouse says
 * of `/`, `/blog`, the featured article (else the newest) and `/contact`,
 * against a bare static page served by the same server in the same run.
 *
 *   npm run bench:web                   build, then one run of each page
 *   npm run bench:web -- --runs 3       median of 3 runs of every figure
 *   npm run bench:web -- --no-build     use the existing build/
 *
 * Steps: builds the site (`react-router build`), writes the bare page
 * (`build/client/__bench/bare.html`, a public file the server sends as it is:
 * French, a `<h1>` and a paragraph, no CSS, JS, pictures or fonts), starts
 * the production server (the compiled `build/start/index.js`) on a free port
 * with a throwaway PGlite folder under the OS temp dir, then runs Lighthouse
 * (Node API, default simulated throttling) on every page, one after the
 * other, in the mobile (default config) and desktop (`desktop-config.js`)
 * form factors, each in a fresh Debian Chromium (cold cache) that is killed
 * afterwards.
 *
 * Figures, all from Lighthouse's result:
 * - bytes: the `network-requests` audit, `transferSize` (bytes on the wire,
 *   compressed, headers included) summed by `resourceType`; it lists every
 *   request made until the network is quiet after load, so pictures and
 *   scripts the page loads by itself count, but not what a click would load;
 * - scores: the four categories, 0–100;
 * - LCP and TBT (ms) and CLS (unitless): the simulated metrics' numericValue;
 * - LCP / bare: the page's LCP divided by the bare page's, same form factor.
 *
 * Prints Markdown to stdout and writes it to `reports/bench-web.md`
 * (git-ignored). Progress goes to stderr. Takes 10 to 20 s a Lighthouse run
 * (10 runs a round of the pages) plus the build: about 3 minutes, 7 with
 * `--runs 3`. Exits 1 on any failure (build, server, Chromium missing, a page
 * not answering 200, a Lighthouse error three times in a row), after removing
 * the bare page and stopping Chromium and the server; a missed target is
 * reported, not a failure.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig } from "lighthouse";
import { loadArticles } from "../app/blog/articles.server";
import { featuredArticle } from "../app/blog/select";
import { spawnBenchSite, type SpawnedSite } from "../tests/support/harness";
import { SERVER_ENTRY } from "../tooling/build-server";
import { VISITOR_CHROMIUM } from "./chromium";
import { publishReport } from "./bench-report";
import type { Category, FailingAudit, FormFactor, Kind, Sample } from "./bench-web-results";
import { CATEGORIES, FORM_FACTORS, KINDS, describeFailing, kb, median, summarize } from "./bench-web-results";
const started = performance.now();

// ---------------------------------------------------------------- options

function parseRuns(argv: string[]): number {
  const index = argv.findIndex((arg) => arg === "--runs" || arg.startsWith("--runs="));
  if (index === -1) return 1;
  const value = argv[index]!.includes("=") ? argv[index]!.split("=")[1] : argv[index + 1];
  const runs = Number(value);
  if (!Number.isInteger(runs) || runs < 1 || runs > 20) {
    console.error(`--runs must be a whole number from 1 to 20 (got "${value ?? ""}")`);
    process.exit(1);
  }
  return runs;
}

const RUNS = parseRuns(process.argv.slice(2));
const BUILD = !process.argv.includes("--no-build");
const CHROMIUM = VISITOR_CHROMIUM.executablePath;
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");
const BARE_DIR = path.join(BUILD_DIR, "client", "__bench");
/** A file of build/client: express.static serves it by its name (no index.html lookup). */
const BARE_PATH = "/__bench/bare.html";
const REPORT = path.join("reports", "bench-web.md");
/** Target for mobile: LCP at most this many times the bare page's. */
const LCP_TARGET_RATIO = 1.1;

/**
 * A bare French page: what the browser needs at the least to show a heading
 * and a paragraph. The empty `data:` icon keeps Chromium from asking for
 * /favicon.ico (a 404 and a console error that would cost it best practices).
 */
const BARE_HTML = `<!doctype html>
<html lang="fr">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Page de référence</title>
    <meta name="description" content="Page de référence sans style ni script, pour comparer les mesures.">
    <link rel="icon" href="data:,">
  </head>
  <body>
    <h1>Apprendre l’informatique à son rythme</h1>
    <p>Des cours patients et bienveillants pour les seniors : ordinateur, tablette, smartphone et
    internet, chez vous ou en petit groupe. Nous avançons pas à pas, avec des explications simples
    et des exercices adaptés à vos besoins.</p>
  </body>
</html>
`;

// ---------------------------------------------------------------- clean-up

let server: SpawnedSite | undefined;
/** Everything the server wrote (`server.log`, kept after it stops), printed when the benchmark fails. */
let serverLog: string[] = [];
/** Prints the server's errors as they come (see `startSite`). */
let logWatch: NodeJS.Timeout | undefined;
let dataDir: string | undefined;
/** The profile of the Chromium running, a fresh folder each launch (cold cache). */
let profileDir: string | undefined;

/** Kills every Chromium this process launched (also one still starting) and removes its profile. */
function killChromium(): void {
  chromeLauncher.killAll();
  if (profileDir) fs.rmSync(profileDir, { recursive: true, force: true, maxRetries: 5 });
  profileDir = undefined;
}

let cleaning: Promise<void> | undefined;

/**
 * Kills Chromium, stops the server (which closes PGlite), removes the bare
 * page and the data folder. Once: a signal and the failure it causes share it.
 */
function cleanUp(): Promise<void> {
  cleaning ??= stopEverything();
  return cleaning;
}

async function stopEverything(): Promise<void> {
  killChromium();
  fs.rmSync(BARE_DIR, { recursive: true, force: true });
  clearInterval(logWatch);
  if (server) {
    const { child } = server;
    const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await server.stop();
    clearTimeout(force);
  }
  server = undefined;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal} received: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------- steps

/** Makes sure the desktop Chromium is there (installs it when root, via scripts/ensure-chromium.sh). */
function ensureChromium(): void {
  const result = spawnSync("bash", ["scripts/ensure-chromium.sh", "desktop"], { stdio: "inherit" });
  if (result.status !== 0 || !fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with "apt-get install -y chromium".`);
  }
}

/** `react-router build`, quiet unless it fails. @returns its duration in seconds. */
function build(): number {
  const begin = performance.now();
  const result = spawnSync("npx", ["react-router", "build"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error("The build failed (output above).");
  }
  return (performance.now() - begin) / 1000;
}

/** The article to measure: the featured one, else the newest. */
function articleSlug(): string {
  const articles = loadArticles();
  const article = featuredArticle(articles) ?? articles[0];
  if (!article) throw new Error("No article in app/content/blog: nothing to measure at /blog/{slug}.");
  return article.slug;
}

/**
 * Starts the compiled server in production on a free port (`spawnSite`, with
 * the throwaway PGlite folder `dataDir` and the default outbox poll).
 * @returns its base URL once `/healthz` answers. @throws when it exits first
 * or is not up within 2 minutes (a busy machine can take 30 s and more:
 * PGlite and its migrations).
 */
async function startSite(): Promise<string> {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-web-data-"));
  const site = await spawnBenchSite({ DATA_DIR: dataDir, LOG_LEVEL: "warn", OUTBOX_POLL_SECONDS: "5" });
  server = site;
  serverLog = site.log;
  // Its warnings are the expected 404s (robots.txt, favicon.ico); show errors (pino level ≥ 50) at once.
  let shown = 0;
  logWatch = setInterval(() => {
    for (const line of site.log.slice(shown)) {
      const level = /^\{"level":(\d+)/.exec(line)?.[1];
      if (!level || Number(level) >= 50) console.error(`  server: ${line}`);
    }
    shown = site.log.length;
  }, 100);
  await site.ready();
  return site.url;
}

/** One Lighthouse run in a fresh Chromium (a new profile: cold cache), killed afterwards. */
async function audit(url: string, formFactor: FormFactor): Promise<Sample> {
  profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-web-chromium-"));
  try {
    const chrome = await chromeLauncher
      .launch({
        chromePath: CHROMIUM,
        chromeFlags: VISITOR_CHROMIUM.args,
        userDataDir: profileDir,
        handleSIGINT: false,
        logLevel: "silent",
      })
      .catch((error: unknown) => {
        throw new Error(`Chromium (${CHROMIUM}) did not start: ${error instanceof Error ? error.message : error}`);
      });
    const result = await lighthouse(
      url,
      { port: chrome.port, output: "json", logLevel: "error" },
      formFactor === "desktop" ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`Lighthouse returned no result for ${url} (${formFactor}).`);
    return summarize(result.lhr, url, formFactor);
  } finally {
    killChromium();
  }
}

/**
 * `audit`, tried up to 3 times: on a busy machine Lighthouse now and then
 * fails to record the trace (NO_NAVSTART, NO_FCP). @throws the third error.
 */
async function auditWithRetries(url: string, formFactor: FormFactor): Promise<Sample> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(url, formFactor);
    } catch (error) {
      if (attempt === 3 || cleaning) throw error;
      console.error(`  ${error instanceof Error ? error.message : String(error)}: trying again`);
    }
  }
}

// ---------------------------------------------------------------- figures

/**
 * Every figure of `samples` as its median across runs; a failing audit once,
 * with the number of runs it failed in and its median score then.
 */
function medianSample(samples: Sample[]): Sample {
  const of = (pick: (sample: Sample) => number) => median(samples.map(pick));
  const failures = new Map<string, FailingAudit[]>();
  for (const audit of samples.flatMap((sample) => sample.failing)) {
    const key = `${audit.category} ${audit.id}`;
    failures.set(key, [...(failures.get(key) ?? []), audit]);
  }
  return {
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, Math.round(of((s) => s.scores[id]))])) as Record<
      Category,
      number
    >,
    lcp: of((s) => s.lcp),
    cls: of((s) => s.cls),
    tbt: of((s) => s.tbt),
    bytes: Object.fromEntries([...KINDS, "total" as const].map((kind) => [kind, of((s) => s.bytes[kind])])) as Record<
      Kind | "total",
      number
    >,
    requests: of((s) => s.requests),
    failing: [...failures.values()].map((runs) => ({
      ...runs[0]!,
      score: Number(median(runs.map((audit) => audit.score)).toFixed(2)),
      runs: runs.length,
    })),
    benchmarkIndex: of((s) => s.benchmarkIndex),
    lcpNotes: samples[0]!.lcpNotes,
    lighthouse: samples[0]!.lighthouse,
  };
}

/** "156.0.8078.79", from `chromium --version` (the user agent hides the minor numbers). */
function chromiumVersion(): string {
  const output = spawnSync(CHROMIUM, ["--version"], { encoding: "utf8" }).stdout ?? "";
  return /\d+(\.\d+)+/.exec(output)?.[0] ?? "unknown";
}

function gitCommit(): string {
  const run = (args: string[]) => spawnSync("git", args, { encoding: "utf8" }).stdout.trim();
  const commit = run(["rev-parse", "--short", "HEAD"]) || "unknown";
  const branch = run(["rev-parse", "--abbrev-ref", "HEAD"]);
  const dirty = run(["status", "--porcelain", "--untracked-files=no"]) ? ", with uncommitted changes" : "";
  return `${commit}${branch ? ` (${branch}${dirty})` : dirty}`;
}

// ---------------------------------------------------------------- main

try {
  ensureChromium();
  if (BUILD) console.error(`build: ${build().toFixed(1)} s`);
  if (!fs.existsSync(path.join(BUILD_DIR, SERVER_ENTRY)))
    throw new Error(`No build in ${BUILD_DIR} (no ${SERVER_ENTRY}): run without --no-build.`);
  fs.mkdirSync(BARE_DIR, { recursive: true });
  fs.writeFileSync(path.join(BARE_DIR, "bare.html"), BARE_HTML);

  const slug = articleSlug();
  const pages = [
    { label: "bare page", path: BARE_PATH },
    { label: "/", path: "/" },
    { label: "/blog", path: "/blog" },
    { label: `/blog/${slug}`, path: `/blog/${slug}` },
    { label: "/contact", path: "/contact" },
  ];

  const base = await startSite();
  for (const page of pages) {
    const response = await fetch(base + page.path);
    if (response.status !== 200) throw new Error(`${page.path} answered ${response.status}, not 200.`);
  }

  const samples = new Map<string, Sample[]>();
  for (let run = 1; run <= RUNS; run++) {
    for (const formFactor of FORM_FACTORS) {
      for (const page of pages) {
        const sample = await auditWithRetries(base + page.path, formFactor);
        const key = `${page.path} ${formFactor}`;
        samples.set(key, [...(samples.get(key) ?? []), sample]);
        const scores = CATEGORIES.map((id) => sample.scores[id]).join("/");
        console.error(
          `run ${run}/${RUNS} ${formFactor.padEnd(7)} ${page.label.padEnd(36)} ${scores.padEnd(15)} LCP ${Math.round(sample.lcp)} ms, ${kb(sample.bytes.total)} KB`,
        );
      }
    }
  }
  await cleanUp();

  const result = (pagePath: string, formFactor: FormFactor) => medianSample(samples.get(`${pagePath} ${formFactor}`)!);
  const first = result(BARE_PATH, "mobile");
  const indexes = [...samples.values()].flat().map((sample) => sample.benchmarkIndex);
  const benchmarks = [...new Set([Math.min(...indexes), Math.max(...indexes)].map(Math.round))];

  const lines: string[] = [
    "# Web benchmark: bytes on the wire and Lighthouse",
    "",
    `- date: ${new Date().toISOString()}`,
    `- commit: ${gitCommit()}`,
    `- Node ${process.version}, Chromium ${chromiumVersion()}, Lighthouse ${first.lighthouse} (default simulated throttling)`,
    `- Lighthouse benchmark index of this machine: ${benchmarks.join("–")} (CPU speed; lower means slower, and noisier CPU-bound figures)`,
    `- runs: ${RUNS}${RUNS > 1 ? " (median of each figure)" : ""}; each in a fresh Chromium (cold cache)`,
    `- bare page: \`${BARE_PATH}\`, a static French page (a heading, a paragraph; no CSS, JS, pictures or fonts) served by the same server`,
    `- target: Lighthouse mobile 100 in all four categories, LCP ≤ ${LCP_TARGET_RATIO.toFixed(2)}× the bare page's`,
    "",
    "## Bytes transferred (compressed, as on the wire; KB = 1024 bytes)",
    "",
    "| page | form factor | JS | CSS | HTML | images | fonts | other | total | requests |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const page of pages)
    for (const formFactor of FORM_FACTORS) {
      const { bytes, requests } = result(page.path, formFactor);
      lines.push(
        `| ${page.label} | ${formFactor} | ${KINDS.map((kind) => kb(bytes[kind])).join(" | ")} | ${kb(bytes.total)} | ${requests} |`,
      );
    }
  lines.push(
    "",
    "## Lighthouse",
    "",
    "| page | form factor | performance | accessibility | best practices | SEO | LCP (ms) | LCP / bare | CLS | TBT (ms) | target |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
  );
  const failing: string[] = [];
  const lcp: string[] = [];
  for (const page of pages)
    for (const formFactor of FORM_FACTORS) {
      const sample = result(page.path, formFactor);
      const ratio = sample.lcp / result(BARE_PATH, formFactor).lcp;
      let target = "";
      if (formFactor === "mobile") {
        const missed = CATEGORIES.filter((id) => sample.scores[id] < 100).map((id) => `${id} ${sample.scores[id]}`);
        if (ratio > LCP_TARGET_RATIO) missed.push(`LCP ${ratio.toFixed(2)}×`);
        target = missed.length ? `missed: ${missed.join(", ")}` : "met";
        if (sample.failing.length)
          failing.push(`- ${page.label}`, ...sample.failing.map((audit) => describeFailing(audit, RUNS)));
        lcp.push(`- ${page.label}`, ...sample.lcpNotes.map((note) => `  - ${note}`));
      }
      lines.push(
        `| ${page.label} | ${formFactor} | ${CATEGORIES.map((id) => sample.scores[id]).join(" | ")} | ${Math.round(sample.lcp)} | ${ratio.toFixed(2)} | ${sample.cls.toFixed(3)} | ${Math.round(sample.tbt)} | ${target} |`,
      );
    }
  lines.push("", "## Audits that keep a mobile score under 100", "", ...(failing.length ? failing : ["None."]));
  lines.push("", `## Where mobile LCP goes${RUNS > 1 ? " (first run)" : ""}`, "", ...lcp);
  lines.push("", `Took ${((performance.now() - started) / 1000).toFixed(0)} s.`, "");

  const markdown = lines.join("\n");
  publishReport(REPORT, markdown);
  process.exit(0);
} catch (error) {
  if (serverLog.length) console.error(`The server's log:\n${serverLog.join("\n")}`);
  console.error(`bench:web failed: ${error instanceof Error ? error.message : String(error)}`);
  await cleanUp();
  process.exit(1);
}
