/**
 * Tooltip on Radix: a short hint shown on hover or keyboard focus.
 * Delays come from the provider in `app/root.tsx` (700 ms, skip 300 ms:
 * spec section 4). The trigger must be focusable, and the hint must repeat
 * nothing essential: touch screens do not show it.
 */
import { Tooltip as TooltipPrimitive } from "radix-ui";
import type { ReactNode } from "react";

export const TooltipProvider = TooltipPrimitive.Provider;

export function Tooltip({ content, children }: { content: ReactNode; children: ReactNode }) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          sideOffset={6}
          className="z-50 max-w-xs rounded-lg bg-ink px-3 py-2 text-lg leading-snug text-white shadow-lg"
        >
          {content}
          <TooltipPrimitive.Arrow className="fill-ink" />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}

/**
 * A non-interactive element (badge) that shows a tooltip on hover and on
 * keyboard focus (WCAG 1.4.13): it is focusable for that reason alone.
 * Put the hint's words in the badge's accessible text too (e.g. `sr-only`).
 */
export function TooltipBadge({
  content,
  className,
  children,
}: {
  content: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Tooltip content={content}>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- focus shows the hint */}
      <span tabIndex={0} className={className}>
        {children}
      </span>
    </Tooltip>
  );
}
