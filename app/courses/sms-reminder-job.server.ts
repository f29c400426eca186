/**
 * The SMS reminders' timed job (app/desk/jobs.server.ts): every minute on
 * every process, the SMS reminders due are written, each once
 * (`runSmsReminders`, app/courses/reminder-channels.server.ts).
 */
import type { TimedJob } from "~/desk/jobs.server";
import { runSmsReminders } from "./reminder-channels.server";

/** How often the SMS reminders are looked for: one leaves at most a minute after its time. */
export const SMS_REMINDER_JOB_INTERVAL_MS = 60_000;

export const smsReminderJob: TimedJob = {
  name: "course SMS reminders",
  intervalMs: SMS_REMINDER_JOB_INTERVAL_MS,
  run: async ({ db, now, siteUrl, logger, settings }) => ({
    ...(await runSmsReminders(db, now, { siteUrl, perDay: settings?.SMS_PER_NUMBER_PER_DAY ?? 3, logger })),
  }),
};
