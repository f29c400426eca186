/**
 * The lucide icons that content files may name (`icon: "ShieldCheck"`).
 * Only the icons listed here reach the browser; a content file naming another
 * one fails type-checking.
 */
import HeartHandshake from "lucide-react/icons/heart-handshake";
import Lightbulb from "lucide-react/icons/lightbulb";
import ShieldAlert from "lucide-react/icons/shield-alert";
import ShieldCheck from "lucide-react/icons/shield-check";
import Sparkles from "lucide-react/icons/sparkles";
import TrainFront from "lucide-react/icons/train-front";
import type { LucideProps } from "lucide-react";

export const icons = { HeartHandshake, Lightbulb, ShieldAlert, ShieldCheck, Sparkles, TrainFront };

export type IconName = keyof typeof icons;

/** Renders the named icon, hidden from assistive technology (decorative). */
export function Icon({ name, ...props }: { name: IconName } & LucideProps) {
  const Component = icons[name];
  return <Component aria-hidden="true" focusable="false" {...props} />;
}
