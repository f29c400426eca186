/**
 * The half-days a person asking to be called back may choose (issue 23,
 * item 1: the opening hours' days, lundi matin to samedi matin,
 * app/content/hours.ts), stored in a request's `half_days` (table
 * `contacts`, kind "rappel"): the callback form offers them, the desk's
 * inbox and the notification show them. Plain data, no zod.
 */

/** The half-days that may suit, in the week's order: stored values and French labels. */
export const HALF_DAYS = [
  { value: "lundi-matin", label: "Lundi matin" },
  { value: "lundi-apres-midi", label: "Lundi après-midi" },
  { value: "mardi-matin", label: "Mardi matin" },
  { value: "mardi-apres-midi", label: "Mardi après-midi" },
  { value: "mercredi-matin", label: "Mercredi matin" },
  { value: "mercredi-apres-midi", label: "Mercredi après-midi" },
  { value: "jeudi-matin", label: "Jeudi matin" },
  { value: "jeudi-apres-midi", label: "Jeudi après-midi" },
  { value: "vendredi-matin", label: "Vendredi matin" },
  { value: "vendredi-apres-midi", label: "Vendredi après-midi" },
  { value: "samedi-matin", label: "Samedi matin" },
] as const;

export type HalfDay = (typeof HALF_DAYS)[number]["value"];

/** The French labels of stored half-days, in the week's order, joined by commas ("Lundi matin, Jeudi après-midi"). */
export function halfDaysText(values: readonly string[] | null | undefined): string {
  const chosen = HALF_DAYS.filter((halfDay) => values?.includes(halfDay.value)).map((halfDay) => halfDay.label);
  return chosen.length ? chosen.join(", ") : "(aucune)";
}
