/**
 * Copy of the audience section ("À qui s’adressent nos services?"): its
 * title, introduction and closing line, and the four audience cards (a person
 * lost with digital matters, adult children, a group of friends organising a
 * Digiware get-together, an association or municipality). Comes from spec
 * section 1 (audience section) and section 3 ("Audience card").
 */
import { typesetAll } from "~/utils/typography";
import type { AudienceCard } from "./types";

/** Title, introduction and closing line of the audience section. */
export const audienceSection = /* @__PURE__ */ typesetAll({
  title: "À qui s’adressent nos services?",
  intro:
    "Que vous souhaitiez apprendre pour vous-même, aider un parent ou organiser un atelier, je vous propose une solution adaptée.",
  closing:
    "Votre situation ne figure pas dans cette liste? Contactez-moi : nous trouverons ensemble la solution qui vous convient.",
});

/** The four audience cards, in display order. */
export const audienceCards: AudienceCard[] = /* @__PURE__ */ typesetAll([
  {
    id: "alone",
    picture: "audience-alone",
    title: "Je me sens perdu(e) avec le numérique",
    text: "Vous n’êtes pas seul(e), et il n’est jamais trop tard pour apprendre. Je viens chez vous, ou je vous aide à distance lorsque c’est possible. Nous avançons à votre rythme, sans jargon.",
    gradient: { from: "primary", to: "secondary" },
  },
  {
    id: "family",
    picture: "audience-family",
    title: "Je cherche de l’aide pour mes parents",
    text: "Vous manquez de temps, ou la patience s’use parfois entre proches? C’est bien normal. Je prends le relais avec un accompagnement professionnel et bienveillant. Vos parents gagnent en autonomie, et vous en tranquillité.",
    gradient: { from: "secondary", to: "accent" },
  },
  {
    id: "friends",
    picture: "audience-friends",
    title: "Nous voulons apprendre entre amis",
    text: "Réunissez quelques amis pour une rencontre Digiware : un moment convivial où l’on apprend en s’amusant. Chacun vient avec son appareil et ses questions. J’anime la séance, vous en profitez.",
    gradient: { from: "accent", to: "primary" },
  },
  {
    id: "association",
    picture: "audience-association",
    title: "Nous souhaitons organiser une conférence ou un atelier",
    text: "Vous représentez une association, une commune ou un club d’aînés? Je donne des conférences et des ateliers adaptés à votre public. Nous définissons ensemble le thème et le format.",
    gradient: { from: "primary", to: "accent" },
  },
]);
