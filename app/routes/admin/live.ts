/**
 * `GET /admin/direct`: the desk's event stream (server-sent events,
 * app/desk/live.server.ts, docs/decisions/025-live-desk.md). The owner's
 * session only (`requireOwner`: a page request without it is sent to the
 * sign-in page, a `.data` request gets 401). Each event carries the counts
 * and latest ids of what is new, never a name or an address; the open desk
 * page then reloads its data through its loaders (app/desk/use-live.ts).
 * `no-transform` keeps the compression middleware from buffering the
 * stream (server/doors.ts keeps it beside `no-store`).
 */
import { requireOwner } from "~/desk/guard.server";
import type { Route } from "./+types/live";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOwner(request, context);
  if (!context.deskLive) {
    return new Response("Le bureau en direct n’est pas disponible.", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return new Response(context.deskLive.stream(request.signal), {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      // A reverse proxy (nginx) passes each event on at once.
      "X-Accel-Buffering": "no",
    },
  });
}
