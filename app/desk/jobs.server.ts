/**
 * The timed jobs features give (`Feature.jobs`, app/desk/feature.ts): each
 * runs on every server process shortly after start, one job after the other
 * (what fell due while the server was down runs then, once), and then every `intervalMs`, at the
 * moment the injected clock gives. A job must be safe to run on several
 * processes at once (row locks, conditional updates): this module only
 * times it. A run that fails is logged (kind and code only; a database
 * outage by app/db/outage.server.ts, once) and tried
 * again at the next time; a run still going when the next time comes is
 * not started twice in one process.
 *
 * `scheduleJobs(jobs, { db, logger, clock, siteUrl })` → `{ stop() }`:
 * clears the timers, aborts the runs' `signal` (a long run stops at its
 * next step) and resolves once the runs in progress are over.
 */
import type { Logger } from "pino";
import type { Settings } from "~/config/settings.server";
import type { Database } from "~/db/client.server";
import { errorFields } from "~/db/errors.server";
import { databaseDown } from "~/db/outage.server";

/** What a job gets at each run. */
export interface JobContext {
  db: Database;
  /** The moment of this run (the injected clock). */
  now: Date;
  /** Where links in mails point (SITE_URL, no trailing slash). */
  siteUrl: string;
  logger: Logger;
  /** The process's settings (the SMS cap...); absent in tests that need none. */
  settings?: Settings;
  /** Aborted when the process stops its jobs: a run of many steps ends at the next one. */
  signal?: AbortSignal;
}

/** A feature's timed job. */
export interface TimedJob {
  /** Its name in the log ("course offers"). */
  name: string;
  /** How often it runs, in milliseconds. */
  intervalMs: number;
  /** One run. @returns counts to log when anything happened (all zero: nothing is logged). */
  run(context: JobContext): Promise<Record<string, number>>;
}

/**
 * Runs `jobs` after `firstDelayMs` (1 s by default), one after the other, then each at its interval;
 * the timers do not keep the process alive.
 */
export function scheduleJobs(
  jobs: readonly TimedJob[],
  {
    db,
    logger,
    clock,
    siteUrl,
    settings,
    firstDelayMs = 1000,
  }: {
    db: Database;
    logger: Logger;
    clock: { now(): Date };
    siteUrl: string;
    settings?: Settings;
    firstDelayMs?: number;
  },
): { stop(): Promise<void> } {
  let stopped = false;
  const stopping = new AbortController();
  const running = new Map<TimedJob, Promise<void>>();
  const timers: NodeJS.Timeout[] = [];
  const run = (job: TimedJob): Promise<void> => {
    if (stopped) return Promise.resolve();
    const current = running.get(job);
    if (current) return current;
    const done = job
      .run({ db, now: clock.now(), siteUrl, logger, signal: stopping.signal, ...(settings && { settings }) })
      .then(
        (counts) => {
          if (Object.values(counts).some((count) => count > 0)) logger.info({ job: job.name, ...counts }, "job: done");
        },
        async (error: unknown) => {
          // A database outage is said once by app/db/outage.server.ts, not at every run.
          if (!(await databaseDown(db, logger, error)))
            logger.error({ job: job.name, err: errorFields(error) }, "job: the run failed");
        },
      )
      .finally(() => running.delete(job));
    running.set(job, done);
    return done;
  };
  // The first runs one after the other, not all at once: each job's statements would otherwise
  // share the start's event loop with the others' and with the render cache's warm-up, and a
  // request arriving then waited behind several (a static file 139 ms at 1,000 articles).
  timers.push(
    setTimeout(async () => {
      for (const job of jobs) await run(job);
    }, firstDelayMs),
  );
  for (const job of jobs) timers.push(setInterval(() => void run(job), job.intervalMs));
  for (const timer of timers) timer.unref();
  return {
    async stop() {
      stopped = true;
      stopping.abort();
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(running.values());
    },
  };
}
