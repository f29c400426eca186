/**
 * A single-line text field: 48 px high, 18 px text, a dark border (3:1 and
 * more against white), a thick focus outline and a red border when the
 * field is invalid (`aria-invalid`).
 */
import type { ComponentProps } from "react";
import { cn } from "~/utils/cn";

/** Shared look of text fields, text areas and selects. */
export const fieldClassName =
  "block w-full min-w-0 rounded-xl border-2 border-gray-500 bg-white px-4 py-2.5 text-lg leading-normal text-ink placeholder:text-gray-600 focus-visible:border-primary focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary aria-invalid:border-red-700 aria-invalid:bg-red-50/40";

export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return <input type={type} className={cn(fieldClassName, "min-h-12", className)} {...props} />;
}
