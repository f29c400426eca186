/**
 * `useDeskLive(snapshot)`: keeps an open desk page current without a
 * reload (docs/decisions/025-live-desk.md). Listens to the desk's event
 * stream (`DESK_LIVE_PATH`, an `EventSource`, which connects again by
 * itself after a loss) and, when an event's snapshot differs from the one
 * the page's loaders gave (`snapshot`), reloads the page's data through its
 * loaders (revalidation): the lists, the badges and the tab's title then
 * come from the loaders, as on a reload. Without JavaScript, or without
 * `EventSource`, nothing happens: the page shows what its last load read.
 */
import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { DESK_LIVE_EVENT, DESK_LIVE_PATH, sameSnapshot, type DeskSnapshot } from "./live";

export function useDeskLive(snapshot: DeskSnapshot): void {
  const { revalidate } = useRevalidator();
  // The latest loaders' snapshot and revalidate, read by the one listener the page keeps.
  const current = useRef({ snapshot, revalidate });
  useEffect(() => {
    current.current = { snapshot, revalidate };
  });
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(DESK_LIVE_PATH);
    source.addEventListener(DESK_LIVE_EVENT, (event) => {
      let received: DeskSnapshot;
      try {
        received = JSON.parse((event as MessageEvent<string>).data) as DeskSnapshot;
      } catch {
        return;
      }
      if (!sameSnapshot(received, current.current.snapshot)) void current.current.revalidate();
    });
    return () => source.close();
  }, []);
}
