/**
 * Modal dialog on Radix (shadcn style): focus kept inside while open,
 * Escape and a click outside close it, the title and description are tied
 * to it (`aria-labelledby`, `aria-describedby`). The panel is at most
 * 500 px wide and never taller than the screen: it scrolls inside itself,
 * so it stays usable at 320 px wide and at 200 % zoom. The corner button
 * "Fermer la fenêtre" comes last in the tab order: opening focuses the
 * first field.
 */
import { X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "~/utils/cn";

export const Dialog = DialogPrimitive.Root;
export const DialogClose = DialogPrimitive.Close;

/** The panel, in a portal over a dark overlay, with the corner close button. */
export function DialogContent({ className, children, ...props }: ComponentProps<typeof DialogPrimitive.Content>) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-ink/70" />
      <DialogPrimitive.Content
        className={cn(
          "fixed top-1/2 left-1/2 z-50 max-h-dvh w-full max-w-[500px] -translate-x-1/2 -translate-y-1/2 overflow-y-auto overscroll-contain bg-white px-4 py-6 shadow-2xl focus:outline-none min-[520px]:max-h-[calc(100dvh-2rem)] min-[520px]:w-[calc(100%-2rem)] min-[520px]:rounded-3xl min-[520px]:px-7 min-[520px]:py-7",
          className,
        )}
        {...props}
      >
        {children}
        <DialogPrimitive.Close
          className="absolute top-3 right-3 inline-flex size-12 items-center justify-center rounded-xl text-ink hover:bg-primary-soft focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary"
          aria-label="Fermer la fenêtre"
        >
          <X aria-hidden="true" className="size-7" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** The dialog's heading; `className` adds to its look (nothing that conflicts with it). */
export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn("pr-12 text-3xl font-bold text-ink", className)} {...props} />;
}

/** The text under the heading; a `className` replaces its look (margin, size, colour) altogether. */
export function DialogDescription({
  className = "mt-2 text-lg text-muted",
  ...props
}: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={className} {...props} />;
}
