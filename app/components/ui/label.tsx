/**
 * A visible form label (DESIGN.md §5: labels always visible, placeholders
 * only hints). A native `<label>`: it works before and without JavaScript,
 * and a click on it focuses or ticks its control.
 */
import type { ComponentProps } from "react";
import { cn } from "~/utils/cn";

export function Label({ className, htmlFor, ...props }: ComponentProps<"label"> & { htmlFor: string }) {
  return (
    <label
      htmlFor={htmlFor}
      className={cn("block text-lg leading-snug font-semibold text-ink", className)}
      {...props}
    />
  );
}
