/**
 * The composition root of the features (DESIGN.md section 10, decision
 * 030): the one module that names every feature's plug
 * (`app/<feature>/plug.server.ts`) and hands the list to the mechanisms,
 * which import no feature. A new feature that stores a visitor's data, has
 * retention rules, sends mails or attaches files joins `FEATURES` here.
 *
 * - `FEATURES`: the plugs, in the person page's order of their tables.
 * - `MAIL_LABELS`: every kind of mail to its French label (the desk).
 * - `OUTBOX_PLUGS`: for `new OutboxWorker({ plugs, ... })`; `JOBS`: the timed jobs (offer expiry, go/no-go);
 *   `runStartSteps`: each feature's step at a server's start (articles imported from their files...).
 * - the person registry bound to the list (`findPerson`, `erasePerson`...,
 *   `PROCESSINGS`: the register of processing activities, LPD art. 12,
 *   app/desk/person-registry.server.ts) and the retention job
 *   (`runRetention`, `scheduleRetention`, app/desk/retention.server.ts).
 */
import { blogFeature } from "./blog/plug.server";
import { callbackFeature } from "./callback/plug.server";
import { contactFeature } from "./contact/plug.server";
import { coursesFeature } from "./courses/plug.server";
import type { Feature, StartContext } from "./desk/feature";
import { mailLabelsOf } from "./desk/mail-labels.server";
import { personRegistry } from "./desk/person-registry.server";
import { retention } from "./desk/retention.server";
import { invoicesFeature } from "./invoices/plug.server";
import { lettersFeature } from "./letters/plug.server";
import { newsletterFeature } from "./newsletter/plug.server";
import { picturesFeature } from "./pictures/plug.server";
import { privacyFeature } from "./privacy/plug.server";
import { quotesFeature } from "./quotes/plug.server";

export const FEATURES: readonly Feature[] = [
  contactFeature,
  callbackFeature,
  newsletterFeature,
  coursesFeature,
  invoicesFeature,
  quotesFeature,
  lettersFeature,
  blogFeature,
  picturesFeature,
  privacyFeature,
];

export const MAIL_LABELS = mailLabelsOf(FEATURES);

/** Every feature's timed jobs, for `scheduleJobs` (app/desk/jobs.server.ts, server/main.ts). */
export const JOBS = FEATURES.flatMap((feature) => feature.jobs ?? []);

/** Runs every feature's start-up step, in the order of `FEATURES` (server/main.ts, once the database is open). */
export async function runStartSteps(context: StartContext): Promise<void> {
  for (const feature of FEATURES) await feature.atStart?.(context);
}

export const OUTBOX_PLUGS = FEATURES.flatMap((feature) => (feature.outbox ? [feature.outbox] : []));

export const registry = personRegistry(
  FEATURES.flatMap((feature) => (feature.person ? [feature.person] : [])),
  MAIL_LABELS,
);

export const {
  tables: PERSON_TABLES,
  otherTables: TABLES_WITHOUT_PERSONAL_DATA,
  processings: PROCESSINGS,
  findPerson,
  countsOf,
  describeCounts,
  fieldNamesOf,
  peopleIn,
  planErasure,
  exportOf,
  planCounts,
  erasePerson,
} = registry;

export const { runRetention, scheduleRetention } = retention(
  FEATURES.flatMap((feature) => (feature.retention ? [feature.retention] : [])),
);
