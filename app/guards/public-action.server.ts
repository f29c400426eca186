/**
 * The guards every public action goes through (contact form, and later the
 * newsletter, bookings and sign-in; DESIGN.md section 8), applied where the
 * action runs, so that they hold whatever method or spelling of the path
 * React Router resolved to the route (`/contact`, `/Contact/`, `/%63ontact`,
 * `/x/../contact`, `/contact.data`, ...):
 *
 * 1. only POST reaches the action (any other method: 405 with `Allow`; the
 *    Express server refuses them earlier, this is the second line);
 * 2. the body is read with a size limit (`readFormData`);
 * 3. a rate limit per client address and action, each request counted
 *    before it is served (the store is the server's: `rateLimitContext`);
 * 4. the honeypot: a bot that fills the hidden field, or sends it more than
 *    once, is spam.
 * React Router's own same-origin check on actions runs before any of this.
 */
import { BodyTooLargeError, readFormData } from "./body.server";
import { clientAddressContext, loggerContext, rateLimitContext, type RequestContext } from "~/context.server";

export type { LimitKeys, RateLimiter } from "./rate-limiter";

export type GuardOutcome =
  /** Not spam, within limits: the action validates and stores `formData`. */
  | { outcome: "accepted"; formData: FormData }
  /** The honeypot was filled or repeated: answer as a success, store nothing. */
  | { outcome: "spam"; formData: FormData }
  /** Too many requests from this address: answer 429, store nothing. */
  | { outcome: "rate-limited"; formData: FormData }
  /** The body is over the limit: answer 413, store nothing (the body was not read). */
  | { outcome: "too-large" };

/** Methods a route with an action serves (RFC 9110 section 10.2.1 `Allow`). */
export const ACTION_ROUTE_METHODS = "GET, HEAD, POST";

/**
 * Whether a form is spam by its honeypot: the field sent more than once, or
 * with any value in any copy.
 */
export function isHoneypotFilled(formData: FormData, honeypotField: string): boolean {
  const values = formData.getAll(honeypotField);
  return values.length > 1 || values.some((value) => value !== "");
}

/**
 * Runs the guards for the action `name` (the rate limit's key).
 * @throws a 405 Response when the method is not POST.
 */
export async function guardPublicAction(
  request: Request,
  context: RequestContext,
  { name, bodyLimitBytes, honeypotField }: { name: string; bodyLimitBytes: number; honeypotField: string },
): Promise<GuardOutcome> {
  if (request.method !== "POST") {
    throw new Response("Method Not Allowed", { status: 405, headers: { Allow: ACTION_ROUTE_METHODS } });
  }
  let formData: FormData;
  try {
    formData = await readFormData(request, bodyLimitBytes);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    context.get(loggerContext).warn({ action: name }, `${name}: body over ${bodyLimitBytes} bytes, refused`);
    return { outcome: "too-large" };
  }
  // Every request counts, before anything else is done with it: requests sent at once cannot pass together.
  const address = context.get(clientAddressContext);
  const { limited } = await context.get(rateLimitContext).consume(name, { address });
  if (limited) {
    context.get(loggerContext).warn({ action: name }, `${name}: rate limit reached, request refused`);
    return { outcome: "rate-limited", formData };
  }
  if (isHoneypotFilled(formData, honeypotField)) {
    context.get(loggerContext).info({ action: name }, `${name}: honeypot filled, request dropped as spam`);
    return { outcome: "spam", formData };
  }
  return { outcome: "accepted", formData };
}
