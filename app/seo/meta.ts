/**
 * What every page's `<head>` is made of, safe for the browser: the share
 * images' paths and size, absolute URLs, and `loaderMeta`,
 * the `meta` export of every route. The tags themselves are made on the
 * server by each route's loader (`page-meta.server.ts`), so that no page's
 * JavaScript carries them (decision 007).
 */
import { isRouteErrorResponse, type MetaDescriptor } from "react-router";

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
 * The absolute URL of a path on the site: `absoluteUrl("https://x.ch", "/blog/")`
 * is "https://x.ch/blog" (a trailing slash is dropped, except for the home page "/").
 */
export function absoluteUrl(siteUrl: string, pathname: string): string {
  return `${siteUrl}${pathname.length > 1 ? pathname.replace(/\/+$/, "") : "/"}`;
}

/** The metadata a loader made (`{ meta }`), in its data or in the data of the response it threw (a 404). */
export function metaOf(data: unknown, error?: unknown): MetaDescriptor[] | undefined {
  const carried = isRouteErrorResponse(error) ? error.data : data;
  const meta = (carried as { meta?: unknown } | null | undefined)?.meta;
  return Array.isArray(meta) ? (meta as MetaDescriptor[]) : undefined;
}

/**
 * `meta` with the site's share image at `sitePath` (the root loader's
 * `shareImagePath`: the card made from the hero photo the owner uploaded) in
 * place of `public/og/site.png` wherever a tag or the JSON-LD names that
 * file (same description).
 */
export function withSiteShareImage(meta: MetaDescriptor[], sitePath: string): MetaDescriptor[] {
  if (sitePath === SITE_SHARE_IMAGE_PATH) return meta;
  const swap = (value: unknown): unknown => {
    if (typeof value === "string")
      return value.endsWith(SITE_SHARE_IMAGE_PATH) ? value.slice(0, -SITE_SHARE_IMAGE_PATH.length) + sitePath : value;
    if (Array.isArray(value)) return value.map(swap);
    if (value !== null && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, swap(item)]));
    return value;
  };
  return meta.map((tag) => swap(tag) as MetaDescriptor);
}

/** The root route's data as `meta` functions see it among their matches. */
type Matches = ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;

/**
 * Every route's `meta` export: the tags its loader made with `pageMeta`
 * (`app/seo/page-meta.server.ts`), also when the loader threw them with a
 * 404 (`throw data({ meta }, { status: 404 })`), naming the site's share
 * image of the root loader (`withSiteShareImage`) where the page has none of its own.
 */
export function loaderMeta({
  data,
  error,
  matches,
}: {
  data?: unknown;
  error?: unknown;
  matches?: Matches;
}): MetaDescriptor[] {
  const meta = metaOf(data, error) ?? [];
  const root = matches?.find((match) => match?.id === "root")?.loaderData as { shareImagePath?: string } | undefined;
  return root?.shareImagePath ? withSiteShareImage(meta, root.shareImagePath) : meta;
}
