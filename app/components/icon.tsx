/**
 * The lucide icons that content files may name (`icon: "ShieldCheck"`).
 * Only the icons listed here reach the browser; a content file naming another
 * one fails type-checking.
 */
import {
  HeartHandshake,
  Lightbulb,
  ShieldAlert,
  ShieldCheck,
  Sparkles,
  TrainFront,
  type LucideIcon,
  type LucideProps,
} from "lucide-react";
import type { IconName } from "~/content/types";

export type { IconName };

export const icons = {
  HeartHandshake,
  Lightbulb,
  ShieldAlert,
  ShieldCheck,
  Sparkles,
  TrainFront,
} satisfies Record<IconName, LucideIcon>;

/** Renders the named icon, hidden from assistive technology (decorative). */
export function Icon({ name, ...props }: { name: IconName } & LucideProps) {
  const Component = icons[name];
  return <Component aria-hidden="true" focusable="false" {...props} />;
}
