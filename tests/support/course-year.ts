/**
 * The year the tests' course dates fall in. Tests name weekdays ("mardi 12
 * janvier"), the end of summer time (Sunday 31 October) and dates a week
 * apart as they fall in 2027's calendar; so that no test fails once a date
 * has passed, they use the first year after the current one with that
 * calendar (not a leap year, 1 January a Friday): 2027 while it is 2026,
 * then 2038, 2049… Read once, when the test file loads.
 */

/** The first year after `now`'s (UTC) whose calendar is 2027's. */
export function courseYearAfter(now: Date): number {
  for (let year = now.getUTCFullYear() + 1; ; year++) {
    const leap = new Date(Date.UTC(year, 1, 29)).getUTCMonth() === 1;
    if (!leap && new Date(Date.UTC(year, 0, 1)).getUTCDay() === 5) return year;
  }
}

/** The year of the tests' course dates (see the module's header). */
export const COURSE_YEAR = courseYearAfter(new Date());
