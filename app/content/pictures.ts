/**
 * Every picture of the site: its French description (`alt`) and the size
 * it is laid out at.
 *
 * To replace a picture, put a file named after its slot in
 * `app/content/pictures/` (e.g. `hero.jpg` or `hero.webp` in place of
 * `hero.svg`) and delete the old one: photos are converted at build time to
 * AVIF and WebP at several widths. The width and height below give the
 * frame's proportions; a photo of other proportions is cropped to fit, from
 * its centre. Update the `alt` so it describes the new picture.
 */
import { typesetAll } from "~/utils/typography";
import type { PictureSlot } from "./types";

export interface PictureInfo {
  /** What a blind visitor should know about the picture, in French. */
  alt: string;
  /** Frame size in CSS pixels at its largest (also the aspect ratio). */
  width: number;
  height: number;
}

export const pictures: Record<PictureSlot, PictureInfo> = /* @__PURE__ */ typesetAll({
  hero: {
    alt: "Une femme et un homme âgés, souriants sur un canapé, découvrent une tablette et un smartphone avec l’aide d’un formateur, devant une fenêtre donnant sur un lac et les Alpes.",
    width: 1200,
    height: 900,
  },
  portrait: {
    alt: "Portrait illustré du formateur, un homme souriant d’une quarantaine d’années, cheveux bruns courts, chemise au col ouvert, un smartphone à la main.",
    width: 600,
    height: 750,
  },
  "audience-alone": {
    alt: "Une dame âgée, seule et perplexe devant un message d’alerte sur son ordinateur portable, avec les symboles d’une aide à distance et d’une aide à domicile.",
    width: 800,
    height: 500,
  },
  "audience-family": {
    alt: "Une fille adulte, le bras autour des épaules de son père âgé, lui montre quelque chose sur l’écran de son smartphone.",
    width: 800,
    height: 500,
  },
  "audience-friends": {
    alt: "Quatre amis âgés rient ensemble autour d’une table avec des cafés, du gâteau, un ordinateur portable et des smartphones.",
    width: 800,
    height: 500,
  },
  "audience-association": {
    alt: "Un public de personnes âgées assises écoute un formateur qui présente, sur un écran de projection, les icônes d’un cadenas et d’un smartphone.",
    width: 800,
    height: 500,
  },
  "service-group": {
    alt: "Un formateur accompagne cinq personnes âgées réunies autour d’une table, chacune avec sa tablette, son ordinateur ou son smartphone.",
    width: 800,
    height: 500,
  },
  "service-individual": {
    alt: "Cours particulier à domicile : le formateur et une dame âgée, assis côte à côte devant un ordinateur portable, près d’une lampe et d’une plante.",
    width: 800,
    height: 500,
  },
  "service-remote": {
    alt: "Assistance à distance : un homme âgé, au téléphone chez lui, suit sur son ordinateur un écran partagé tandis que le formateur apparaît en appel vidéo.",
    width: 800,
    height: 500,
  },
  "about-group": {
    alt: "Formation collective dans une salle communautaire : des personnes âgées assises avec leur tablette suivent les explications du formateur.",
    width: 800,
    height: 600,
  },
  "about-one-to-one": {
    alt: "Gros plan sur la main d’une personne âgée tenant un smartphone et sur le doigt du formateur qui lui indique une application à l’écran.",
    width: 800,
    height: 600,
  },
  "about-pedagogy": {
    alt: "Un homme âgé prend des notes avec le formateur à ses côtés, devant trois grandes fiches illustrées et numérotées, une tasse de thé sur la table.",
    width: 800,
    height: 600,
  },
});
