/**
 * A native `<select>` with the look of `Input`: it works without
 * JavaScript, with the keyboard (arrows, first letter) and with the
 * phone's own picker, which is easier for seniors than a custom list box.
 */
import { ChevronDown } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "~/utils/cn";
import { fieldClassName } from "./input";

export function Select({ className, children, ...props }: ComponentProps<"select">) {
  return (
    <div className="relative">
      <select className={cn(fieldClassName, "min-h-12 appearance-none pr-12", className)} {...props}>
        {children}
      </select>
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-4 size-6 -translate-y-1/2 text-ink"
      />
    </div>
  );
}
