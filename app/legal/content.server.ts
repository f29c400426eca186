/**
 * The words of a legal page (`app/content/legal.ts` with the owner's
 * settings: his identity and legal settings from Réglages), gathered on the
 * server for the route's loader: they reach the browser as loader data, so
 * that the content modules (and their typography) stay out of the page's
 * JavaScript.
 */
import { legalLabels, legalPagesOf, type LegalPage } from "~/content/legal";
import { encodedContactChannels } from "~/contact/channels.server";
import { PROCESSINGS } from "~/features.server";
import { noticeSummary } from "~/privacy/register.server";
import { formatDate } from "~/utils/format";
import { revealLabels } from "~/home/content.server";
import { pageMeta } from "~/seo/page-meta.server";
import type { SiteSettings } from "~/settings/schema";
import { getSiteSettings } from "~/settings/site.server";
import { type RequestContext } from "~/context.server";

/** `page` with the labels, the operator's card, the date of the last update and the "Révéler" labels. */
export function legalPageContent(page: LegalPage, settings: Pick<SiteSettings, "identity" | "legal">) {
  const { name, businessName, uid, address } = settings.identity;
  return {
    page,
    labels: legalLabels,
    operator: { name, businessName, uid, address },
    lastUpdated: { iso: settings.legal.lastUpdated, label: formatDate(settings.legal.lastUpdated) },
    revealLabels: revealLabels(),
  };
}

/** What `LegalPageView` lays out (see `legalPageContent`). */
export type LegalPageContent = ReturnType<typeof legalPageContent>;

/**
 * A legal route's loader data (`which`: "legalNotice" for `/mentions-legales`,
 * "privacyNotice" for `/confidentialite`): the encoded contact channels, the
 * page's words with the owner's settings, and its metadata (`noindex`).
 * @throws SettingsError when a setting is wrong (see `pageMeta`).
 */
export async function legalPageData(which: "legalNotice" | "privacyNotice", context: RequestContext, request: Request) {
  const settings = await getSiteSettings(context);
  // The privacy notice lists the register's processings (LPD art. 12 and 19): the two say the same.
  const page = legalPagesOf(settings.identity.name, settings.legal, noticeSummary(PROCESSINGS, settings.legal))[which];
  return {
    channels: encodedContactChannels(settings.identity),
    content: legalPageContent(page, settings),
    meta: pageMeta(context, request, { title: page.title, description: page.description, noindex: true }),
  };
}
