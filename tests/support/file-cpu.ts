/**
 * With `TEST_CPU_LOG=<file>`, each Vitest test file appends one line to that
 * file: its path, its CPU seconds (the worker's user + system time, plus its
 * reaped children's: the sites it spawned) and its wall seconds, measured
 * from before the file's imports to its last hook. Files in one worker run one after the
 * other, so the figure is the file's own even with several workers.
 * `scripts/test-cpu.ts` prints the table. Without the variable: nothing.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect } from "vitest";

const log = process.env.TEST_CPU_LOG;

/** This process's CPU seconds, its reaped children's included (/proc/self/stat: utime, stime, cutime, cstime). */
function cpuSeconds(): number {
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}

if (log) {
  // Set up again before each file (its imports come after): the file's start.
  const cpu = cpuSeconds();
  const wall = performance.now();
  afterAll(() => {
    const file = path.relative(process.cwd(), expect.getState().testPath ?? "unknown");
    fs.appendFileSync(
      log,
      `${file}\t${(cpuSeconds() - cpu).toFixed(2)}\t${((performance.now() - wall) / 1000).toFixed(2)}\n`,
    );
  });
}
