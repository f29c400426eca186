/**
 * `npm run bench:upload`: the memory of the site's server process while the
 * owner uploads phone photos (issue 33, item 5), and how long a static file
 * waits meanwhile.
 *
 * Makes two orientation-6 JPEGs with sharp (a 12 MP one, 4000 × 3000, and a
 * 48 MP one, 8000 × 6000, with a photo-like texture, under the 15 MB
 * limit), a crafted progressive JPEG of 4000 × 3000 in 883 scans (refused
 * before decoding) and one of 8000 × 6000 in 100 scans, the most accepted
 * (tests/support/crafted-jpeg.ts). For each database (the embedded PGlite,
 * then a throwaway PostgreSQL from `startPostgres` when installed), starts
 * the compiled server as its own process (`spawnSite`, production flags),
 * signs an owner in, and posts to `/admin/images`, in turn: the 12 MP photo
 * alone, the 48 MP alone, four 12 MP at once, four 48 MP at once, four
 * crafted files of each kind at once. During each step, the RSS of the
 * server process (VmRSS) and of its children (the processes that make the
 * pictures, app/pictures/child.server.ts: their VmRSS and their own peak,
 * VmHWM) is sampled every 20 ms and `/favicon.svg` is fetched again and
 * again; the table gives the step's peak RSS of the server, the highest
 * peak of a child, the peak of their sum (server and children in the same
 * sample), its wall time, and the slowest and median answer of the static
 * file. PGlite runs inside the server; PostgreSQL's processes are not
 * counted. The
 * server runs with `MALLOC_ARENA_MAX=2`, as the guide deploys it
 * (`MALLOC_ARENA_MAX= npm run bench:upload` measures glibc's default).
 *
 *   npm run bench:upload                  builds first when build/ is stale
 *   npm run bench:upload -- --no-build    uses build/ (or BUILD_DIR) as it is
 *
 * Prints a Markdown table and writes it to `reports/bench-upload.md`
 * (git-ignored); progress goes to stderr. Exits 1 when a step fails (a
 * photo not accepted, a server that does not start), after stopping what it
 * started.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { craftedProgressiveJpeg } from "../tests/support/crafted-jpeg";
import {
  createOwner,
  postgresBinaries,
  residentMegabytes,
  signIn,
  spawnBenchSite,
  startPostgres,
  type CookieJar,
  type SpawnedSite,
} from "../tests/support/harness";
import { pictureChildren } from "../tests/support/processes";
import { publishReport } from "./bench-report";

const SAMPLE_MS = 20;
const REPORT = path.join("reports", "bench-upload.md");
const BUILD = !process.argv.includes("--no-build");
const STATIC_FILE = "/favicon.svg";
/** glibc's malloc arenas of the server, as the guide's systemd unit and `npm start` set them (`MALLOC_ARENA_MAX=` in the environment: glibc's default). */
const ARENAS = process.env.MALLOC_ARENA_MAX ?? "2";

