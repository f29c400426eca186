/**
 * A native checkbox, 28 px, with its label beside it: the whole row (at
 * least 48 px high) ticks it. Works without JavaScript.
 */
import type { ComponentProps, ReactNode } from "react";
import { cn } from "~/utils/cn";

export function Checkbox({
  id,
  label,
  className,
  ...props
}: Omit<ComponentProps<"input">, "type"> & { id: string; label: ReactNode }) {
  return (
    <div className={cn("flex items-start", className)}>
      <label
        htmlFor={id}
        className="-mx-2 flex min-h-12 cursor-pointer items-start gap-3 rounded-xl px-2 py-2.5 text-lg leading-snug text-ink hover:bg-primary-soft/60"
      >
        <input
          id={id}
          type="checkbox"
          className="mt-px size-7 shrink-0 cursor-pointer accent-primary focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary"
          {...props}
        />
        <span>{label}</span>
      </label>
    </div>
  );
}
