/**
 * Builds a route's `meta` array: `<title>` "{title} | Formation & Assistance
 * Informatique" (the home page's title stands alone) and the description.
 */
import { identity } from "~/content/identity";

export const siteName = `${identity.brand.line1} ${identity.brand.line2}`;

export function pageMeta({
  title,
  description,
  noindex = false,
}: {
  title: string;
  description: string;
  noindex?: boolean;
}) {
  return [
    { title: title === siteName ? title : `${title} | ${siteName}` },
    { name: "description", content: description },
    ...(noindex ? [{ name: "robots", content: "noindex" }] : []),
  ];
}
