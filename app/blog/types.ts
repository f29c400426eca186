/** Shapes of the blog, shared by server and browser. */
import type { IconName } from "~/components/icon";
import type { ThemeColor } from "~/content/types";

/** What an article card shows (no body). */
export interface ArticleSummary {
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  /** ISO date, e.g. "2024-11-15". */
  date: string;
  /** The same date in French, e.g. "15 novembre 2024" (`formatDate`, made on the server: no date formatting in the browser). */
  dateLabel: string;
  /** ISO date of the last real revision, when the front matter gives one (`updated`), and the same in French. */
  updated?: string;
  updatedLabel?: string;
  /** Minutes. */
  readTime: number;
  author: string;
  icon: IconName;
  color: ThemeColor;
  featured: boolean;
  /** YouTube address, when the article has a video. */
  video?: string;
}

/** A whole article: its summary and its body as HTML. */
export interface Article extends ArticleSummary {
  html: string;
}
