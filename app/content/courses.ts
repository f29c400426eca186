/**
 * Copy of the `#cours` section: the four course cards (title, subtitle,
 * description, five topics, duration, level, group size) and the section's
 * headings, including the "Formation sur mesure" block. Comes from spec
 * section 2 ("Home sections", cours), section 3 ("Course") and section 9
 * ("Courses").
 */
import { typesetAll } from "~/utils/typography";
import { INVOICE_RULE, PAYMENT_MODES, paymentSentence, type PaymentMode } from "./payment";
import type { Course } from "./types";

/** The four course cards, in display order; each card shows only its first three topics. */
export const courses: Course[] = /* @__PURE__ */ typesetAll([
  {
    id: "securite",
    title: "Sécurité et protection",
    subtitle: "Utiliser Internet sans crainte",
    description:
      "Internet est très utile, mais il faut savoir éviter ses pièges. Vous apprenez à protéger vos données, votre argent et vos appareils, pas à pas.",
    topics: [
      "Créer des mots de passe solides",
      "Reconnaître un e-mail frauduleux",
      "Déjouer les arnaques par téléphone et par SMS",
      "Utiliser l’e-banking en toute sécurité",
      "Se connecter aux services en ligne avec SwissID",
    ],
    duration: "3 séances de 2h",
    level: "Débutant",
    groupSize: "6 à 8 personnes",
    color: "primary",
  },
  {
    id: "intelligence-artificielle",
    title: "Intelligence artificielle",
    subtitle: "Découvrir les assistants IA, simplement",
    description:
      "ChatGPT et les autres assistants IA peuvent vous rendre de vrais services au quotidien. Vous apprenez à les utiliser avec bon sens, en connaissant leurs limites.",
    topics: [
      "Comprendre ce qu’est l’intelligence artificielle",
      "Poser une question à un assistant IA",
      "Rédiger un e-mail avec un assistant IA",
      "Vérifier les réponses et repérer les erreurs",
      "Savoir ce qu’il ne faut jamais confier à une IA",
    ],
    duration: "2 séances de 2h",
    level: "Intermédiaire",
    groupSize: "4 à 6 personnes",
    color: "secondary",
  },
  {
    id: "applications-mobiles",
    title: "Applications mobiles",
    subtitle: "Les applications utiles au quotidien",
    description:
      "Votre smartphone peut vous simplifier la vie. Ensemble, nous installons et utilisons les applications les plus pratiques en Suisse.",
    topics: [
      "Acheter ses billets avec l’application CFF",
      "Payer et envoyer de l’argent avec TWINT",
      "Écrire et appeler ses proches avec WhatsApp",
      "Consulter la météo avec MétéoSuisse",
      "Installer une application en toute sécurité",
    ],
    duration: "4 séances de 1h30",
    level: "Débutant",
    groupSize: "6 à 8 personnes",
    color: "accent",
  },
  {
    id: "cafe-numerique",
    title: "Café numérique",
    subtitle: "Un moment convivial pour poser vos questions",
    description:
      "Une fois par mois, nous nous retrouvons autour d’un café pour parler numérique. Vous venez avec vos questions et vos appareils, et nous cherchons les réponses ensemble.",
    topics: [
      "Vos questions du moment",
      "Les nouveautés utiles, expliquées simplement",
      "Un thème différent chaque mois",
      "Des astuces partagées entre participants",
      "De l’aide sur vos propres appareils",
    ],
    duration: "Une rencontre par mois, 1h30",
    level: "Tous niveaux",
    groupSize: "8 à 12 personnes",
    color: "primary",
  },
]);

/** Headings of the `#cours` section and its "Formation sur mesure" block. */
export const coursesSection = /* @__PURE__ */ typesetAll({
  title: "Mes cours",
  intro:
    "Des cours en petit groupe, chacun sur un thème précis, pour progresser pas à pas. Chaque participant repart avec un aide-mémoire écrit.",
  custom: {
    title: "Formation sur mesure",
    text: "Vous avez un besoin particulier, ou vous représentez une association ou une commune? Je prépare un programme adapté à votre groupe, à son niveau et à son rythme.",
    button: "Demander un programme personnalisé",
  },
});

/**
 * What a registered person needs to know, shown on the confirmation page
 * and in the confirmation and reminder mails.
 */
export const courseBookingInfo = /* @__PURE__ */ typesetAll({
  bring:
    "Votre appareil (smartphone, tablette ou ordinateur portable), bien chargé, avec son chargeur. Si vous les connaissez, notez vos mots de passe (par exemple celui de votre compte Apple ou Google).",
  /** How the price is paid, by the session's mode or the registration's way (app/content/payment.ts). */
  payment: Object.fromEntries(PAYMENT_MODES.map((mode) => [mode, paymentSentence(mode)])) as Record<
    PaymentMode,
    string
  >,
  /** When an invoice may come, and how to recognise it (app/content/payment.ts). */
  invoice: INVOICE_RULE,
  cancel: "Un empêchement ? Annulez votre inscription avec le lien ci-dessous : votre place ira à une autre personne.",
});
