/**
 * Which pages are the desk's, for the root layout (which leaves out the
 * public header and footer there): its own small module, so that the
 * public pages' JavaScript carries nothing else of the desk.
 */
import type { UIMatch } from "react-router";

/** The `handle` every desk route exports. */
export const deskHandle = { desk: true } as const;

/** Whether the matched routes are the desk's (their `handle` is `deskHandle`). */
export function isDeskPage(matches: UIMatch[]): boolean {
  return matches.some((match) => (match.handle as { desk?: boolean } | undefined)?.desk === true);
}
