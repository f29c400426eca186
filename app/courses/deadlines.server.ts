/**
 * The two moments a course's first date sets (issue 30, item 3; decision
 * 052), from the owner's Réglages (« Cours et liste d’attente »), counted
 * back in Swiss wall-clock time (48 hours before Sunday 14 h 00 is Friday
 * 14 h 00, across a change of summer time):
 * - `goNoGoTime(firstStart, days)`: when a course below its minimum is
 *   decided (the go/no-go job, app/courses/go-no-go.server.ts);
 * - `cancelDeadline(firstStart, hours)`: until when a person may cancel her
 *   seat by her link; after it, she telephones (the owner still cancels
 *   from the desk). `cancelUntilWords` says it in French, Swiss time.
 * Both are counted back from the first date still held (a series: its first).
 * `cancelDeadlineOf(db, firstStart, now)` reads the hours from Réglages.
 */
import type { Database } from "~/db/client.server";
import { readSiteSettings } from "~/settings/site.server";
import { formatDateTime } from "~/utils/format";
import { utcToZurich, zurichToUtc } from "~/utils/zurich-time.server";

const HOUR_MS = 3_600_000;

/** The instant `hours` before `moment` on Swiss clocks (the same wall-clock time `hours / 24` days earlier). */
function zurichHoursBefore(moment: Date | string, hours: number): Date {
  const { date, time } = utcToZurich(new Date(moment));
  const wall = new Date(new Date(`${date}T${time}:00Z`).getTime() - hours * HOUR_MS).toISOString();
  return zurichToUtc(wall.slice(0, 10), wall.slice(11, 16));
}

/** When the go/no-go falls: `days` days before `firstStart`, at the same Swiss time. */
export const goNoGoTime = (firstStart: Date | string, days: number) => zurichHoursBefore(firstStart, days * 24);

/** The last moment a person may cancel her seat by her link: `hours` before `firstStart` on Swiss clocks. */
export const cancelDeadline = (firstStart: Date | string, hours: number) => zurichHoursBefore(firstStart, hours);

/** Whether the cancellation deadline `deadline` has passed at `now` (at the deadline itself: passed). */
export const deadlinePassed = (deadline: Date | string, now: Date) => new Date(deadline).getTime() <= now.getTime();

/** « Annulation possible jusqu’au mardi 2 mars 2027, 14 h 00 » (Swiss time). */
export const cancelUntilWords = (deadline: Date | string) => `Annulation possible jusqu’au ${formatDateTime(deadline)}`;

/** A registration's cancellation deadline as its page and mails say it: the moment, and whether it has passed. */
export interface CancelDeadline {
  until: Date;
  passed: boolean;
}

/** The deadline of a course beginning at `firstStart`, with `hours` from Réglages, as it stands at `now`. */
export function cancelDeadlineAt(firstStart: Date | string, hours: number, now: Date): CancelDeadline {
  const until = cancelDeadline(firstStart, hours);
  return { until, passed: deadlinePassed(until, now) };
}

/** The deadline of a course whose first date still held begins at `firstStart`, at `now` (Réglages' hours). @throws the driver's error. */
export async function cancelDeadlineOf(db: Database, firstStart: Date | string, now: Date): Promise<CancelDeadline> {
  return cancelDeadlineAt(firstStart, (await readSiteSettings(db)).courses.cancelDeadlineHours, now);
}
