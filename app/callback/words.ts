/**
 * The callback request's words (issue 23, item 1), kept apart from its zod
 * schema so that the desk and the pages can show them without loading zod:
 * the half-days a person may be called (the opening hours' days, lundi matin
 * to samedi matin: app/content/hours.ts), and the French messages.
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

/** What the callback form says to the visitor. */
export const callbackMessages = {
  halfDays: "Cochez au moins une demi-journée qui vous convient",
  saveError: "Votre demande n’a pas pu être enregistrée. Veuillez réessayer dans un instant, ou appelez-moi.",
  tooLarge: "Le message envoyé est trop long. Veuillez le raccourcir et réessayer.",
  rateLimited:
    "Vous avez envoyé plusieurs demandes en peu de temps. Veuillez patienter quelques minutes avant de réessayer, ou appelez-moi directement.",
  successTitle: "C’est noté, je vous rappelle",
  successText: "Je vous appelle dans les deux jours ouvrables, à l’un des moments que vous avez choisis.",
} as const;
