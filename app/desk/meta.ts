/**
 * The desk's pages in `<head>`: a title ("{title} | Bureau"), `noindex`, no
 * description worth indexing, no share tags; and the route `handle` that
 * tells the root layout to leave out the public header and footer
 * (`isDeskPage`, app/desk/chrome.ts).
 */
import type { MetaDescriptor } from "react-router";
import { titleTags } from "~/seo/meta";

/** The `<head>` tags of a desk page. */
export function deskMeta(title: string): MetaDescriptor[] {
  return titleTags("Bureau", title, "Le bureau privé du site.", true);
}

export { deskHandle } from "./chrome";
