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
 */
import { Outlet, useLoaderData } from "react-router";
import { DeskFrame } from "~/desk/frame";
import { ownerGuard } from "~/desk/guard.server";
import { deskSnapshot, markSeen, seenKindOf } from "~/desk/live.server";
import { deskHandle } from "~/desk/meta";
import { useDeskLive } from "~/desk/use-live";
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
