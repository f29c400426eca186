/** A multi-line text field with the look of `Input`, at least 140 px high, that the visitor may make taller. */
import type { ComponentProps } from "react";
import { cn } from "~/utils/cn";
import { fieldClassName } from "./input";

export function Textarea({ className, rows = 4, ...props }: ComponentProps<"textarea">) {
  return <textarea rows={rows} className={cn(fieldClassName, "min-h-[140px] resize-y", className)} {...props} />;
}
