/**
 * What `npm run bench:scale` reads of the server it measures
 * (scripts/bench-scale.ts): its peak RSS (`sampleRss`), its CPU time
 * (`cpuMs`), whether it is alive and why it died (`alive`, `lastLines`),
 * one timed request (`timed`), 20 connections at a list of addresses with
 * every non-2xx counted by address (`hammer`), and the machine's load.
 * Linux only (/proc).
 */
import fs from "node:fs";
import autocannon from "autocannon";
import { residentMegabytes, type SpawnedSite } from "../tests/support/harness";

/** Connections of every load the benchmark drives. */
export const CONNECTIONS = 20;

/** Peak RSS (MB) of `site`'s process, sampled every 50 ms until stopped; `reset()` starts a new peak. */
export function sampleRss(site: SpawnedSite) {
  let peak = 0;
  const timer = setInterval(() => {
    const rss = residentMegabytes(site.child.pid!);
    if (Number.isFinite(rss)) peak = Math.max(peak, rss);
  }, 50);
  return {
    get peak() {
      return peak;
    },
    reset: () => (peak = 0),
    stop: () => clearInterval(timer),
  };
}

/** CPU milliseconds (user + system) the process `pid` has used so far (/proc: ticks of 10 ms), NaN once it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** The `p`th percentile (0–100, nearest rank) of `values`; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The load average now (the machine is shared: wall figures are read against it). */
export const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

export const alive = (site: SpawnedSite) => site.child.exitCode === null && site.child.signalCode === null;

/** The server's last lines that say why it failed (heap, FATAL, error), shortened. */
export const lastLines = (site: SpawnedSite) =>
  site.log
    .filter((line) => /FATAL|heap|error/i.test(line))
    .slice(-2)
    .map((line) => line.slice(0, 160))
    .join(" / ");

/** The process's state in words: « alive » or « DIED (its last lines) ». */
export const state = (site: SpawnedSite) => (alive(site) ? "alive" : `DIED (${lastLines(site)})`);

/**
 * One GET of `url` (identity encoding: the bytes as they are), `headers`
 * added: its wall time (ms), the time to its first byte (ms), status and
 * size in bytes. Redirects are not followed.
 * @throws when the connection fails.
 */
export async function timed(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ ms: number; firstByteMs: number; status: number; bytes: number; body: string }> {
  const started = performance.now();
  const answer = await fetch(url, { headers: { "accept-encoding": "identity", ...headers }, redirect: "manual" });
  const firstByteMs = performance.now() - started;
  const body = await answer.text();
  return { ms: performance.now() - started, firstByteMs, status: answer.status, bytes: Buffer.byteLength(body), body };
}

/** Waits until `site` answers a static file within 50 ms again (the renders a run left queued are done), 60 s at most. */
export async function settle(site: SpawnedSite): Promise<void> {
  const until = performance.now() + 60_000;
  while (alive(site) && performance.now() < until) {
    const { ms } = await timed(`${site.url}/favicon.svg`).catch(() => ({ ms: Infinity }));
    if (ms < 50) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What `hammer` measured: the whole run's figures, and the non-2xx answers by address and status. */
export interface Hammered {
  requests: number;
  perSecond: number;
  p99: number;
  errors: number;
  timeouts: number;
  /** `"/path → 404": 12` for every address that answered something else than 2xx. */
  failures: Map<string, number>;
  /** Server CPU (ms) per request. */
  cpuPerRequest: number;
}

/**
 * `CONNECTIONS` connections for `seconds` at `paths` of `site` (each
 * connection takes the next path of the list in turn; `pick` instead chooses
 * each request's path), brotli or gzip accepted, `headers` added (the owner's
 * cookie). Counts every answer that is not 2xx by path and status.
 */
export async function hammer(
  site: SpawnedSite,
  {
    paths,
    pick,
    seconds,
    headers = {},
  }: { paths?: string[]; pick?: () => string; seconds: number; headers?: Record<string, string> },
): Promise<Hammered> {
  let turn = 0;
  const next = pick ?? (() => paths![turn++ % paths!.length]!);
  const failures = new Map<string, number>();
  const cpu = cpuMs(site.child.pid!);
  const result = await autocannon({
    url: site.url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { "accept-encoding": "br, gzip", ...headers },
    requests: [
      {
        setupRequest: (request, context) => {
          const path = next();
          (context as { path?: string }).path = path;
          return { ...request, path };
        },
        onResponse: (status, _body, context) => {
          if (status >= 200 && status < 300) return;
          const key = `${(context as { path?: string }).path} → ${status}`;
          failures.set(key, (failures.get(key) ?? 0) + 1);
        },
      },
    ],
  });
  return {
    requests: result.requests.total,
    perSecond: Math.round(result.requests.average),
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    failures,
    cpuPerRequest: (cpuMs(site.child.pid!) - cpu) / Math.max(1, result.requests.total),
  };
}

/** `hammer`'s figures as one Markdown line's end: req/s, p99, non-2xx (by address, the first five), errors, CPU. */
export function describe(run: Hammered): string {
  const non2xx = [...run.failures.values()].reduce((sum, n) => sum + n, 0);
  const worst = [...run.failures]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([key, n]) => `${key} ×${n}`)
    .join(", ");
  return `${run.perSecond} req/s, p99 ${run.p99} ms, ${non2xx} non-2xx${worst ? ` (${worst})` : ""}, ${run.errors} errors, ${run.timeouts} timeouts; server CPU ${run.cpuPerRequest.toFixed(1)} ms a request (load ${load()})`;
}
