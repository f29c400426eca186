/**
 * Opening hours (spec section 9: Mon-Fri 9h-18h, Sat 9h-16h, Sun closed;
 * evening training on request, section 2 "contact").
 *
 * `defaultHours` are the times the site ships with; the owner changes them
 * in Réglages (`/admin/reglages`, app/settings/). `openingHoursOf(times)`
 * makes the rows that both the "Horaires d’ouverture" card ("9h00–18h00",
 * "Fermé") and the home page's structured data (`openingHoursSpecification`)
 * show: the days (schema.org `DayOfWeek` names) and the times on a 24-hour
 * clock ("09:00").
 */
import type { HoursRow, HoursSettings } from "./shapes";
import { typesetAll } from "~/utils/typography";
import { formatTime } from "~/utils/format";
import type { DayOfWeek, OpeningHours } from "./types";

/** The times the site ships with: weekdays 9h00–18h00, Saturday 9h00–16h00, Sunday closed. */
export const defaultHours: HoursSettings = {
  weekdays: { opens: "09:00", closes: "18:00" },
  saturday: { opens: "09:00", closes: "16:00" },
  sunday: null,
};

/** The three rows of the card, in this order: their French label and schema.org days. */
const ROWS: Record<HoursRow, { days: string; dayOfWeek: DayOfWeek[] }> = {
  weekdays: { days: "Lundi – vendredi", dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"] },
  saturday: { days: "Samedi", dayOfWeek: ["Saturday"] },
  sunday: { days: "Dimanche", dayOfWeek: ["Sunday"] },
};

/**
 * The rows of the "Horaires d’ouverture" card for `times`, in the card's order.
 * @throws RangeError when a time is not "HH:MM" (the settings' schema guarantees it).
 */
export function openingHoursOf(times: HoursSettings): OpeningHours[] {
  return typesetAll(
    (Object.keys(ROWS) as HoursRow[]).map((key) => {
      const time = times[key];
      return {
        ...ROWS[key],
        opens: time?.opens ?? null,
        closes: time?.closes ?? null,
        hours: time ? `${formatTime(time.opens)}–${formatTime(time.closes)}` : "Fermé",
      };
    }),
  );
}
