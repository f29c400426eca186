/**
 * Reads and checks the `<head>` metadata of HTML pages, with htmlparser2.
 *
 * `readHeadMetadata(html)` gives what the page's `<head>` declares: title,
 * description, canonical URL, robots, Open Graph / Twitter properties and
 * the parsed JSON-LD blocks (elements outside `<head>`, such as an SVG's
 * `<title>`, are ignored).
 *
 * `metadataProblems(html)` lists what a page lacks. Every page needs a
 * non-empty `<title>` and `<meta name="description">`; a page that search
 * engines may index also needs an absolute `<link rel="canonical">`. A page
 * marked `noindex` (legal pages, error pages) needs none: it is kept out of
 * the index, so it has no preferred URL to declare, and Google advises
 * against mixing the two signals
 * (https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls).
 *
 * Nothing is prerendered any more: the SEO test
 * (tests/integration/seo.test.ts) runs `metadataProblems` on every page of
 * the sitemap and every noindex page as the server serves them, and fails
 * naming each page and what it lacks.
 */
import { Parser } from "htmlparser2";

/** What a page's `<head>` declares; `null` where the tag is absent. */
export interface HeadMetadata {
  title: string | null;
  description: string | null;
  canonical: string | null;
  robots: string | null;
  /** `<meta property|name=… content=…>` other than description and robots: og:*, article:*, twitter:*. */
  properties: Record<string, string>;
  /** The parsed content of each `<script type="application/ld+json">`. */
  jsonLd: unknown[];
}

/**
 * Reads the metadata of an HTML document's `<head>`.
 * @throws SyntaxError when a JSON-LD block is not valid JSON.
 */
export function readHeadMetadata(html: string): HeadMetadata {
  const found: HeadMetadata = {
    title: null,
    description: null,
    canonical: null,
    robots: null,
    properties: {},
    jsonLd: [],
  };
  let inHead = false;
  let capture: "title" | "ld+json" | null = null;
  let text = "";
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "head") inHead = true;
        if (!inHead) return;
        if (name === "title") capture = "title";
        if (name === "script" && attributes.type === "application/ld+json") capture = "ld+json";
        if (capture) text = "";
        if (name === "meta" && attributes.content !== undefined) {
          const key = attributes.name ?? attributes.property;
          if (key === "description") found.description = attributes.content;
          else if (key === "robots") found.robots = attributes.content;
          else if (key) found.properties[key] = attributes.content;
        }
        if (name === "link" && (attributes.rel ?? "").split(/\s+/).includes("canonical"))
          found.canonical = attributes.href ?? "";
      },
      ontext(data) {
        if (capture) text += data;
      },
      onclosetag(name) {
        if (name === "head") inHead = false;
        if (capture === "title" && name === "title") found.title ??= text;
        if (capture === "ld+json" && name === "script") found.jsonLd.push(JSON.parse(text));
        if ((capture === "title" && name === "title") || (capture === "ld+json" && name === "script")) capture = null;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return found;
}

/** True when the page asks search engines not to index it. */
export function isNoindex(metadata: HeadMetadata): boolean {
  return (metadata.robots ?? "")
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes("noindex");
}

/** What the page lacks, in English (empty when nothing): see the module's comment for the rules. */
export function metadataProblems(html: string): string[] {
  const metadata = readHeadMetadata(html);
  const problems: string[] = [];
  if (!metadata.title?.trim()) problems.push("no <title> (or an empty one)");
  if (!metadata.description?.trim()) problems.push('no <meta name="description"> (or an empty one)');
  if (!isNoindex(metadata)) {
    if (metadata.canonical === null)
      problems.push('no <link rel="canonical"> (required on every page without noindex)');
    else if (!/^https?:\/\/[^/]+\//.test(metadata.canonical))
      problems.push(`<link rel="canonical"> is not an absolute URL (got "${metadata.canonical}")`);
  }
  return problems;
}
