/**
 * Where the trainer works (spec section 2 "contact", "Zones d'intervention").
 */
import { typesetAll } from "~/utils/typography";
import type { Zone } from "./types";

/** The three cantons served, with their main towns, in this order. */
export const zones: Zone[] = /* @__PURE__ */ typesetAll([
  { canton: "Vaud", code: "VD", towns: ["Lausanne", "Montreux", "Yverdon", "Nyon"], coverage: "Tout le canton" },
  { canton: "Genève", code: "GE", towns: ["Genève", "Carouge", "Meyrin", "Vernier"], coverage: "Grand Genève" },
  { canton: "Fribourg", code: "FR", towns: ["Fribourg", "Bulle", "Romont", "Morat"], coverage: "Villes principales" },
]);
