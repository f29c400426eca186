/**
 * A Playwright reporter that measures what each browser test costs in CPU,
 * split by process: the test's worker, the Chromium it drives, and the
 * sites the worker started (`spawnSite`; with anything else the worker
 * reaped). Linux only: it reads `/proc` when a test begins and ends.
 *
 *   npx playwright test --reporter=list,./tests/support/cpu-reporter.ts
 *
 * Writes one row per test run (spec file, project, title, wall seconds,
 * CPU seconds of the worker, Chromium and the sites) as JSON to
 * `PW_CPU_REPORT` (default `test-results/cpu.json`) and prints the table by
 * spec file and project, sorted by CPU. A worker is one of the runner's
 * Node children; its parallel index is read from the environment its
 * browser or a site inherited, so a test that starts neither before its
 * first test ends is counted from then on. A process that exited during a
 * test counts in its parent's reaped time: a site in the worker's, a
 * renderer in Chromium's. The shared site (`webServer`) is not counted.
 */
import fs from "node:fs";
import path from "node:path";
import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/** Clock ticks a second of `/proc/<pid>/stat` (USER_HZ, 100 on Linux). */
const TICKS = 100;

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  /** Own user + system seconds. */
  own: number;
  /** Seconds of the children it reaped. */
  reaped: number;
}

interface Split {
  worker: number;
  chromium: number;
  sites: number;
}

function processes(): Map<number, Proc> {
  const all = new Map<number, Proc>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const seconds = (index: number) => Number(fields[index]) / TICKS;
      all.set(Number(entry), {
        pid: Number(entry),
        ppid: Number(fields[1]),
        comm,
        own: seconds(11) + seconds(12),
        reaped: seconds(13) + seconds(14),
      });
    } catch {
      // The process ended while the directory was read.
    }
  }
  return all;
}

function childrenOf(all: Map<number, Proc>): Map<number, Proc[]> {
  const children = new Map<number, Proc[]>();
  for (const proc of all.values()) children.set(proc.ppid, [...(children.get(proc.ppid) ?? []), proc]);
  return children;
}

/** CPU seconds of `root` (a worker) and of its descendants, by kind. */
function splitOf(all: Map<number, Proc>, children: Map<number, Proc[]>, root: number): Split {
  const worker = all.get(root);
  const split = { worker: worker?.own ?? 0, chromium: 0, sites: worker?.reaped ?? 0 };
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const proc = stack.pop()!;
    const seconds = proc.own + proc.reaped;
    if (/chrom/i.test(proc.comm)) split.chromium += seconds;
    else split.sites += seconds;
    stack.push(...(children.get(proc.pid) ?? []));
  }
  return split;
}

const PARALLEL_INDEX = "TEST_PARALLEL_INDEX=";

export default class CpuReporter implements Reporter {
  /** The runner's worker processes by parallel index, as last found. */
  private workers = new Map<number, number>();
  private started = new Map<string, Map<number, Split>>();
  private rows: (Split & { file: string; project: string; title: string; wall: number })[] = [];

  /** Every worker's split now, by pid. */
  private snapshot(): { all: Map<number, Proc>; children: Map<number, Proc[]>; splits: Map<number, Split> } {
    const all = processes();
    const children = childrenOf(all);
    const splits = new Map<number, Split>();
    for (const worker of children.get(process.pid) ?? [])
      if (worker.comm === "node") splits.set(worker.pid, splitOf(all, children, worker.pid));
    return { all, children, splits };
  }

  private findWorkers(children: Map<number, Proc[]>): void {
    for (const worker of children.get(process.pid) ?? []) {
      if (worker.comm !== "node") continue;
      const stack = [...(children.get(worker.pid) ?? [])];
      while (stack.length > 0) {
        const proc = stack.pop()!;
        try {
          const variable = fs
            .readFileSync(`/proc/${proc.pid}/environ`, "utf8")
            .split("\0")
            .find((entry) => entry.startsWith(PARALLEL_INDEX));
          if (variable) {
            this.workers.set(Number(variable.slice(PARALLEL_INDEX.length)), worker.pid);
            break;
          }
        } catch {
          // Ended meanwhile.
        }
        stack.push(...(children.get(proc.pid) ?? []));
      }
    }
  }

  onTestBegin(test: TestCase, result: TestResult): void {
    this.started.set(`${test.id}#${result.retry}`, this.snapshot().splits);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const { children, splits } = this.snapshot();
    this.findWorkers(children);
    const pid = this.workers.get(result.parallelIndex);
    const before = pid === undefined ? undefined : this.started.get(`${test.id}#${result.retry}`)?.get(pid);
    const after = pid === undefined ? undefined : splits.get(pid);
    if (!before || !after) return;
    this.rows.push({
      file: path.relative(process.cwd(), test.location.file),
      project: test.parent.project()?.name ?? "",
      title: test.title,
      wall: result.duration / 1000,
      worker: after.worker - before.worker,
      chromium: after.chromium - before.chromium,
      sites: after.sites - before.sites,
    });
  }

  onEnd(_result: FullResult): void {
    const file = process.env.PW_CPU_REPORT ?? "test-results/cpu.json";
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(this.rows, null, 1));
    const byFile = new Map<string, Split & { runs: number; wall: number }>();
    for (const row of this.rows) {
      const key = `${row.file} (${row.project})`;
      const sum = byFile.get(key) ?? { runs: 0, wall: 0, worker: 0, chromium: 0, sites: 0 };
      byFile.set(key, {
        runs: sum.runs + 1,
        wall: sum.wall + row.wall,
        worker: sum.worker + row.worker,
        chromium: sum.chromium + row.chromium,
        sites: sum.sites + row.sites,
      });
    }
    const total = (split: Split) => split.worker + split.chromium + split.sites;
    const lines = [
      "| Spec file (project) | Runs | Chromium s | Worker s | Sites s | Wall s |",
      "|---|---:|---:|---:|---:|---:|",
    ];
    for (const [key, sum] of [...byFile].sort((a, b) => total(b[1]) - total(a[1])))
      lines.push(
        `| ${key} | ${sum.runs} | ${sum.chromium.toFixed(1)} | ${sum.worker.toFixed(1)} | ${sum.sites.toFixed(1)} | ${sum.wall.toFixed(1)} |`,
      );
    const sums = this.rows.reduce(
      (sum, row) => ({
        worker: sum.worker + row.worker,
        chromium: sum.chromium + row.chromium,
        sites: sum.sites + row.sites,
        wall: sum.wall + row.wall,
      }),
      { worker: 0, chromium: 0, sites: 0, wall: 0 },
    );
    lines.push(
      `| ${this.rows.length} runs measured | | ${sums.chromium.toFixed(1)} | ${sums.worker.toFixed(1)} | ${sums.sites.toFixed(1)} | ${sums.wall.toFixed(1)} |`,
    );
    console.log(`\nCPU by spec file (${file}):\n${lines.join("\n")}`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
