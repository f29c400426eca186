/**
 * Opening hours (spec section 9: Mon-Fri 9h-18h, Sat 9h-16h, Sun closed;
 * evening training on request, section 2 "contact").
 *
 * Each row gives the days (schema.org `DayOfWeek` names) and the times on a
 * 24-hour clock ("09:00"); the French lines of the "Horaires d’ouverture"
 * card ("9h00–18h00", "Fermé") and the home page's structured data
 * (`openingHoursSpecification`) are both made from them.
 */
import { typesetAll } from "~/utils/typography";
import { formatTime } from "~/utils/format";
import type { DayOfWeek, OpeningHours } from "./types";

function row(days: string, dayOfWeek: DayOfWeek[], time?: { opens: string; closes: string }): OpeningHours {
  return {
    days,
    dayOfWeek,
    opens: time?.opens ?? null,
    closes: time?.closes ?? null,
    hours: time ? `${formatTime(time.opens)}–${formatTime(time.closes)}` : "Fermé",
  };
}

/** Shown in the "Horaires d’ouverture" card, in this order. */
export const openingHours: OpeningHours[] = /* @__PURE__ */ typesetAll([
  row("Lundi – vendredi", ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"], {
    opens: "09:00",
    closes: "18:00",
  }),
  row("Samedi", ["Saturday"], { opens: "09:00", closes: "16:00" }),
  row("Dimanche", ["Sunday"]),
]);
