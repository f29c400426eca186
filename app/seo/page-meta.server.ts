/**
 * Every page's `<head>`, made by its loader: `pageMeta(context, request,
 * options)` gives the title ("{title} | Formation & Assistance
 * Informatique", the home page's alone), description, canonical URL
 * (`SITE_URL` + path; none on `noindex` pages), Open Graph and Twitter card
 * tags with the share image, and the JSON-LD; the route's `meta` export is
 * `loaderMeta`. `notFound` answers a 404 with its own tags.
 */
import { data, type MetaDescriptor } from "react-router";
import { absoluteUrl, SHARE_IMAGE_SIZE, type ShareImage } from "./meta";
import type { StructuredData } from "~/utils/meta";
import { siteName } from "~/content/site-name";
import { titleTags } from "~/utils/meta";
import { siteShareImage } from "./share-image.server";
import { settingsContext, type RequestContext } from "~/context.server";

export interface PageMetaOptions {
  title: string;
  description: string;
  /** Keeps the page out of search engines (`<meta name="robots" content="noindex">`), without a canonical URL. */
  noindex?: boolean;
  /** The page's share image; the site's by default. */
  image?: ShareImage;
  /** Makes og:type "article": the publication date (ISO, "2024-11-15") and the category. */
  article?: { publishedTime: string; section: string };
  /** JSON-LD for the page, a schema.org graph (`structured-data.server.ts`). */
  structuredData?: StructuredData;
  /** A page that answers an error (404): its title, description and `noindex` only, no share tags. */
  errorPage?: boolean;
}

/**
 * The `meta` array of the page at `request`'s path.
 */
export function pageMeta(context: RequestContext, request: Request, options: PageMetaOptions): MetaDescriptor[] {
  const { title, description, article, structuredData, errorPage = false } = options;
  const noindex = errorPage || (options.noindex ?? false);
  const tags = titleTags(siteName, title, description, noindex);
  if (errorPage) return tags;

  const { SITE_URL: siteUrl } = context.get(settingsContext);
  const image = options.image ?? siteShareImage;
  const url = absoluteUrl(siteUrl, new URL(request.url).pathname);
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
    { property: "og:site_name", content: siteName },
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

/**
 * What a loader throws for a page that does not exist (an unknown article
 * or course): a 404 whose data carries the error page's `<head>` (title,
 * description, `noindex`), which the root error boundary shows with the
 * site's header and footer.
 */
export function notFound(
  context: RequestContext,
  request: Request,
  { title, description }: { title: string; description: string },
) {
  return data({ meta: pageMeta(context, request, { title, description, errorPage: true }) }, { status: 404 });
}
