/**
 * The words and pictures of the home page's sections, gathered on the server
 * for the route loaders (`/`; `/coordonnees` for the contact section; the
 * legal pages for the reveal button's labels).
 * They reach the browser as loader data, inside the page's HTML, instead of
 * inside its JavaScript: the section components only lay them out, so the
 * JavaScript the home page loads does not grow with its text.
 *
 * The owner still edits everything in `app/content/`; this module only picks
 * it up and resolves each picture slot to its files (`app/utils/pictures.ts`).
 */
import { audienceCards, audienceSection } from "~/content/audience";
import { courses, coursesSection } from "~/content/courses";
import { about, blogSection, contactSection, guide, hero } from "~/content/home";
import { openingHours } from "~/content/hours";
import { identity } from "~/content/identity";
import { pictures } from "~/content/pictures";
import { devices, services, servicesSection } from "~/content/services";
import { statistics } from "~/content/statistics";
import type { PictureSlot } from "~/content/types";
import { engagementSection, values } from "~/content/values";
import { zones } from "~/content/zones";
import { formatChf, topicPreview } from "./format";
import { resolvePicture } from "./pictures";

/** What the `Picture` component shows: description, frame size and files of one slot. */
export function pictureData(slot: PictureSlot) {
  return { ...pictures[slot], ...resolvePicture(slot) };
}

/** A picture slot replaced by its data, in a piece of content. */
const withPicture = <T extends { picture: PictureSlot }>(item: T) => ({ ...item, picture: pictureData(item.picture) });

/** The contact section's text: cards, reveal hint, opening hours, inquiry card, zones. */
export function contactContent() {
  return { ...contactSection, openingHours, zones };
}

/** The labels of the "Révéler" / "Masquer" button (legal pages: the owner's e-mail address). */
export function revealLabels() {
  return { reveal: contactSection.reveal, hide: contactSection.hide };
}

/** The words of the blog's pages: title, introduction, "Lire l’article" and the newsletter box. */
export function blogWords() {
  const { title, intro, readMore, newsletter } = blogSection;
  return { title, intro, readMore, newsletter };
}

/** Everything the nine home sections show, in page order. */
export function homeContent() {
  return {
    hero: { ...hero, picture: pictureData("hero") },
    statistics,
    guide: { ...guide, name: identity.name, picture: pictureData("portrait") },
    audience: { ...audienceSection, cards: audienceCards.map(withPicture) },
    // Prices formatted here ("CHF 55.–"): the browser need not load the Swiss number format.
    services: {
      ...servicesSection,
      services: services.map((service) => ({ ...withPicture(service), priceLabel: formatChf(service.price.chf) })),
      devices,
    },
    engagement: { ...engagementSection, values },
    // Only the topics a card shows travel to the page, with the "... et N autres sujets" line.
    courses: {
      ...coursesSection,
      courses: courses.map(({ topics, ...course }) => ({ ...course, ...topicPreview(topics) })),
    },
    about: { ...about, captions: about.captions.map(withPicture) },
    blog: blogWords(),
    contact: contactContent(),
  };
}

/** The loader data of the home sections (see `homeContent`). */
export type HomeContent = ReturnType<typeof homeContent>;
/** The data of one picture (see `pictureData`). */
export type PictureData = ReturnType<typeof pictureData>;
