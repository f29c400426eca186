/**
 * Joins class names (clsx), dropping false, null and undefined. It does not
 * merge conflicting Tailwind classes (no tailwind-merge, to keep the page's
 * JavaScript small): never pass two classes that set the same property;
 * components offer variants instead (see `buttonVariants`).
 */
import { clsx, type ClassValue } from "clsx";

export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
