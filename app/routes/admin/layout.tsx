/**
 * The frame of every signed-in desk page (`/admin/...`): the header with
 * the number of new requests. Its loader checks the session like every
 * desk loader (`requireOwner`); the pages check it again in their own
 * loaders and actions, since a data request may skip this one.
 */
import { Outlet, useLoaderData } from "react-router";
import { DeskFrame } from "~/desk/frame";
import { requireOwner } from "~/desk/guard.server";
import { deskHandle } from "~/desk/meta";
import { countNewRequests } from "~/desk/requests.server";
import type { Route } from "./+types/layout";

export const handle = deskHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOwner(request, context);
  return { newRequests: await countNewRequests(context.db!) };
}

export default function DeskLayout() {
  const { newRequests } = useLoaderData<typeof loader>();
  return (
    <DeskFrame newRequests={newRequests}>
      <Outlet />
    </DeskFrame>
  );
}
