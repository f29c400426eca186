/**
 * The title and description tags of a page's `<head>`, shared by the public
 * pages (app/seo/page-meta.server.ts), the root's error pages and the desk
 * (app/desk/meta.ts); the shape of a page's JSON-LD (`StructuredData`).
 */
import type { MetaDescriptor } from "react-router";

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

/**
 * JSON-LD as React Router's `script:ld+json` descriptor takes it (plain JSON);
 * app/seo/structured-data.server.ts builds it with the precise `schema-dts` types.
 */
export type StructuredData = Extract<MetaDescriptor, { "script:ld+json": unknown }>["script:ld+json"];
