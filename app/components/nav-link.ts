/**
 * Where a navigation entry leads: on the home page, the section's anchor
 * (`#services`: the browser scrolls, smoothly unless reduced motion is
 * asked for); elsewhere, the home page's section or the entry's own page
 * (Blog goes to `/blog`). Spec section 2 "Header".
 */
import type { NavItem } from "~/content/navigation";

export function navHref(item: Pick<NavItem, "section" | "elsewhere">, pathname: string): string {
  if (pathname === "/") return `#${item.section}`;
  return item.elsewhere ?? `/#${item.section}`;
}
