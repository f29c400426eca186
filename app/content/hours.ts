/**
 * Opening hours (spec section 9: Mon-Fri 9h-18h, Sat 9h-16h, Sun closed;
 * evening training on request, section 2 "contact").
 */
import type { OpeningHours } from "./types";

/** Shown in the "Horaires d’ouverture" card, in this order. */
export const openingHours: OpeningHours[] = [
  { days: "Lundi – vendredi", hours: "9h00–18h00" },
  { days: "Samedi", hours: "9h00–16h00" },
  { days: "Dimanche", hours: "Fermé" },
];
