/**
 * The courses' timed job (app/desk/jobs.server.ts): every minute on every
 * process, offers whose hold ended expire and their seats go to the next
 * who waits; seats free and not held while someone waits are offered
 * (`runOfferJob`, app/courses/offers.server.ts: under the groups' locks,
 * so two processes never both act).
 */
import type { TimedJob } from "~/desk/jobs.server";
import { runOfferJob } from "./offers.server";

/** How often the job runs: a hold ends at most a minute late. */
export const OFFER_JOB_INTERVAL_MS = 60_000;

export const offerJob: TimedJob = {
  name: "course offers",
  intervalMs: OFFER_JOB_INTERVAL_MS,
  run: async ({ db, now, siteUrl }) => ({ ...(await runOfferJob(db, now, { siteUrl })) }),
};
