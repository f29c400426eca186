/**
 * The four headline figures shown as statistic tiles in the hero (`#accueil`)
 * and again in the about section (`#a-propos`). Values come from spec section 1
 * ("Claims shown") and section 9 ("Other": 500+ seniors, 15+ years, 3 cantons,
 * 100% kindness).
 */
import { typesetAll } from "~/utils/typography";
import type { Statistic } from "./types";

/** The four statistic tiles, in display order. */
export const statistics: Statistic[] = /* @__PURE__ */ typesetAll([
  {
    value: "500+",
    label: "Seniors formés",
    description: "Accompagnés pas à pas, avec patience",
  },
  {
    value: "15+",
    label: "Années d’expérience",
    description: "Dans l’informatique et la formation",
  },
  {
    value: "3",
    label: "Cantons",
    description: "Vaud, Genève et Fribourg",
  },
  {
    value: "100\u00a0%",
    label: "Bienveillance",
    description: "Toutes les questions sont les bienvenues",
  },
]);
