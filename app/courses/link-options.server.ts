/**
 * What a course action gives the feature from its request's typed context
 * (app/context.server.ts): the site's address for links, the clock's now,
 * and the SMS channel (the per-number daily cap and whether SMS leave,
 * SMS_PROVIDER: decision 060), so that no course module reads settings of
 * its own.
 */
import { clockContext, loggerContext, settingsContext, type RequestContext } from "~/context.server";
import type { LinkOptions } from "./registrants.server";
import { smsChannelOf } from "./sms-channel.server";

/** `{ siteUrl, now, sms }` of the request `context`. */
export function linkOptionsOf(context: RequestContext): LinkOptions & { now: Date } {
  const settings = context.get(settingsContext);
  return {
    siteUrl: settings.SITE_URL,
    now: context.get(clockContext).now(),
    sms: smsChannelOf(settings, context.get(loggerContext)),
  };
}
