/**
 * What every page's `<head>` is made of, safe for the browser: the share
 * images' paths and size, absolute URLs, the title tags, and `loaderMeta`,
 * the `meta` export of every route. The tags themselves are made on the
 * server by each route's loader (`page-meta.server.ts`), so that no page's
 * JavaScript carries them (decision 007).
 */
import { isRouteErrorResponse, type MetaDescriptor } from "react-router";
import { identity } from "~/content/identity";

/**
 * The site's name, "Formation & Assistance Informatique", the suffix of
 * every page title. Read on the server (loaders); the browser gets it in the
 * root loader's data.
 */
export const siteName = `${identity.brand.line1} ${identity.brand.line2}`;

/** A share image: its site path (`/og/site.png`) and its French description. */
export interface ShareImage {
  path: string;
  alt: string;
}

/** Pixel size of every share image (`app/seo/share-card.server.tsx` draws them at this size). */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** The site path of the site's share image (`public/og/site.png`), used by every page without one of its own. */
export const SITE_SHARE_IMAGE_PATH = "/og/site.png";

/**
 * JSON-LD as React Router's `script:ld+json` descriptor takes it (plain JSON);
 * `structured-data.server.ts` builds it with the precise `schema-dts` types.
 */
export type StructuredData = Extract<MetaDescriptor, { "script:ld+json": unknown }>["script:ld+json"];

/**
 * The absolute URL of a path on the site: `absoluteUrl("https://x.ch", "/blog/")`
 * is "https://x.ch/blog" (a trailing slash is dropped, except for the home page "/").
 */
export function absoluteUrl(siteUrl: string, pathname: string): string {
  return `${siteUrl}${pathname.length > 1 ? pathname.replace(/\/+$/, "") : "/"}`;
}

/**
 * Title ("{title} | {site name}", or the title alone when it is the site's
 * name or the name is unknown), description and, when asked,
 * `<meta name="robots" content="noindex">`.
 */
export function titleTags(
  siteName: string | undefined,
  title: string,
  description: string,
  noindex: boolean,
): MetaDescriptor[] {
  return [
    { title: siteName === undefined || title === siteName ? title : `${title} | ${siteName}` },
    { name: "description", content: description },
    ...(noindex ? [{ name: "robots", content: "noindex" }] : []),
  ];
}

/** The metadata a loader made (`{ meta }`), in its data or in the data of the response it threw (a 404). */
export function metaOf(data: unknown, error?: unknown): MetaDescriptor[] | undefined {
  const carried = isRouteErrorResponse(error) ? error.data : data;
  const meta = (carried as { meta?: unknown } | null | undefined)?.meta;
  return Array.isArray(meta) ? (meta as MetaDescriptor[]) : undefined;
}

/**
 * Every route's `meta` export: the tags its loader made with `pageMeta`
 * (`app/seo/page-meta.server.ts`), also when the loader threw them with a
 * 404 (`throw data({ meta }, { status: 404 })`).
 */
export function loaderMeta({ data, error }: { data?: unknown; error?: unknown }): MetaDescriptor[] {
  return metaOf(data, error) ?? [];
}
