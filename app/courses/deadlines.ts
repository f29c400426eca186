/**
 * The two moments a course's first date sets (issue 30, item 3; decision
 * 052), from the owner's Réglages (« Cours et liste d’attente »), pure and
 * browser-safe:
 * - `goNoGoTime(firstStart, days)`: when a course below its minimum is
 *   decided (the go/no-go job, app/courses/go-no-go.server.ts);
 * - `cancelDeadline(firstStart, hours)`: until when a person may cancel her
 *   seat by her link; after it, she telephones (the owner still cancels
 *   from the desk). `cancelUntilWords` says it in French, Swiss time.
 * Both are counted back from the first date still held (a series: its first).
 */
import { formatDateTime } from "~/utils/format";

const HOUR_MS = 3_600_000;

/** When the go/no-go falls: `days` whole days (24 h each) before `firstStart`. */
export const goNoGoTime = (firstStart: Date | string, days: number) =>
  new Date(new Date(firstStart).getTime() - days * 24 * HOUR_MS);

/** The last moment a person may cancel her seat by her link: `hours` before `firstStart`. */
export const cancelDeadline = (firstStart: Date | string, hours: number) =>
  new Date(new Date(firstStart).getTime() - hours * HOUR_MS);

/** Whether the cancellation deadline `deadline` has passed at `now` (at the deadline itself: passed). */
export const deadlinePassed = (deadline: Date | string, now: Date) => new Date(deadline).getTime() <= now.getTime();

/** « Annulation possible jusqu’au mardi 2 mars 2027, 14 h 00 » (Swiss time). */
export const cancelUntilWords = (deadline: Date | string) => `Annulation possible jusqu’au ${formatDateTime(deadline)}`;
