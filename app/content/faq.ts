/**
 * The questions seniors and their families ask (`/questions`, issue 23 item
 * 4), with short answers. Every price, place and number comes from the other
 * content files (services, courses, zones, hours), never written twice; the
 * page and its `FAQPage` JSON-LD (app/seo/structured-data.server.ts) are both
 * made from this list.
 */
import { typesetAll } from "~/utils/typography";
import { formatChf } from "~/utils/format";
import { courseBookingInfo } from "./courses";
import { INVOICE_RULE, PAYMENT_OVERVIEW } from "./payment";
import type { SiteSettings } from "./shapes";
import { openingHoursOf } from "./hours";
import { servicesWith } from "./services";
import { zonesOf } from "./zones";

/** One question: its answer in short paragraphs (plain text), and links that take it further. */
export interface FaqEntry {
  /** The anchor of the question on the page (`/questions#prix`). */
  id: string;
  question: string;
  answer: string[];
  links: { href: string; label: string }[];
}

/**
 * The questions and answers, with the prices, towns and opening hours of the
 * owner's `settings` (Réglages). Never throws.
 */
export function faqOf(settings: Pick<SiteSettings, "prices" | "zones" | "hours">): FaqEntry[] {
  const services = servicesWith(settings.prices);
  const price = (id: string) => {
    const service = services.find((item) => item.id === id)!;
    return `${formatChf(service.price.chf)} par ${service.price.per}`;
  };
  const towns = zonesOf(settings.zones)
    .map((zone) => `${zone.canton} (${zone.towns.join(", ")})`)
    .join(", ");
  const hours = openingHoursOf(settings.hours)
    .map((row) => `${row.days.toLowerCase()} ${row.hours.toLowerCase()}`)
    .join(", ");

  return typesetAll([
    {
      id: "debutant",
      question: "Je n’y connais rien. Est-ce que c’est pour moi ?",
      answer: [
        "Oui. La plupart des personnes que j’accompagne commencent de zéro. Je pars de ce que vous savez déjà, j’explique avec des mots simples et je répète autant que nécessaire. Aucune question n’est bête.",
      ],
      links: [{ href: "/#services", label: "Mes services" }],
    },
    {
      id: "prix",
      question: "Combien cela coûte-t-il ?",
      answer: [
        `Cours en petit groupe : ${price("small-group")}. Cours individuel : ${price("one-to-one-course")}. Aide par téléphone ou à distance : ${price("one-to-one-support")}.`,
        "Je vous annonce le prix avant de commencer : pas de surprise.",
      ],
      links: [{ href: "/#services", label: "Le détail des services et des prix" }],
    },
    {
      id: "paiement",
      question: "Comment est-ce que je paie ?",
      answer: [
        PAYMENT_OVERVIEW,
        INVOICE_RULE,
        "Je ne demande jamais de paiement par carte cadeau, par bon d’achat ou par un virement urgent.",
      ],
      links: [{ href: "/confiance", label: "Ce que je ne vous demanderai jamais" }],
    },
    {
      id: "groupe-ou-individuel",
      question: "Vaut-il mieux un cours en groupe ou un cours individuel ?",
      answer: [
        "En petit groupe (8 personnes au maximum), on apprend ensemble un thème, dans une ambiance conviviale, et c’est moins cher. En cours individuel, tout le temps est pour vous et pour vos questions, sur vos propres appareils.",
      ],
      links: [
        { href: "/cours", label: "Les prochains cours en groupe" },
        { href: "/rappel", label: "Me demander conseil par téléphone" },
      ],
    },
    {
      id: "zone",
      question: "Où vous déplacez-vous ?",
      answer: [
        `En Suisse romande : ${towns}. L’aide par téléphone ou à distance se fait sans déplacement, où que vous habitiez.`,
      ],
      links: [{ href: "/#contact", label: "Les zones d’intervention" }],
    },
    {
      id: "deplacement",
      question: "Le déplacement est-il compté en plus ?",
      answer: [
        "Dites-moi où vous habitez quand vous prenez rendez-vous : je vous indique le prix complet, déplacement compris, avant de venir.",
      ],
      links: [{ href: "/rappel", label: "Être rappelé(e)" }],
    },
    {
      id: "apporter",
      question: "Que faut-il apporter à un cours ?",
      answer: [
        courseBookingInfo.bring,
        "Vos mots de passe restent à vous : vous les tapez vous-même, je ne vous les demande jamais.",
      ],
      links: [{ href: "/cours", label: "Les cours" }],
    },
    {
      id: "appareils",
      question: "Sur quels appareils pouvez-vous m’aider ?",
      answer: [
        "Sur les ordinateurs Windows et Mac, les smartphones et tablettes Android (Samsung et les autres marques) et les iPhone et iPad.",
      ],
      links: [{ href: "/#services", label: "Mes services" }],
    },
    {
      id: "annuler",
      question: "Et si je dois annuler ?",
      answer: [
        "Pour un cours en groupe, le lien reçu par e-mail vous permet d’annuler vous-même, et votre place va à une autre personne. Sans e-mail, ou pour un rendez-vous individuel, appelez-moi simplement.",
      ],
      links: [{ href: "/cours", label: "Les cours" }],
    },
    {
      id: "famille",
      question: "Je cherche de l’aide pour mon père ou ma mère. Comment faire ?",
      answer: [
        "Vous pouvez inscrire un proche à un cours en indiquant vos coordonnées et les siennes, ou me demander de l’appeler. Je m’adresse toujours directement à la personne, avec patience.",
      ],
      links: [
        { href: "/cours", label: "Inscrire un proche à un cours" },
        { href: "/rappel", label: "Demander un rappel" },
      ],
    },
    {
      id: "joindre",
      question: "Quand puis-je vous joindre ?",
      answer: [
        `Mes heures d’ouverture : ${hours}. Vous pouvez aussi laisser votre numéro : je vous rappelle dans les deux jours ouvrables.`,
      ],
      links: [
        { href: "/rappel", label: "Rappelez-moi" },
        { href: "/contact", label: "Écrire un message" },
      ],
    },
    {
      id: "appel",
      question: "Comment savoir que c’est vraiment vous qui appelez ?",
      answer: [
        "Quand vous faites une demande sur ce site, vous recevez un mot de code de deux mots, par exemple « pomme rouge ». Quand je vous appelle, je vous le dis au début de l’appel. En cas de doute, raccrochez et rappelez-moi au numéro affiché sur ce site.",
      ],
      links: [{ href: "/confiance", label: "Reconnaître mes appels et éviter les arnaques" }],
    },
    {
      id: "donnees",
      question: "Que faites-vous de mes données ?",
      answer: [
        "Je les utilise seulement pour vous répondre et organiser nos rendez-vous. Elles ne sont jamais vendues ; seuls les prestataires techniques nommés dans la politique de confidentialité les traitent pour moi. Vous pouvez me demander à tout moment de les voir ou de les effacer.",
      ],
      links: [{ href: "/confidentialite", label: "La politique de confidentialité" }],
    },
  ]);
}
