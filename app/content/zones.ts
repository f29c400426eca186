/**
 * Where the trainer works (spec section 2 "contact", "Zones d'intervention"):
 * the three cantons, each with its main towns and how far the trainer goes.
 * `defaultZones` is what the site ships with; the owner changes the towns and
 * the coverage in Réglages (`/admin/reglages`); `zonesOf(settings)` gives the
 * list the pages show.
 */
import type { ZoneCode, ZonesSettings } from "./shapes";
import { typesetAll } from "~/utils/typography";
import type { Zone } from "./types";

/** The towns and coverage the site ships with, by canton. */
export const defaultZones: ZonesSettings = {
  VD: { towns: ["Lausanne", "Montreux", "Yverdon", "Nyon"], coverage: "Tout le canton" },
  GE: { towns: ["Genève", "Carouge", "Meyrin", "Vernier"], coverage: "Grand Genève" },
  FR: { towns: ["Fribourg", "Bulle", "Romont", "Morat"], coverage: "Villes principales" },
};

/** The cantons' French names, in the order the site lists them. */
const CANTONS: Record<ZoneCode, string> = { VD: "Vaud", GE: "Genève", FR: "Fribourg" };

/** The cantons' names, in the site's order ("Vaud", "Genève", "Fribourg"). */
export const cantonNames: string[] = Object.values(CANTONS);

/** The three cantons served, with their towns and coverage from `settings`, in this order. */
export function zonesOf(settings: ZonesSettings): Zone[] {
  return typesetAll(
    (Object.keys(CANTONS) as ZoneCode[]).map((code) => ({ canton: CANTONS[code], code, ...settings[code] })),
  );
}
