/**
 * The frame of every signed-in desk page (`/admin/...`): the header with
 * the number of new requests, registrations and subscriptions beside their
 * sections, and in the tab's title (app/desk/meta.ts). Its middleware is the
 * desk's one guard (`ownerGuard`, app/desk/guard.server.ts): it runs before
 * every loader and action of the desk's pages, for page and `.data` requests
 * alike, and gives them the owner (`ownerContext`). On the page that lists registrations or subscriptions it first records
 * that the owner saw them (`markSeen`). It runs again on every navigation,
 * and when the desk's event stream says something changed (`useDeskLive`,
 * docs/decisions/025-live-desk.md); without JavaScript each reload reads
 * the same counts.
 *
 * Its error boundary shows a desk page's failure inside the same frame, in
 * French: « Page introuvable » for a 404 (an id that does not exist, such as
 * `/admin/cours/999999`), a plain message for anything else (500); the
 * status stays the loader's.
 */
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useRouteLoaderData } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { DeskFrame } from "~/desk/frame";
import { ownerGuard } from "~/desk/guard.server";
import { deskSnapshot, markSeen, seenKindOf } from "~/desk/live.server";
import { DESK_LAYOUT_ID, deskHandle, deskMeta } from "~/desk/meta";
import { useDeskLive } from "~/desk/use-live";
import { typeset } from "~/utils/typography";
import { dbContext } from "~/context.server";
import type { Route } from "./+types/layout";

export const handle = deskHandle;

export const middleware: Route.MiddlewareFunction[] = [ownerGuard];

export async function loader({ request, context }: Route.LoaderArgs) {
  const seen = seenKindOf(new URL(request.url).pathname);
  if (seen) await markSeen(context.get(dbContext), seen);
  return { live: await deskSnapshot(context.get(dbContext)) };
}

/** The counts are read again on every navigation (a page the owner opens may be the one that lists new rows). */
export const shouldRevalidate = () => true;

export default function DeskLayout() {
  const { live } = useLoaderData<typeof loader>();
  useDeskLive(live);
  return (
    <DeskFrame live={live}>
      <Outlet />
    </DeskFrame>
  );
}

/** A failed desk page's title (a page that did not fail has its own). */
export const meta: Route.MetaFunction = ({ error, matches }) =>
  error ? deskMeta(isRouteErrorResponse(error) && error.status === 404 ? "Page introuvable" : "Erreur", matches) : [];

/**
 * A desk page that failed, inside the desk's frame (with its counts when its
 * own loader answered): « Page introuvable » for a 404, a plain message else.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const frame = useRouteLoaderData<typeof loader>(DESK_LAYOUT_ID);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <DeskFrame live={frame?.live}>
      <div className="mt-8 max-w-2xl">
        <h1 className="text-3xl font-bold">{notFound ? "Page introuvable" : "Une erreur s’est produite"}</h1>
        <p className="mt-4 text-lg">
          {typeset(
            notFound
              ? "Cette page du bureau n’existe pas, ou plus : l’adresse est peut-être incomplète, ou ce qu’elle montrait a été effacé."
              : "Cette page du bureau n’a pas pu s’afficher. Veuillez réessayer dans un instant.",
          )}
        </p>
        <Link to="/admin" className={`${buttonVariants({ size: "large" })} mt-6`}>
          Retour aux demandes
        </Link>
      </div>
    </DeskFrame>
  );
}
