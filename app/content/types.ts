/**
 * Shapes of the site's content. Every word, price and picture a visitor sees
 * lives in `app/content/` as data of these types; components only lay it out.
 */

/**
 * The lucide icons content may name (`icon: "ShieldCheck"`); app/components/icon.tsx
 * maps each to its component, and fails type-checking when one is missing.
 */
export type IconName = "HeartHandshake" | "Lightbulb" | "ShieldAlert" | "ShieldCheck" | "Sparkles" | "TrainFront";

/** One of the three theme colours defined in `app/app.css` (tokens `--color-primary`, ...). */
export type ThemeColor = "primary" | "secondary" | "accent";

/** A picture slot: the file `app/content/pictures/{slot}.(svg|jpg|jpeg|png|webp)`. */
export type PictureSlot =
  | "hero"
  | "portrait"
  | "audience-alone"
  | "audience-family"
  | "audience-friends"
  | "audience-association"
  | "service-group"
  | "service-individual"
  | "service-remote"
  | "about-group"
  | "about-one-to-one"
  | "about-pedagogy";

/** A price in Swiss francs, shown as "CHF 55.–" followed by "/ {per}". */
export interface Price {
  /** Whole francs, e.g. 55. */
  chf: number;
  /** What the price is for, in French after "par", e.g. "séance", "heure". */
  per: string;
}

/** A headline figure, e.g. "500+" "Seniors formés". */
export interface Statistic {
  /** The figure as shown, e.g. "500+", "100 %". */
  value: string;
  label: string;
  description: string;
}

/** One of the service cards of the `#services` section (spec section 3 "Service card"). */
export interface Service {
  id: string;
  title: string;
  description: string;
  picture: PictureSlot;
  features: string[];
  price: Price;
  /** Short line under the price, e.g. "Groupes de 4 à 8 personnes, 2h par séance". */
  priceNote: string;
  color: ThemeColor;
}

/** One of the course cards of the `#cours` section (spec section 3 "Course"). */
export interface Course {
  id: string;
  title: string;
  subtitle: string;
  description: string;
  /** Exactly five topics; the card shows the first three. */
  topics: [string, string, string, string, string];
  /** As shown, e.g. "3 séances de 2h". */
  duration: string;
  /** As shown, e.g. "Débutant". */
  level: string;
  /** As shown, e.g. "6 à 8 personnes". */
  groupSize: string;
  color: ThemeColor;
}

/** One of the value cards of the `#fracture-digitale` section. */
export interface Value {
  /** A lucide icon registered in `app/components/icon.tsx`, e.g. "ShieldCheck". */
  icon: IconName;
  title: string;
  text: string;
  color: ThemeColor;
}

/** One card of the audience section (spec section 3 "Audience card"). */
export interface AudienceCard {
  id: string;
  picture: PictureSlot;
  title: string;
  /** The reassuring text. */
  text: string;
  /** Gradient of the card, from one theme colour to another. */
  gradient: { from: ThemeColor; to: ThemeColor };
}

/** A day of the week, as schema.org names it (https://schema.org/DayOfWeek). */
export type DayOfWeek = "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";

/** Opening hours of one group of days. */
export interface OpeningHours {
  /** As shown, e.g. "Lundi – vendredi". */
  days: string;
  /** The days the row covers, e.g. Monday to Friday. */
  dayOfWeek: DayOfWeek[];
  /** Opening time on a 24-hour clock, "09:00"; null when closed. */
  opens: string | null;
  /** Closing time on a 24-hour clock, "18:00"; null when closed. */
  closes: string | null;
  /** As shown, made from `opens` and `closes`: "9h00–18h00", or "Fermé". */
  hours: string;
}

/** A canton served and its main towns. */
export interface Zone {
  canton: string;
  /** Two-letter code, e.g. "VD". */
  code: string;
  towns: string[];
  /** e.g. "Tout le canton". */
  coverage: string;
}
