/**
 * The places left of a session as a pill ("3 places restantes", "Complet"):
 * red when the session is full, the site's colour otherwise. On the session
 * lists of `/cours` and `/cours/{slug}` and on the home page's course cards.
 */
import type { ReactNode } from "react";
import { cn } from "~/utils/cn";

export function PlacesBadge({
  full,
  as: Tag = "span",
  children,
}: {
  full: boolean;
  as?: "p" | "span";
  children: ReactNode;
}) {
  return (
    <Tag
      className={cn(
        "self-start rounded-full px-3 py-1 font-bold",
        full ? "bg-red-50 text-red-800" : "bg-primary-soft text-primary-strong",
      )}
    >
      {children}
    </Tag>
  );
}
