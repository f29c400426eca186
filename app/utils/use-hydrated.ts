/**
 * `useHydrated()` is false on the server and during hydration, true after:
 * lets a component render its no-JavaScript form first (same HTML as the
 * prerendered page) and its interactive form once React runs.
 */
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
