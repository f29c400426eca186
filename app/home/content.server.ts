/**
 * The words and pictures of `app/content/` that the home page, `/coordonnees`
 * and the blog's pages show, gathered for their loaders: they reach the
 * browser as loader data, not inside its JavaScript (decision 007).
 */
import { audienceCards, audienceSection } from "~/content/audience";
import { courses, coursesSection } from "~/content/courses";
import { about, blogSection, contactSection, guide, hero } from "~/content/home";
import { consentText } from "~/newsletter/words";
import { openingHoursOf } from "~/content/hours";
import { devices, servicesSection, servicesWith } from "~/content/services";
import { statistics } from "~/content/statistics";
import type { PictureSlot } from "~/content/types";
import { engagementSection, values } from "~/content/values";
import { zonesOf } from "~/content/zones";
import type { SiteSettings } from "~/settings/schema";
import { formatChf, topicPreview } from "~/utils/format";
import { pictureData } from "~/content/picture-files";

/** A picture slot replaced by its data, in a piece of content. */
const withPicture = <T extends { picture: PictureSlot }>(item: T) => ({ ...item, picture: pictureData(item.picture) });

/** The contact section's text for the owner's `settings`: cards, reveal hint, opening hours, inquiry card, zones. */
export function contactContent(settings: Pick<SiteSettings, "hours" | "zones">) {
  const openingHours = openingHoursOf(settings.hours);
  const weekdays = openingHours[0]!;
  // The telephone card's note: the weekday opening hours, as the "Horaires d’ouverture" card writes them.
  const phone = { ...contactSection.cards.phone, note: `${weekdays.days}, ${weekdays.hours}` };
  return {
    ...contactSection,
    cards: { ...contactSection.cards, phone },
    openingHours,
    zones: zonesOf(settings.zones),
  };
}

/** The labels of the "Révéler" / "Masquer" button (legal pages: the owner's e-mail address). */
export function revealLabels() {
  return { reveal: contactSection.reveal, hide: contactSection.hide };
}

/** The words of the newsletter box, with the consent text it shows (app/newsletter/words.ts). */
export function newsletterBoxWords() {
  return { ...blogSection.newsletter, consent: consentText };
}

/** The words of the blog's pages: title, introduction, "Lire l’article" and the newsletter box. */
export function blogWords() {
  const { title, intro, readMore } = blogSection;
  return { title, intro, readMore, newsletter: newsletterBoxWords() };
}

/** Everything the nine home sections show, in page order, with the owner's `settings` (Réglages). */
export function homeContent(settings: SiteSettings) {
  return {
    hero: { ...hero, picture: pictureData("hero") },
    statistics,
    guide: { ...guide, name: settings.identity.name, picture: pictureData("portrait") },
    audience: { ...audienceSection, cards: audienceCards.map(withPicture) },
    // Prices formatted here ("CHF 55.–"): the browser need not load the Swiss number format.
    services: {
      ...servicesSection,
      services: servicesWith(settings.prices).map((service) => ({
        ...withPicture(service),
        priceLabel: formatChf(service.price.chf),
      })),
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
    contact: contactContent(settings),
  };
}

/** The loader data of the home sections (see `homeContent`). */
export type HomeContent = ReturnType<typeof homeContent>;
