/**
 * Copy of the `#fracture-digitale` section: the three value cards (security
 * first, accessible innovation, respect and patience), the section title and
 * introduction on digital ageism, and the "Une Approche Humaine des
 * Technologies" text block. Comes from spec section 1 (the trainer as an
 * activist against digital ageism) and section 2 ("Home sections",
 * fracture-digitale).
 */
import { typesetAll } from "~/utils/typography";
import type { Value } from "./types";

/** The three value cards, in display order. */
export const values: Value[] = /* @__PURE__ */ typesetAll([
  {
    icon: "ShieldCheck",
    title: "La sécurité avant tout",
    text: "Avant d’explorer de nouvelles possibilités, vous apprenez à vous protéger. Mots de passe, arnaques, données personnelles : je vous donne les bons réflexes. Vous gardez ainsi le contrôle, en toute sérénité.",
    color: "primary",
  },
  {
    icon: "Lightbulb",
    title: "Une innovation accessible",
    text: "Les nouvelles technologies ne sont pas réservées aux jeunes. Je vous présente les outils d’aujourd’hui, comme l’intelligence artificielle, avec des mots simples. Vous choisissez ensuite ce qui vous est vraiment utile.",
    color: "secondary",
  },
  {
    icon: "HeartHandshake",
    title: "Respect et patience",
    text: "Chacun apprend à son rythme, et c’est très bien ainsi. Je réexplique autant de fois qu’il le faut, sans jamais juger. Toutes vos questions sont légitimes.",
    color: "accent",
  },
]);

/** Title, introduction and "approche humaine" text block of the `#fracture-digitale` section. */
export const engagementSection = /* @__PURE__ */ typesetAll({
  title: "Mon Engagement Contre l’Âgisme Numérique",
  intro:
    "L’âgisme numérique, c’est laisser de côté les personnes âgées quand tout passe par Internet : les billets de train, les paiements, les démarches administratives. Ce n’est pas une question d’âge, mais d’accompagnement. Je m’engage pour que chacun trouve sa place dans le monde numérique.",
  approach: {
    title: "Une Approche Humaine des Technologies",
    paragraphs: [
      "La technologie doit s’adapter aux personnes, et non l’inverse. Je commence toujours par écouter vos besoins et vos envies. Ensuite, nous avançons ensemble, pas à pas, sur vos propres appareils.",
      "Pas de jargon, pas de précipitation. J’explique avec des mots de tous les jours et je vous laisse faire vous-même. C’est en pratiquant que l’on prend confiance.",
      "Mon objectif est simple : que vous soyez autonome et serein(e) face au numérique. Vous restez libre de vos choix et maître de vos données.",
    ],
  },
});
