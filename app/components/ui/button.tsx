/**
 * Button, and `buttonVariants()` for button-looking links (shadcn style).
 * Every size is at least 48 px high and wide so seniors hit it easily
 * (DESIGN.md §5: targets >= 44x44 px; padding and text make the width).
 *
 * `cn` does not merge conflicting Tailwind classes: a variant or size sets
 * each property once (colours, border; height, padding, text size; line height), and
 * callers add only what none sets (margins, width, alignment, display).
 */
import type { ComponentProps } from "react";
import { cn } from "~/utils/cn";

/** Classes every button has. */
const base =
  "inline-flex items-center justify-center gap-2 rounded-xl py-2.5 text-center font-semibold no-underline transition-colors focus-visible:outline-3 focus-visible:outline-offset-3 disabled:pointer-events-none disabled:opacity-60";

/** The classes of each variant, size and line height. */
const variants = {
  variant: {
    primary: "bg-primary text-white hover:bg-primary-strong",
    secondary: "bg-secondary text-white hover:bg-secondary-strong",
    accent: "bg-accent text-white hover:bg-accent-strong",
    outline: "border-2 border-primary bg-white text-primary hover:bg-primary-soft",
    /** On a coloured background: white, with a white border. */
    light: "border-2 border-white bg-white text-primary hover:bg-primary-soft",
    ghost: "text-ink hover:bg-primary-soft",
    /** What cannot be undone (erasing data): white on dark red. */
    danger: "bg-red-700 text-white hover:bg-red-800",
  },
  size: {
    default: "min-h-12 px-5 text-lg",
    large: "min-h-14 px-7 text-xl",
    /** Narrow padding, e.g. the header's menu button. */
    compact: "min-h-12 min-w-12 px-3 text-lg",
    icon: "min-h-12 min-w-12 px-0 text-lg",
  },
  leading: {
    snug: "leading-snug",
    /** The text size's own line height (1.4 at text-xl), which some large buttons have. */
    text: "",
  },
};

/** A button's look: variant (colours), size and line height; each defaults to the first listed. */
export type ButtonVariants = {
  variant?: keyof typeof variants.variant;
  size?: keyof typeof variants.size;
  leading?: keyof typeof variants.leading;
};

/** The class list of a button (or a link that looks like one) with the given look. */
export function buttonVariants({ variant = "primary", size = "default", leading = "snug" }: ButtonVariants = {}) {
  return cn(base, variants.variant[variant], variants.size[size], variants.leading[leading]);
}

export type ButtonProps = ComponentProps<"button"> & ButtonVariants;

/** A `<button>` with the site's look; `className` adds margins, width and the like. */
export function Button({ className, variant, size, leading, ...props }: ButtonProps) {
  return <button className={cn(buttonVariants({ variant, size, leading }), className)} {...props} />;
}
