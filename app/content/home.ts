/**
 * Copy of the home page sections that have no file of their own: the hero
 * (`#accueil`), the "Votre guide numérique personnel" block, the about section
 * (`#a-propos`: captions, biography, qualifications, quote, partner badge), the
 * blog section (`#blog`: headings, three article teasers, newsletter box) and
 * the contact section (`#contact`: cards, reveal toggle, hours, inquiry card,
 * zones heading). Comes from spec section 1, section 2 ("Home sections"),
 * section 3 ("Blog article") and section 9 (read times, monthly newsletter,
 * opening hours).
 */
import { typesetAll } from "~/utils/typography";
import type { PictureSlot } from "./types";

/** Copy of the hero section (`#accueil`). */
export const hero = /* @__PURE__ */ typesetAll({
  badge: "Formation de qualité par un ingénieur",
  title: "Maîtrisez l’informatique",
  titleHighlight: "en toute confiance",
  intro:
    "Ordinateur, smartphone, Internet : je vous accompagne avec patience, à votre rythme et sur vos propres appareils. Je me déplace dans les cantons de Vaud, de Genève et de Fribourg, ou je vous aide à distance.",
  primaryButton: "Découvrir nos services",
  secondaryButton: "Nous contacter",
});

/** Heading and text of the "Votre guide numérique personnel" block, shown beside the trainer's portrait. */
export const guide = /* @__PURE__ */ typesetAll({
  title: "Votre guide numérique personnel",
  paragraphs: [
    "Ingénieur de formation, j’ai choisi de transmettre mes connaissances aux seniors. Depuis plus de 15 ans, j’aide chacun à se sentir à l’aise avec l’ordinateur et le smartphone.",
    "Je prends le temps d’écouter vos besoins. J’explique avec des mots simples, sans jargon, et je répète aussi souvent que nécessaire.",
    "Mon but : que vous deveniez autonome et que vous profitiez du numérique en toute sérénité.",
  ],
});

/** Copy of the about section (`#a-propos`). */
export const about: {
  title: string;
  intro: string;
  captions: { picture: PictureSlot; title: string; text: string }[];
  biography: { title: string; text: string }[];
  qualificationsTitle: string;
  qualifications: string[];
  quote: { text: string; context: string };
  partner: { label: string; text: string };
} = /* @__PURE__ */ typesetAll({
  title: "À propos",
  intro:
    "Ingénieur de formation et formateur passionné, j’accompagne les seniors de Suisse romande vers plus d’autonomie numérique.",
  captions: [
    {
      picture: "about-group",
      title: "Formations collectives",
      text: "Des cours en petit groupe, conviviaux, où chacun progresse à son rythme.",
    },
    {
      picture: "about-one-to-one",
      title: "Accompagnement 1:1",
      text: "Un suivi individuel, chez vous ou à distance, centré sur vos besoins.",
    },
    {
      picture: "about-pedagogy",
      title: "Pédagogie adaptée",
      text: "Des explications simples, des aide-mémoire écrits et beaucoup de patience.",
    },
  ],
  biography: [
    {
      title: "Mon parcours",
      text: "Je suis ingénieur de formation. Pendant de nombreuses années, j’ai travaillé chaque jour avec les technologies. Peu à peu, j’ai vu combien de personnes âgées restaient à l’écart de ces outils. J’ai alors choisi de transmettre mes compétences aux seniors.",
    },
    {
      title: "Ma mission",
      text: "Aujourd’hui, presque tout passe par Internet : les paiements, les billets de train, les démarches administratives. Personne ne devrait en être exclu à cause de son âge. Ma mission est de lutter contre l’exclusion numérique et de redonner confiance à chacun. C’est aussi le sens de mon engagement contre l’âgisme numérique.",
    },
    {
      title: "Mon approche",
      text: "J’avance à votre rythme, avec patience et sans jargon. Nous travaillons sur vos propres appareils, pour que vous retrouviez facilement vos repères à la maison. Après chaque séance, vous recevez un aide-mémoire écrit, étape par étape. Et nous répétons autant qu’il le faut : c’est ainsi que l’on apprend.",
    },
  ],
  qualificationsTitle: "Qualifications et engagements",
  qualifications: [
    "Ingénieur de formation",
    "Formateur d’adultes",
    "Formateur officiel d’une association d’aide aux seniors",
    "Spécialiste de la sécurité numérique",
    "Plus de 15 ans d’expérience",
    "Engagé contre l’âgisme numérique",
  ],
  quote: {
    text: "Il n’y a pas de question bête. Chacun mérite qu’on prenne le temps de lui expliquer, avec patience et respect.",
    context: "Ma conviction de formateur",
  },
  partner: {
    label: "Partenaire",
    text: "Formateur officiel d’une association romande d’aide aux seniors",
  },
});

/** Headings of the blog section (`#blog`) and its newsletter box. */
export const blogSection = /* @__PURE__ */ typesetAll({
  title: "Blog & Ressources",
  intro: "Des guides pratiques et des conseils simples, pour continuer à apprendre à votre rythme entre deux cours.",
  readMore: "Lire l’article",
  newsletter: {
    title: "Restez informé(e)",
    text: "Une fois par mois, recevez mes conseils pratiques et mes mises en garde contre les arnaques du moment.",
    placeholder: "Votre adresse e-mail",
    button: "S’abonner",
    note: "Vous pouvez vous désabonner à tout moment. Vos données restent privées.",
  },
});

/** Copy of the contact section (`#contact`). */
export const contactSection = /* @__PURE__ */ typesetAll({
  title: "Contactez-nous",
  intro:
    "Une question, un besoin, une envie d’apprendre? Je vous réponds avec plaisir. Choisissez le moyen qui vous convient le mieux.",
  reveal: "Révéler",
  hide: "Masquer",
  /** The hint above the button, while it reads "Révéler" and once it reads "Masquer". */
  revealHints: {
    reveal:
      "Pour les protéger des robots qui envoient des messages indésirables, mes coordonnées sont masquées : cliquez sur « Révéler » pour les afficher.",
    hide: "Mes coordonnées sont affichées. Cliquez sur « Masquer » pour les cacher de nouveau.",
  },
  cards: {
    // Its note, the weekday opening hours, is added from the owner's settings (`contactContent`).
    phone: { title: "Téléphone" },
    email: { title: "E-mail", note: "Réponse sous 24h" },
    whatsapp: {
      title: "WhatsApp",
      note: "Pour un message écrit ou vocal",
      link: "Ouvrir une discussion",
    },
  },
  hoursTitle: "Horaires d’ouverture",
  eveningNote: "Formations en soirée possibles sur demande.",
  inquiry: {
    title: "Demande de renseignements",
    text: "Vous souhaitez en savoir plus ou réserver un cours? Remplissez le formulaire : je vous recontacte très prochainement.",
    button: "Ouvrir le formulaire",
  },
  zonesTitle: "Zones d’intervention",
});
