/**
 * Button and button-looking link (shadcn style on Radix Slot).
 * Every size is at least 48 px high so seniors hit it easily (DESIGN.md §5:
 * targets >= 44x44 px). `asChild` renders the child element (e.g. `<a>`)
 * with the button's look.
 */
import { cva, type VariantProps } from "class-variance-authority";
import { Slot } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "~/utils/cn";

export const buttonVariants = cva(
  "inline-flex min-h-12 min-w-12 items-center justify-center gap-2 rounded-xl px-5 py-2.5 text-center text-lg font-semibold leading-snug no-underline transition-colors focus-visible:outline-3 focus-visible:outline-offset-3 disabled:pointer-events-none disabled:opacity-60",
  {
    variants: {
      variant: {
        primary: "bg-primary text-white hover:bg-primary-strong",
        secondary: "bg-secondary text-white hover:bg-secondary-strong",
        accent: "bg-accent text-white hover:bg-accent-strong",
        outline: "border-2 border-primary bg-white text-primary hover:bg-primary-soft",
        ghost: "text-ink hover:bg-primary-soft",
      },
      size: {
        default: "",
        large: "min-h-14 px-7 text-xl",
        icon: "px-0",
      },
    },
    defaultVariants: { variant: "primary", size: "default" },
  },
);

export type ButtonProps = ComponentProps<"button"> & VariantProps<typeof buttonVariants> & { asChild?: boolean };

export function Button({ className, variant, size, asChild = false, ...props }: ButtonProps) {
  const Component = asChild ? Slot.Root : "button";
  return <Component className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}
