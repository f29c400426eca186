/**
 * `/confidentialite`: the privacy notice (LPD art. 19): controller, data
 * collected and why, retention, recipients, no cookies, server log, YouTube,
 * the visitor's rights. Prerendered, not indexed; the words are in
 * `app/content/legal.ts`.
 */
import { LegalPageView } from "~/legal/page";
import { loaderMeta } from "~/seo/meta";
import { legalPageData } from "~/legal/content.server";
import type { Route } from "./+types/confidentialite";
import { cachedPage } from "~/utils/render-cache";

// Words and metadata made by the loader: the page's JavaScript need not load `app/content/legal.ts`.
export const loader = ({ context, request }: Route.LoaderArgs) => legalPageData("privacyNotice", context, request);

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: [] });

export default function Confidentialite({ loaderData }: Route.ComponentProps) {
  return <LegalPageView content={loaderData.content} channels={loaderData.channels} />;
}
