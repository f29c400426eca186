/**
 * Every page's `<head>` metadata, made in one place: each route's `meta`
 * export calls `pageMeta(args, options)`.
 *
 * - `<title>` "{title} | Formation & Assistance Informatique" (the home
 *   page's title stands alone) and `<meta name="description">`;
 * - `<link rel="canonical">`: `SITE_URL` + the page's path, absolute
 *   (https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls).
 *   Not on `noindex` pages: Google asks not to mix the two signals, and a
 *   page kept out of the index has no preferred URL to declare;
 * - Open Graph (https://ogp.me/): og:type (website, or article with
 *   article:published_time and article:section), og:title, og:description,
 *   og:url, og:image (absolute, with its width, height and alt), og:locale
 *   fr_CH, og:site_name; and the Twitter/X card summary_large_image
 *   (https://developer.x.com/en/docs/x-for-websites/cards/overview/markup);
 * - JSON-LD structured data (`<script type="application/ld+json">`, a data
 *   block that never runs), when the route's loader made some.
 *
 * `SITE_URL` and the site's share image are given by the root loader
 * (`app/root.tsx`; SITE_URL is read at build time for prerendered pages, from
 * the server's settings for pages rendered on request), so that the
 * description of the image, made from the home page's texts, stays out of
 * the browser's JavaScript.
 */
import type { MetaDescriptor } from "react-router";
import { identity } from "~/content/identity";
import { rootSiteName, titleTags } from "./error-meta";

/**
 * The site's name, "Formation & Assistance Informatique". Server code reads
 * it here; in the browser, `pageMeta` takes it from the root loader's data
 * (`siteName`), so that `identity` stays out of the JavaScript.
 */
export const siteName = `${identity.brand.line1} ${identity.brand.line2}`;

/** A share image: its site path (`/og/site.png`) and its French description. */
export interface ShareImage {
  path: string;
  alt: string;
}

/** Pixel size of every share image (`scripts/og-images.ts` writes them at this size). */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** The site path of the site's share image (`public/og/site.png`), used by every page without one of its own. */
export const SITE_SHARE_IMAGE_PATH = "/og/site.png";

/** The site path of an article's share image, `/og/blog/{slug}.png` (the file may not exist yet). */
export function articleShareImagePath(slug: string): string {
  return `/og/blog/${slug}.png`;
}

/** What the root loader gives every page's `meta`. */
export interface RootMetaData {
  /** The `SITE_URL` setting, e.g. "https://www.example.ch". */
  siteUrl: string;
  /** The site's share image and its description. */
  siteShareImage: ShareImage;
  /** The site's name (`siteName`), the suffix of every page title. */
  siteName: string;
}

/** What `pageMeta` reads from a route's `MetaArgs`: the path, and the root loader's data. */
export interface PageMetaArgs {
  location: { pathname: string };
  matches: readonly ({ id: string; data?: unknown } | undefined)[];
}

/**
 * JSON-LD as React Router's `script:ld+json` descriptor takes it (plain JSON);
 * `structured-data.server.ts` builds it with the precise `schema-dts` types.
 */
export type StructuredData = Extract<MetaDescriptor, { "script:ld+json": unknown }>["script:ld+json"];

export interface PageMetaOptions {
  title: string;
  description: string;
  /** Keeps the page out of search engines (`<meta name="robots" content="noindex">`), without a canonical URL. */
  noindex?: boolean;
  /** The page's share image; the site's (from the root loader) by default. */
  image?: ShareImage;
  /** Makes og:type "article": the publication date (ISO, "2024-11-15") and the category. */
  article?: { publishedTime: string; section: string };
  /** JSON-LD for the page, a schema.org graph built by the route's loader (`structured-data.server.ts`). */
  structuredData?: StructuredData;
  /**
   * An error page: only the title, description and `noindex` (no canonical
   * URL, no share tags); the root loader's data may be missing, the title
   * then goes without the site's name.
   */
  errorPage?: boolean;
}

/** The root loader's data, as `pageMeta` reads it. */
function rootDataOf(args: PageMetaArgs): RootMetaData {
  const root = args.matches.find((match) => match?.id === "root")?.data as Partial<RootMetaData> | undefined;
  if (typeof root?.siteUrl !== "string" || !root.siteShareImage || typeof root.siteName !== "string")
    throw new Error("pageMeta: the root loader's data has no siteUrl, siteShareImage or siteName");
  return root as RootMetaData;
}

/**
 * The absolute URL of a path on the site: `absoluteUrl("https://x.ch", "/blog/")`
 * is "https://x.ch/blog" (a trailing slash is dropped, except for the home page "/").
 */
export function absoluteUrl(siteUrl: string, pathname: string): string {
  return `${siteUrl}${pathname.length > 1 ? pathname.replace(/\/+$/, "") : "/"}`;
}

/**
 * The `meta` array of a page. `args` is the route's `MetaArgs` (the page's
 * path and the root loader's `siteUrl`, `siteShareImage` and `siteName`);
 * error pages (`errorPage`) get only their title, description and `noindex`.
 * @throws Error when, except on error pages, the root loader's data lacks `siteUrl`, `siteShareImage` or `siteName`.
 */
export function pageMeta(args: PageMetaArgs, options: PageMetaOptions): MetaDescriptor[] {
  const { title, description, noindex = false, article, structuredData, errorPage = false } = options;
  if (errorPage) return titleTags(rootSiteName(args.matches), title, description, noindex);

  const { siteUrl, siteShareImage, siteName: name } = rootDataOf(args);
  const tags = titleTags(name, title, description, noindex);
  const image = options.image ?? siteShareImage;
  const url = absoluteUrl(siteUrl, args.location.pathname);
  const imageUrl = `${siteUrl}${image.path}`;
  return [
    ...tags,
    ...(noindex ? [] : [{ tagName: "link", rel: "canonical", href: url } as const]),
    { property: "og:type", content: article ? "article" : "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: imageUrl },
    { property: "og:image:width", content: String(SHARE_IMAGE_SIZE.width) },
    { property: "og:image:height", content: String(SHARE_IMAGE_SIZE.height) },
    { property: "og:image:alt", content: image.alt },
    { property: "og:locale", content: "fr_CH" },
    { property: "og:site_name", content: name },
    ...(article
      ? [
          { property: "article:published_time", content: article.publishedTime },
          { property: "article:section", content: article.section },
        ]
      : []),
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: imageUrl },
    { name: "twitter:image:alt", content: image.alt },
    ...(structuredData ? [{ "script:ld+json": structuredData }] : []),
  ];
}
