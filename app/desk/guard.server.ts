/**
 * `requireOwner(request, context)`: the one guard of the owner's desk,
 * called first in every `/admin` loader and action (DESIGN.md section 8; a
 * layout alone guards nothing, since a `.data` request runs loaders without
 * rendering layouts).
 *
 * - No valid session (none, expired, revoked, or its account deleted):
 *   a page request is redirected (303) to `/admin/connexion`; a data
 *   request (`.data`) gets 401. Nothing else runs.
 * - A request that changes something (any method but GET and HEAD) must come
 *   from the site itself: its `Origin` names this host, or, without
 *   `Origin`, `Sec-Fetch-Site` says `same-origin`; otherwise 403. (React
 *   Router's own check answers 400 first to a POST whose `Origin` names
 *   another host; this one also covers requests without `Origin`.)
 * Resolves to the signed-in owner.
 */
import { redirect, type AppLoadContext } from "react-router";

/** The signed-in owner, as desk pages see it. */
export interface Owner {
  userId: string;
  email: string;
  name: string;
  sessionId: string;
}

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
export async function requireOwner(request: Request, context: AppLoadContext): Promise<Owner> {
  if (request.method !== "GET" && request.method !== "HEAD" && !isSameOrigin(request)) {
    context.logger?.warn("desk: cross-origin request refused");
    throw new Response("Forbidden", { status: 403, headers: { "Cache-Control": "no-store" } });
  }
  if (!context.auth) throw new Error("No auth in the request context");
  const session = await context.auth.api.getSession({ headers: request.headers });
  if (!session || !session.user.twoFactorEnabled) {
    if (context.dataRequest) {
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
