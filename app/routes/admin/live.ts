/**
 * `GET /admin/direct`: the desk's event stream (server-sent events,
 * app/desk/live.server.ts, docs/decisions/025-live-desk.md). The owner's
 * session only (the guard middleware `ownerGuard`, as on the desk's layout:
 * a page request without it is sent to the sign-in page, a `.data` request
 * gets 401). Each event carries the counts and latest ids of what is new,
 * never a name or an address; the open desk page then reloads its data
 * through its loaders (app/desk/use-live.ts).
 * `no-transform` keeps the compression middleware from buffering the
 * stream (server/doors.ts keeps it beside `no-store`).
 */
import { deskLiveContext } from "~/context.server";
import { ownerGuard } from "~/desk/guard.server";
import type { Route } from "./+types/live";

export const middleware: Route.MiddlewareFunction[] = [ownerGuard];

export function loader({ request, context }: Route.LoaderArgs) {
  return new Response(context.get(deskLiveContext).stream(request.signal), {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      // A reverse proxy (nginx) passes each event on at once.
      "X-Accel-Buffering": "no",
    },
  });
}
