/**
 * « Ce que je ne vous demanderai jamais » (`/confiance`, issue 23 item 3):
 * the trainer's promises, how to check that a call is really his, and what
 * to do after a scam, with the sources named. Plain French, vous.
 *
 * Sources (checked November 2026): the Office fédéral de la cybersécurité
 * (OFCS, formerly the Centre national pour la cybersécurité, NCSC), its
 * reporting form https://www.report.ncsc.admin.ch/ and its site
 * https://www.ncsc.admin.ch/ ; the police emergency number 117; the person's
 * own bank.
 */
import { typesetAll } from "~/utils/typography";
import { INVOICE_RULE, PAYMENT_OVERVIEW } from "./payment";

/** A link the page names as its source or as the place to go. */
export interface TrustLink {
  href: string;
  label: string;
}

export const trustPage = /* @__PURE__ */ typesetAll({
  title: "Ce que je ne vous demanderai jamais",
  intro:
    "Les escrocs se font souvent passer pour un technicien, une banque ou la police. Voici ce que je ne ferai jamais, et comment vérifier que c’est bien moi qui vous appelle ou qui vous écris.",
  neverTitle: "Je ne vous demanderai jamais…",
  never: [
    {
      title: "un mot de passe ou un code reçu par SMS",
      text: "Ni par téléphone, ni par e-mail, ni en cours. Pendant un cours, c’est vous qui tapez vos mots de passe, sur votre appareil. Un code reçu par SMS ne se donne à personne : ni à moi, ni à votre banque, ni à la poste.",
    },
    {
      title: "de prendre la main sur votre appareil sans que vous l’ayez demandé",
      text: "Je ne prends la main à distance que si vous m’avez appelé pour cela, avec votre accord, et vous voyez tout ce que je fais. Un inconnu qui vous appelle pour « réparer » votre ordinateur est un escroc : raccrochez.",
    },
    {
      title: "de payer avec des cartes cadeaux",
      text: `Ni cartes cadeaux, ni bons d’achat, ni cryptomonnaie, ni virement urgent. ${PAYMENT_OVERVIEW} Je vous annonce le prix avant de commencer. ${INVOICE_RULE}`,
    },
    {
      title: "de vous rendre visite sans rendez-vous",
      text: "Je viens chez vous seulement au jour et à l’heure convenus ensemble. Si quelqu’un sonne à votre porte de ma part sans rendez-vous, n’ouvrez pas.",
    },
  ],
  checkTitle: "Comment vérifier que c’est bien moi",
  check: [
    {
      title: "Le mot de code",
      text: "Quand vous faites une demande sur ce site (un message, un rappel ou une inscription à un cours), vous recevez un mot de code de deux mots, par exemple « pomme rouge ». Il s’affiche à l’écran juste après l’envoi : notez-le. Pour une inscription à un cours, il figure aussi dans l’e-mail de confirmation. Quand je vous appelle, je vous le dis au début de l’appel. Si la personne ne le connaît pas, ce n’est pas moi.",
    },
    {
      title: "Rappeler vous-même",
      text: "En cas de doute, raccrochez. Puis rappelez-moi au numéro affiché sur ce site, en le tapant vous-même. Ne rappelez jamais un numéro donné pendant un appel suspect ou dans un SMS.",
    },
    {
      title: "Prendre son temps",
      text: "Je ne vous presserai jamais. Quelqu’un qui vous dit qu’il faut agir tout de suite, que votre argent est en danger ou que c’est un secret cherche à vous tromper. Parlez-en d’abord à un proche.",
    },
  ],
  afterTitle: "Vous pensez avoir été victime d’une arnaque",
  after: [
    {
      title: "Votre banque, tout de suite",
      text: "Si vous avez donné un code, des données de carte ou fait un paiement, appelez immédiatement votre banque, au numéro écrit au dos de votre carte bancaire ou sur vos relevés. Elle peut bloquer la carte et parfois arrêter un paiement.",
    },
    {
      title: "La police",
      text: "En cas d’urgence, si l’escroc est chez vous ou doit venir chercher de l’argent ou des objets, appelez le 117. Pour porter plainte, adressez-vous à la police de votre canton.",
    },
    {
      title: "L’Office fédéral de la cybersécurité",
      text: "Signalez l’arnaque (faux appel, e-mail ou SMS frauduleux) à l’Office fédéral de la cybersécurité (OFCS, anciennement Centre national pour la cybersécurité, NCSC) avec son formulaire en ligne. Cela aide à protéger d’autres personnes. Le signalement ne remplace pas une plainte à la police.",
      link: { href: "https://www.report.ncsc.admin.ch/", label: "Le formulaire de signalement de l’OFCS" },
    },
    {
      title: "Et moi",
      text: "Vous pouvez aussi m’appeler : je vous aide à faire le point, à changer vos mots de passe et à sécuriser votre appareil, sans jugement.",
    },
  ],
  sourcesTitle: "Sources",
  sources: [
    {
      href: "https://www.ncsc.admin.ch/",
      label: "Office fédéral de la cybersécurité (OFCS) : conseils et alertes sur les arnaques en cours",
    },
    {
      href: "https://www.report.ncsc.admin.ch/",
      label: "OFCS : formulaire pour signaler un incident ou une arnaque",
    },
    { href: "tel:117", label: "Police : 117, numéro d’urgence gratuit dans toute la Suisse" },
  ] as TrustLink[],
});
