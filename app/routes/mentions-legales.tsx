/**
 * `/mentions-legales`: who runs the site (LCD art. 3 al. 1 let. s), the
 * hosting provider, responsibility for content and links, copyright.
 * Rendered once into the render cache, not indexed; the words are in `app/content/legal.ts`.
 */
import { LegalPageView } from "~/legal/page";
import { loaderMeta } from "~/seo/meta";
import { legalPageData } from "~/legal/content.server";
import type { Route } from "./+types/mentions-legales";
import { cachedPage } from "~/utils/render-cache";

// Words and metadata made by the loader: the page's JavaScript need not load `app/content/legal.ts`.
export const loader = ({ context, request }: Route.LoaderArgs) => legalPageData("legalNotice", context, request);

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: [] });

export default function MentionsLegales({ loaderData }: Route.ComponentProps) {
  return <LegalPageView content={loaderData.content} channels={loaderData.channels} />;
}
