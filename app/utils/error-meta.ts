/**
 * The `<head>` metadata of an error page: its title (with the site's name
 * when the root loader's data has it), description and `noindex`; no
 * canonical URL, no share tags. Apart from `meta.ts` so that the root route
 * (every page's JavaScript) need not load `pageMeta` (decision 007).
 */
import type { MetaDescriptor } from "react-router";

/** The site's name from the root loader's data in `matches`, if that data is there. */
export function rootSiteName(matches: readonly ({ id: string; data?: unknown } | undefined)[]): string | undefined {
  const root = matches.find((match) => match?.id === "root")?.data as { siteName?: unknown } | undefined;
  return typeof root?.siteName === "string" ? root.siteName : undefined;
}

/**
 * Title ("{title} | {site name}", or the title alone when it is the site's
 * name or the root loader's data is missing), description and, when asked,
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
