/**
 * The one guard of the owner's desk: `ownerGuard`, the middleware of the
 * desk's layout (app/routes/admin/layout.tsx) and of the desk routes outside
 * it (the event stream), runs `requireOwner` before any loader or action
 * of the routes below it, for page and `.data` requests alike, and puts the
 * owner into the context (`context.get(ownerContext)`). Decision 032.
 *
 * - No valid session (none, expired, revoked, or its account deleted):
 *   a page request is redirected (303) to `/admin/connexion`; a data
 *   request (`.data`) gets 401. Nothing else runs.
 * - A request that changes something (any method but GET and HEAD) must come
 *   from the site itself: its `Origin` names this host, or, without
 *   `Origin`, `Sec-Fetch-Site` says `same-origin`; otherwise 403. (React
 *   Router's own check answers 400 first to a POST whose `Origin` names
 *   another host; this one also covers requests without `Origin`.)
 */
import { redirect, type MiddlewareFunction } from "react-router";
import {
  authContext,
  dataRequestContext,
  loggerContext,
  ownerContext,
  type Owner,
  type RequestContext,
} from "~/context.server";

export type { Owner };

/** The sign-in page. */
export const SIGN_IN_PATH = "/admin/connexion";

/**
 * Whether a request comes from a page of this site: its `Origin` has the
 * request's own host (the browser sets it on every POST), or, without
 * `Origin`, the browser's `Sec-Fetch-Site` is `same-origin`.
 */
export function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin) {
    try {
      return new URL(origin).host === new URL(request.url).host;
    } catch {
      return false;
    }
  }
  return request.headers.get("Sec-Fetch-Site") === "same-origin";
}

/**
 * The signed-in owner of this request.
 * @throws a 303 redirect to the sign-in page (pages) or a 401 Response
 *   (data requests) without a valid session; a 403 Response for a
 *   cross-origin request that would change something.
 */
export async function requireOwner(request: Request, context: RequestContext): Promise<Owner> {
  if (request.method !== "GET" && request.method !== "HEAD" && !isSameOrigin(request)) {
    context.get(loggerContext).warn("desk: cross-origin request refused");
    throw new Response("Forbidden", { status: 403, headers: { "Cache-Control": "no-store" } });
  }
  const session = await context.get(authContext).api.getSession({ headers: request.headers });
  if (!session || !session.user.twoFactorEnabled) {
    if (context.get(dataRequestContext)) {
      throw new Response("Unauthorized", { status: 401, headers: { "Cache-Control": "no-store" } });
    }
    throw redirect(SIGN_IN_PATH, { status: 303, headers: { "Cache-Control": "no-store" } });
  }
  return {
    userId: session.user.id,
    email: session.user.email,
    name: session.user.name,
    sessionId: session.session.id,
  };
}

/**
 * The desk's guard as route middleware (`export const middleware = [ownerGuard]`):
 * `requireOwner`, then the owner in `ownerContext` for the loaders and actions below.
 * @throws what `requireOwner` throws; nothing below runs then.
 */
export const ownerGuard: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  context.set(ownerContext, await requireOwner(request, context));
  return next();
};
