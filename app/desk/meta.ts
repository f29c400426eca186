/**
 * The desk's pages in `<head>` and in the document: a title ("{title} |
 * Bureau"), `noindex`, no description worth indexing, no share tags; and
 * the route `handle` that tells the root layout to leave out the public
 * header and footer (`isDeskPage`).
 */
import type { MetaDescriptor, UIMatch } from "react-router";
import { titleTags } from "~/seo/meta";

/** The `<head>` tags of a desk page. */
export function deskMeta(title: string): MetaDescriptor[] {
  return titleTags("Bureau", title, "Le bureau privé du site.", true);
}

/** The `handle` every desk route exports. */
export const deskHandle = { desk: true } as const;

/** Whether the matched routes are the desk's (their `handle` is `deskHandle`). */
export function isDeskPage(matches: UIMatch[]): boolean {
  return matches.some((match) => (match.handle as { desk?: boolean } | undefined)?.desk === true);
}
