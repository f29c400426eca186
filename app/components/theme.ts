/**
 * Tailwind classes for each theme colour. Written out in full so that
 * Tailwind's scanner finds them (it cannot see `bg-${color}`).
 */
import type { ThemeColor } from "~/content/types";

export const themeClasses: Record<
  ThemeColor,
  {
    text: string;
    strongText: string;
    bg: string;
    softBg: string;
    border: string;
    from: string;
    to: string;
    button: "primary" | "secondary" | "accent";
  }
> = {
  primary: {
    text: "text-primary",
    strongText: "text-primary-strong",
    bg: "bg-primary",
    softBg: "bg-primary-soft",
    border: "border-primary",
    from: "from-primary-soft",
    to: "to-primary-soft",
    button: "primary",
  },
  secondary: {
    text: "text-secondary",
    strongText: "text-secondary-strong",
    bg: "bg-secondary",
    softBg: "bg-secondary-soft",
    border: "border-secondary",
    from: "from-secondary-soft",
    to: "to-secondary-soft",
    button: "secondary",
  },
  accent: {
    text: "text-accent",
    strongText: "text-accent-strong",
    bg: "bg-accent",
    softBg: "bg-accent-soft",
    border: "border-accent",
    from: "from-accent-soft",
    to: "to-accent-soft",
    button: "accent",
  },
};
