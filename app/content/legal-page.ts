/**
 * The shape of a legal page's words (`/mentions-legales`,
 * `/confidentialite`), written in `legal.ts` and `privacy-notice.ts` and laid
 * out by app/legal/page.tsx.
 */

/** A provider that processes visitors' data on the owner's behalf. */
export interface Provider {
  /** Company name, e.g. "Infomaniak Network SA". */
  name: string;
  /** Postal address, one line. */
  address: string;
  /** Its website (https://...). */
  website: string;
  /** Country where it keeps and processes the data, in French ("Suisse", "Allemagne", ...). */
  country: string;
}

/** A piece of running text: words, or a link. */
export type Inline = string | { text: string; href: string };

/** Running text: one string, or words and links in reading order. */
export type RichText = string | Inline[];

/** One block of a section of a legal page. */
export type LegalBlock =
  | { kind: "paragraph"; text: RichText }
  | { kind: "list"; items: RichText[] }
  /** The operator's card: name, business name, IDE, postal address, e-mail behind "Révéler". */
  | { kind: "operator" }
  /** Providers, each with its address, website, country and what it does (`role`, optional). */
  | { kind: "providers"; items: { provider: Provider; role?: string }[] };

/** One section of a legal page: an `<h2>` with its anchor, then its blocks. */
export interface LegalSection {
  /** Anchor, e.g. "responsable" (`/confidentialite#responsable`). */
  id: string;
  title: string;
  blocks: LegalBlock[];
}

/** A legal page's words. */
export interface LegalPage {
  /** The `<h1>` and the `<title>`. */
  title: string;
  /** The meta description. */
  description: string;
  intro: string;
  /** "En bref": the essentials in a few lines, above the table of contents. */
  summary?: { title: string; items: string[] };
  /** Shows a table of contents with this heading. */
  tocTitle?: string;
  sections: LegalSection[];
}
