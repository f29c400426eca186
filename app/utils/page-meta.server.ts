/**
 * Page metadata made by a route's loader (decision 007): the route's `meta`
 * export then only returns `data.meta`, so that `pageMeta` stays out of that
 * route's JavaScript. Used by the home page, whose JavaScript has a budget.
 */
import type { AppLoadContext, MetaDescriptor } from "react-router";
import { pageMeta, siteName, type PageMetaOptions, type RootMetaData } from "~/utils/meta";
import { settingsFrom } from "~/config/settings.server";
import { siteShareImage } from "~/utils/share-image.server";

/** What the root loader gives `pageMeta`: `SITE_URL`, the site's share image and name. */
export function rootMetaData(context: AppLoadContext | undefined): RootMetaData {
  return { siteUrl: settingsFrom(context).SITE_URL, siteShareImage, siteName };
}

/**
 * `pageMeta` for the page at `request`'s path, with the data the root loader
 * would give it.
 * @throws SettingsError when a setting is wrong (see `settingsFrom`).
 */
export function loaderPageMeta(
  context: AppLoadContext | undefined,
  request: Request,
  options: PageMetaOptions,
): MetaDescriptor[] {
  return pageMeta(
    { location: { pathname: new URL(request.url).pathname }, matches: [{ id: "root", data: rootMetaData(context) }] },
    options,
  );
}