/** A photo-like JPEG of `width` × `height` taken with the phone turned (EXIF orientation 6). */
async function phonePhoto(width: number, height: number): Promise<Buffer> {
  // Noise blown up: smooth shapes and gradients that JPEG compresses as it does a photo's.
  const small = await sharp({
    create: {
      width: Math.round(width / 16),
      height: Math.round(height / 16),
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 60 },
    },
  })
    .png()
    .toBuffer();
  return sharp(small)
    .resize(width, height, { kernel: "cubic" })
    .jpeg({ quality: 92 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

interface Step {
  name: string;
  files: Buffer[];
  /** The status every upload must answer (any, when unset: the crafted files, refused or not). */
  status?: number;
}

interface Row {
  database: string;
  step: string;
  /** RSS when the step starts, in MB. */
  before: number;
  peak: number;
  /** The highest peak RSS (VmHWM) of a child process making pictures, in MB (0: none seen). */
  childPeak: number;
  /** The highest sum of the server's RSS and its children's in one sample, in MB. */
  sumPeak: number;
  seconds: number;
  staticMax: number;
  staticMedian: number;
  statuses: string;
}

/** Field `name` of `/proc/{pid}/status` in MB (0 when the process is gone). */
function statusMegabytes(pid: number, name: "VmRSS" | "VmHWM"): number {
  try {
    const kb = new RegExp(`${name}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Posts `file` to `/admin/images` as the desk's form does; resolves with the status. */
async function upload(site: SpawnedSite, jar: CookieJar, file: Buffer, index: number): Promise<number> {
  const body = new FormData();
  body.append("alt", `Photo d’essai ${index}`);
  body.append("slot", "");
  body.append("picture", new Blob([new Uint8Array(file)], { type: "image/jpeg" }), "photo.jpg");
  try {
    const answer = await fetch(`${site.url}/admin/images`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: site.url, Cookie: jar.header() },
      body,
    });
    await answer.arrayBuffer();
    return answer.status;
  } catch (error) {
    console.error(`upload ${index}: ${failure(error)}`);
    return 0;
  }
}

/** What a failed fetch says, with its cause (undici hides it). */
const failure = (error: unknown) =>
  error instanceof Error
    ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ""}`
    : String(error);

/** Runs `steps` on a site started with `env`; returns a row per step. */
async function measure(
  database: string,
  env: Record<string, string>,
  owner: Awaited<ReturnType<typeof createOwner>>,
  steps: Step[],
) {
  const site = await spawnBenchSite({ MALLOC_ARENA_MAX: ARENAS, ...env });
  const rows: Row[] = [];
  try {
    await site.ready();
    const jar = await signIn(site.url, owner);
    for (const step of steps) {
      const before = residentMegabytes(site.child.pid!);
      let peak = before;
      let childPeak = 0;
      let sumPeak = before;
      const sampler = setInterval(() => {
        const rss = residentMegabytes(site.child.pid!);
        if (rss > peak) peak = rss;
        let children = 0;
        for (const child of pictureChildren(site.child.pid!)) {
          children += statusMegabytes(child, "VmRSS");
          childPeak = Math.max(childPeak, statusMegabytes(child, "VmHWM"));
        }
        sumPeak = Math.max(sumPeak, rss + children);
      }, SAMPLE_MS);
      const latencies: number[] = [];
      let uploading = true;
      const prober = (async () => {
        while (uploading) {
          const started = performance.now();
          try {
            const answer = await fetch(site.url + STATIC_FILE);
            await answer.arrayBuffer();
          } catch (error) {
            console.error(`${STATIC_FILE}: ${failure(error)}`);
          }
          latencies.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const started = performance.now();
      const statuses = await Promise.all(step.files.map((file, index) => upload(site, jar, file, index)));
      const seconds = (performance.now() - started) / 1000;
      uploading = false;
      await prober;
      await new Promise((resolve) => setTimeout(resolve, 300));
      clearInterval(sampler);
      if (step.status && statuses.some((status) => status !== step.status))
        throw new Error(
          `${step.name}: answered ${statuses.join(", ")}, not ${step.status}.\n${site.log.slice(-20).join("\n")}`,
        );
      latencies.sort((a, b) => a - b);
      const row = {
        database,
        step: step.name,
        before,
        peak,
        childPeak,
        sumPeak,
        seconds,
        staticMax: latencies.at(-1) ?? NaN,
        staticMedian: latencies[Math.floor(latencies.length / 2)] ?? NaN,
        statuses: [...new Set(statuses)].join(", "),
      };
      console.error(
        `${database}, ${step.name}: peak ${peak.toFixed(0)} MB, child ${childPeak.toFixed(0)} MB, sum ${sumPeak.toFixed(0)} MB, ${seconds.toFixed(1)} s, static file ≤ ${row.staticMax.toFixed(0)} ms`,
      );
      rows.push(row);
    }
    return rows;
  } catch (error) {
    console.error(site.log.slice(-30).join("\n"));
    throw error;
  } finally {
    const force = setTimeout(() => site.child.kill("SIGKILL"), 15_000);
    await site.stop();
    clearTimeout(force);
  }
}

function gitCommit(): string {
  const run = (args: string[]) => spawnSync("git", args, { encoding: "utf8" }).stdout.trim();
  const commit = run(["rev-parse", "--short", "HEAD"]) || "unknown";
  const dirty = run(["status", "--porcelain", "--untracked-files=no"]) ? ", with uncommitted changes" : "";
  return `${commit}${dirty}`;
}

const cleanups: (() => void | Promise<void>)[] = [];
try {
  if (BUILD) execFileSync("npx", ["tsx", "scripts/ensure-build.ts"], { stdio: ["ignore", process.stderr, "inherit"] });
  const twelve = await phonePhoto(4000, 3000);
  const fortyEight = await phonePhoto(8000, 6000);
  const crafted = craftedProgressiveJpeg(4000, 3000);
  const craftedLarge = craftedProgressiveJpeg(8000, 6000, 100);
  console.error(
    `photos: 12 MP ${(twelve.length / 1e6).toFixed(1)} MB, 48 MP ${(fortyEight.length / 1e6).toFixed(1)} MB, crafted ${(crafted.length / 1e3).toFixed(0)} KB`,
  );
  const steps: Step[] = [
    { name: "12 MP alone", files: [twelve], status: 303 },
    { name: "48 MP alone", files: [fortyEight], status: 303 },
    { name: "4 × 12 MP at once", files: [twelve, twelve, twelve, twelve], status: 303 },
    { name: "4 × 48 MP at once", files: [fortyEight, fortyEight, fortyEight, fortyEight], status: 303 },
    { name: "4 crafted progressive JPEGs at once", files: [crafted, crafted, crafted, crafted] },
    {
      name: "4 crafted 48 MP JPEGs of 100 scans at once",
      files: [craftedLarge, craftedLarge, craftedLarge, craftedLarge],
    },
  ];
  const rows: Row[] = [];

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-upload-data-"));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const owner = await createOwner(dataDir);
  rows.push(...(await measure("PGlite (embedded)", { DATA_DIR: dataDir }, owner, steps)));

  if (postgresBinaries()) {
    const postgres = await startPostgres();
    cleanups.push(() => postgres.destroy());
    rows.push(...(await measure("PostgreSQL", { DATABASE_URL: postgres.url }, await createOwner(postgres.url), steps)));
  } else {
    console.error("PostgreSQL skipped: not installed (apt-get install -y postgresql)");
  }

  const markdown = [
    "# Memory of the server process while photos are uploaded (RSS)",
    "",
    `- date: ${new Date().toISOString()}`,
    `- commit: ${gitCommit()}`,
    `- Node ${process.version}, ${os.cpus().length} CPUs, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GB of memory`,
    `- photos: 12 MP (4000 × 3000, ${(twelve.length / 1e6).toFixed(1)} MB) and 48 MP (8000 × 6000, ${(fortyEight.length / 1e6).toFixed(1)} MB), EXIF orientation 6; crafted: 4000 × 3000 progressive, 883 scans, ${(crafted.length / 1e3).toFixed(0)} KB; 8000 × 6000 in 100 scans, ${(craftedLarge.length / 1e3).toFixed(0)} KB`,
    `- MALLOC_ARENA_MAX=${ARENAS || "(glibc's default)"}`,
    `- RSS of the server process and of its children (a child's own peak: VmHWM), sampled every ${SAMPLE_MS} ms during the step; ${STATIC_FILE} fetched every 50 ms meanwhile`,
    "",
    "| database | step | server RSS before | server peak | child peak | sum peak | wall time | static file, slowest | static file, median | answers |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (row) =>
        `| ${row.database} | ${row.step} | ${row.before.toFixed(0)} MB | ${row.peak.toFixed(0)} MB | ${row.childPeak.toFixed(0)} MB | ${row.sumPeak.toFixed(0)} MB | ${row.seconds.toFixed(1)} s | ${row.staticMax.toFixed(0)} ms | ${row.staticMedian.toFixed(0)} ms | ${row.statuses} |`,
    ),
    "",
  ].join("\n");
  publishReport(REPORT, markdown);
  while (cleanups.length) await cleanups.pop()!();
  process.exit(0);
} catch (error) {
  console.error(`bench:upload failed: ${error instanceof Error ? error.message : String(error)}`);
  while (cleanups.length) await Promise.resolve(cleanups.pop()!()).catch(() => {});
  process.exit(1);
}
