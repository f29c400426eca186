/**
 * `useHydrated()` is false on the server and during hydration, true after:
 * lets a component render its no-JavaScript form first (same HTML as the
 * prerendered page) and its interactive form once React runs. Components
 * that mount later (after a client-side navigation) get true at once.
 *
 * The switch is a transition started from an effect, so React renders it
 * in small slices after the hydration has committed. (With
 * `useSyncExternalStore`, React re-rendered the header synchronously inside
 * the hydration's commit: about 60 ms more in that one long task at a 4×
 * CPU slowdown, counted in Total Blocking Time.)
 */
import { startTransition, useEffect, useState } from "react";

/** Whether a first hydration has happened in this page. */
let hydratedOnce = false;

export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(hydratedOnce);
  useEffect(() => {
    if (hydrated) return;
    hydratedOnce = true;
    startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
