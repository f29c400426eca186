/**
 * Swiss wall-clock time (Europe/Zurich, summer time included) and UTC
 * instants, both ways, over `@date-fns/tz` (the zone rules come from the
 * runtime's time-zone data through Intl). Instants are stored in UTC; the
 * desk's forms give and show a Swiss date ("2026-10-25") and time ("14:00").
 * Words for visitors ("mardi 12 janvier 2027, 14 h 00") are app/utils/format.ts
 * (Intl alone, small enough for the browser); see docs/decisions/031-bookings-by-operation-and-shared-helpers.md.
 *
 * - `utcToZurich(moment)`: the Swiss date and time of an instant.
 * - `zurichToUtc(date, time)`: the instant of a Swiss date and time.
 * - `zurichDaysLater(moment, days)`: `days` calendar days later, same Swiss time.
 */
import { TZDate } from "@date-fns/tz";

/** The zone every date of the site is shown in. */
export const ZURICH = "Europe/Zurich";

const HOUR_MS = 3_600_000;
const two = (value: number) => String(value).padStart(2, "0");

/**
 * A UTC instant as a Swiss date ("2026-10-25") and time ("14:00"), as the desk's form shows them.
 * @throws RangeError when `moment` is not a valid date.
 */
export function utcToZurich(moment: Date): { date: string; time: string } {
  if (Number.isNaN(moment.getTime())) throw new RangeError(`Invalid date: ${String(moment)}`);
  const swiss = new TZDate(moment.getTime(), ZURICH);
  return {
    date: `${swiss.getFullYear()}-${two(swiss.getMonth() + 1)}-${two(swiss.getDate())}`,
    time: `${two(swiss.getHours())}:${two(swiss.getMinutes())}`,
  };
}

/**
 * The UTC instant of a Swiss wall-clock date ("2026-10-25") and time
 * ("14:00"), daylight-saving time included. In the hour that happens twice
 * (late October, 2 h 00 – 3 h 00) the first one is taken; a time the
 * spring change skips (2 h 30 in late March) is read one hour later.
 * @throws RangeError when the date or time is not valid.
 */
export function zurichToUtc(date: string, time: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const clock = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!match || !clock) throw new RangeError(`Invalid date or time: ${date} ${time}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10) !== date) {
    throw new RangeError(`Invalid date: ${date}`);
  }
  // The library reads a repeated hour as its second occurrence (winter time): take the first when it exists.
  const instant = new TZDate(year, month - 1, day, Number(clock[1]), Number(clock[2]), ZURICH).getTime();
  const earlier = new Date(instant - HOUR_MS);
  const shown = utcToZurich(earlier);
  return shown.date === date && shown.time === time ? earlier : new Date(instant);
}

/**
 * The instant `days` calendar days after `moment` at the same Swiss
 * wall-clock time (a week after a Tuesday 14 h 00 in October is the next
 * Tuesday 14 h 00, across the change to winter time).
 * @throws RangeError when `moment` is not a valid date.
 */
export function zurichDaysLater(moment: Date | string, days: number): Date {
  const { date, time } = utcToZurich(new Date(moment));
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return zurichToUtc(new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10), time);
}
