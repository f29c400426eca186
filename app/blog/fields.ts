/**
 * The desk's article editor, as both the server and the browser read it:
 * the fields' limits and the French names of the cards' icons and colours.
 */
import type { IconName } from "~/components/icon";
import type { ThemeColor } from "~/content/types";

/** Limits of the fields, as the files' front matter has them (app/blog/articles.server.ts). */
export const ARTICLE_LIMITS = { title: 120, author: 80, excerpt: 300, category: 60, body: 100_000 } as const;

/** The icons an article may carry, with what they show, in French (the desk's select). */
export const ICON_CHOICES: Record<IconName, string> = {
  ShieldAlert: "Bouclier avec point d’exclamation (arnaques)",
  ShieldCheck: "Bouclier coché (sécurité)",
  Sparkles: "Étincelles (intelligence artificielle)",
  TrainFront: "Train (applications, transports)",
  Lightbulb: "Ampoule (astuce)",
  HeartHandshake: "Mains et cœur (entraide)",
};

/** The theme colours an article may carry, in French. */
export const COLOR_CHOICES: Record<ThemeColor, string> = {
  primary: "Bleu",
  secondary: "Vert",
  accent: "Orange",
};

/** The editor's text fields as the owner typed them, and the "à la une" box. */
export type ArticleFields = Record<
  "title" | "author" | "excerpt" | "category" | "body" | "icon" | "color" | "video",
  string
> & {
  featured: boolean;
};

/** A field the editor can show an error beside. */
export type ArticleFieldName = keyof ArticleFields | "publishDate" | "picture" | "pictureAlt";
