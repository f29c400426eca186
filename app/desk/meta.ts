/**
 * The desk's pages in `<head>`: a title ("{title} | Bureau", with the
 * number of new things in front once signed in: « (3) Demandes | Bureau »),
 * `noindex`, no description worth indexing, no share tags; and the route
 * `handle` that tells the root layout to leave out the public header and
 * footer (`isDeskPage`, app/desk/chrome.ts).
 */
import type { MetaDescriptor } from "react-router";
import { titleTags } from "~/utils/meta";
import { titleWithCount, type DeskSnapshot } from "./live";

/** The id of the desk's frame route (app/routes/admin/layout.tsx), whose loader gives `live`. */
export const DESK_LAYOUT_ID = "routes/admin/layout";

/**
 * The `<head>` tags of a desk page. `matches` are the meta function's:
 * the counts of the desk's frame (its loader's `live`) go in front of the
 * title; without them (the sign-in page), the title alone.
 */
export function deskMeta(
  title: string,
  matches?: readonly ({ id: string; loaderData?: unknown } | undefined)[],
): MetaDescriptor[] {
  const frame = matches?.find((match) => match?.id === DESK_LAYOUT_ID);
  const live = (frame?.loaderData as { live?: DeskSnapshot } | undefined)?.live;
  return titleTags("Bureau", titleWithCount(title, live), "Le bureau privé du site.", true);
}

export { deskHandle } from "./chrome";
