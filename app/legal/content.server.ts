/**
 * The words of a legal page (`app/content/legal.ts`, `identity.ts`), gathered
 * on the server for the route's loader: they reach the browser as loader
 * data, so that the content modules (and their typography) stay out of the
 * page's JavaScript.
 */
import type { AppLoadContext } from "react-router";
import { identity } from "~/content/identity";
import { legalLabels, legalSettings, type LegalPage } from "~/content/legal";
import { encodedContactChannels } from "~/contact/channels.server";
import { formatDate } from "~/utils/format";
import { revealLabels } from "~/home/content.server";
import { pageMeta } from "~/seo/page-meta.server";

/** `page` with the labels, the operator's card, the date of the last update and the "Révéler" labels. */
export function legalPageContent(page: LegalPage) {
  const { name, businessName, uid, address } = identity;
  return {
    page,
    labels: legalLabels,
    operator: { name, businessName, uid, address },
    lastUpdated: { iso: legalSettings.lastUpdated, label: formatDate(legalSettings.lastUpdated) },
    revealLabels: revealLabels(),
  };
}

/** What `LegalPageView` lays out (see `legalPageContent`). */
export type LegalPageContent = ReturnType<typeof legalPageContent>;

/**
 * A legal route's loader data: the encoded contact channels, the page's
 * words and its metadata (`noindex`).
 * @throws SettingsError when a setting is wrong (see `pageMeta`).
 */
export function legalPageData(page: LegalPage, context: AppLoadContext | undefined, request: Request) {
  return {
    channels: encodedContactChannels(),
    content: legalPageContent(page),
    meta: pageMeta(context, request, { title: page.title, description: page.description, noindex: true }),
  };
}
