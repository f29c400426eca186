/**
 * The action of a newsletter mail's link page (confirm, unsubscribe): the
 * public action guards (rate limit per address, body limit, honeypot), then
 * `perform`, whose outcome the page shows; 200 when it did what the link is
 * for (`success`), 410 when the link is not valid, 429 when refused by the
 * guards, 503 when the database does not answer. The log line names the
 * link and the outcome, never the token.
 */
import { data } from "react-router";
import { guardPublicAction } from "~/guards/public-action.server";
import { NEWSLETTER_BODY_LIMIT_BYTES, NEWSLETTER_HONEYPOT } from "./fields";
import { loggerContext, type RequestContext } from "~/context.server";
import { unlessDatabaseDown } from "~/utils/database-down.server";

export async function linkAction<Outcome extends string>(
  request: Request,
  context: RequestContext,
  { link, success, perform }: { link: string; success: Outcome; perform: () => Promise<Outcome | "invalid"> },
) {
  const guard = await guardPublicAction(request, context, {
    name: "newsletter-link",
    bodyLimitBytes: NEWSLETTER_BODY_LIMIT_BYTES,
    honeypotField: NEWSLETTER_HONEYPOT,
  });
  if (guard.outcome !== "accepted") return data({ outcome: "refused" as const }, { status: 429 });
  // The database down: 503, and the page's loader shows the French 503 page, not « lien plus valable »
  // (app/utils/database-down.server.ts; an action that throws would leave the page without its frame).
  const performed = await unlessDatabaseDown(context, perform);
  if (performed.down) return data({ outcome: "unavailable" as const }, { status: 503 });
  const outcome = performed.value;
  context.get(loggerContext).info({ link, outcome }, "newsletter: link used");
  return data({ outcome }, { status: outcome === success ? 200 : 410 });
}
