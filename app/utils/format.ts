/**
 * Swiss French formatting of prices, dates and counts.
 */
import { typeset } from "./typography";

/** Made on first use, then kept (see `longDate`): a page shows dozens of prices, each formatter costs more than its use. */
const numberFormats: Partial<Record<"whole" | "centimes" | "count", Intl.NumberFormat>> = {};

/** The "de-CH" number formatter of whole francs, of francs and centimes, or of a whole count. */
function swissNumbers(style: "whole" | "centimes" | "count"): Intl.NumberFormat {
  return (numberFormats[style] ??= new Intl.NumberFormat(
    "de-CH",
    style === "count"
      ? { maximumFractionDigits: 0 }
      : { minimumFractionDigits: style === "whole" ? 0 : 2, maximumFractionDigits: 2 },
  ));
}

/**
 * A whole-franc price the Swiss way: `formatChf(55)` is "CHF 55.–",
 * `formatChf(1200)` is "CHF 1’200.–" (apostrophe thousands separator, as
 * Intl "de-CH"/"fr-CH" style guides for amounts). Non-integer amounts keep
 * their centimes: `formatChf(55.5)` is "CHF 55.50".
 * @throws RangeError for a negative or non-finite amount.
 */
export function formatChf(amount: number): string {
  if (!Number.isFinite(amount) || amount < 0) throw new RangeError(`Invalid price: ${amount}`);
  const whole = Number.isInteger(amount);
  const number = swissNumbers(whole ? "whole" : "centimes")
    .format(amount)
    .replace(/['’]/g, "’");
  return whole ? `CHF ${number}.–` : `CHF ${number}`;
}

/**
 * A whole count the Swiss way, as amounts are written (`formatChf`): `formatCount(20000)` is
 * "20’000", `formatCount(950)` is "950".
 */
export function formatCount(count: number): string {
  return swissNumbers("count").format(count).replace(/['’]/g, "’");
}

/**
 * A time of day on a 24-hour clock ("09:00", "18:30") the Swiss French way:
 * "9h00", "18h30".
 * @throws RangeError when the string is not a valid "HH:MM" time.
 */
export function formatTime(time: string): string {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!match) throw new RangeError(`Invalid time: ${time}`);
  return `${Number(match[1])}h${match[2]}`;
}

/** Made on first use: building a formatter loads locale data, which a module import should not pay for. */
let longDate: Intl.DateTimeFormat | undefined;

/**
 * An ISO date (`2024-11-15`) in French: "15 novembre 2024", "1er novembre
 * 2024" (the ordinal of the first is `typeset`'s rule).
 * @throws RangeError when the string is not a valid ISO date.
 */
export function formatDate(isoDate: string): string {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(isoDate) ? `${isoDate}T12:00:00Z` : isoDate);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Invalid date: ${isoDate}`);
  longDate ??= new Intl.DateTimeFormat("fr-CH", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "Europe/Zurich",
  });
  return typeset(longDate.format(date));
}

/**
 * The topics a course card shows: the first `shown` topics, and the French
 * line for the rest ("... et 2 autres sujets", "... et 1 autre sujet"), or
 * null when nothing is left over.
 */
export function topicPreview(topics: readonly string[], shown = 3): { visible: string[]; more: string | null } {
  const rest = Math.max(0, topics.length - shown);
  return {
    visible: topics.slice(0, shown),
    more: rest === 0 ? null : `... et ${rest} ${rest === 1 ? "autre sujet" : "autres sujets"}`,
  };
}

/** Made on first use (see `longDate`): the words and the numeric form of a moment. */
const zurichFormats: Partial<Record<"words" | "numeric", Intl.DateTimeFormat>> = {};

/**
 * The parts of `moment` in Swiss time (Europe/Zurich, summer time
 * included), hour and minute on a 24-hour clock with two digits; `words`:
 * weekday and month in French words, day without a leading zero;
 * `numeric`: day and month with two digits.
 * @throws RangeError when `moment` is not a valid date.
 */
function zurichParts(moment: Date | string, style: "words" | "numeric"): Record<string, string> {
  const date = typeof moment === "string" ? new Date(moment) : moment;
  if (Number.isNaN(date.getTime())) throw new RangeError(`Invalid date: ${String(moment)}`);
  const format = (zurichFormats[style] ??= new Intl.DateTimeFormat("fr-CH", {
    timeZone: "Europe/Zurich",
    ...(style === "words" ? { weekday: "long", day: "numeric", month: "long" } : { day: "2-digit", month: "2-digit" }),
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }));
  return Object.fromEntries(format.formatToParts(date).map(({ type, value }) => [type, value]));
}

/**
 * A moment in French words, in Swiss time (Europe/Zurich, summer time
 * included), as DESIGN.md section 8 writes dates: "mardi 12 janvier 2027,
 * 14 h 00" (the spaces around "h" are no-break spaces, U+00A0); "1er" for
 * the first day of a month.
 * @throws RangeError when `moment` is not a valid date.
 */
export function formatDateTime(moment: Date | string): string {
  const part = zurichParts(moment, "words");
  const day = part.day === "1" ? "1er" : part.day;
  // No-break spaces inside "14 h 00": a line never breaks within a time (issue 24).
  return `${part.weekday} ${day} ${part.month} ${part.year}, ${Number(part.hour)}\u00a0h\u00a0${part.minute}`;
}

/**
 * A moment in Swiss time as a spreadsheet set to Swiss German or Swiss
 * French (Excel, LibreOffice) reads it as a date and time:
 * "24.11.2026 14:05".
 * @throws RangeError when `moment` is not a valid date.
 */
export function formatSpreadsheetDateTime(moment: Date | string): string {
  const { day, month, year, hour, minute } = zurichParts(moment, "numeric");
  return `${day}.${month}.${year} ${hour}:${minute}`;
}

/**
 * The calendar day of `moment` in Swiss time, ISO-written ("2026-11-24"),
 * for file names.
 * @throws RangeError when `moment` is not a valid date.
 */
export function isoDateInZurich(moment: Date | string): string {
  const { day, month, year } = zurichParts(moment, "numeric");
  return `${year}-${month}-${day}`;
}

/** A date as a form's field gives it: ISO ("2026-11-25", a date field's) or Swiss ("25.11.2026"), as an ISO date; anything else as it is. */
export function isoDateOfTyped(text: string): string {
  const swiss = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  return swiss ? `${swiss[3]}-${swiss[2]!.padStart(2, "0")}-${swiss[1]!.padStart(2, "0")}` : text;
}

/** Whether `text` is a real ISO calendar date ("2026-02-30" is not). */
export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/**
 * A span of time on one day, in French words in Swiss time: "mardi 12
 * janvier 2027, 14 h 00 – 16 h 00" (`formatDateTime` of the start, then
 * the end's hour). An end on another day is written in full after the dash.
 * @throws RangeError when either moment is not a valid date.
 */
export function formatDateTimeRange(start: Date | string, end: Date | string): string {
  const from = formatDateTime(start);
  const to = formatDateTime(end);
  const [fromDay] = from.split(", ");
  const [toDay, toHour] = to.split(", ");
  return fromDay === toDay ? `${from} – ${toHour}` : `${from} – ${to}`;
}

/**
 * « de » before a person's name, elided before a vowel as French writes it:
 * `ofName("Odette Rochat")` is « d’Odette Rochat », `ofName("Marie")`
 * « de Marie ». A name starting with H keeps « de » (aspirated or not, it
 * cannot be told from the spelling).
 */
export function ofName(name: string): string {
  return /^[aeiouyàâäéèêëîïôöùûüœæ]/iu.test(name.trim()) ? `d’${name.trim()}` : `de ${name.trim()}`;
}
