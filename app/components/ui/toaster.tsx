/**
 * The site's one toast area (sonner): top centre, at most three toasts at a
 * time, large text (18 px and more), dark text on a light tint (7:1 and
 * more), a 48 px close button labelled in French. Toasts are announced by
 * screen readers (sonner's live region) and stay 8 seconds, longer while
 * hovered or focused. Call `toast.success(...)` / `toast.error(...)` from
 * `sonner` anywhere.
 */
import { CircleAlert, CircleCheck, X } from "lucide-react";
import type { CSSProperties } from "react";
import { Toaster as Sonner } from "sonner";

export function Toaster() {
  return (
    <Sonner
      position="top-center"
      visibleToasts={3}
      duration={8000}
      closeButton
      containerAriaLabel="Notifications"
      // A modal dialog turns pointer events off around it: toasts stay clickable (the dialog ignores those clicks).
      style={{ "--width": "min(28rem, calc(100vw - 2rem))", pointerEvents: "auto" } as CSSProperties}
      icons={{
        success: <CircleCheck aria-hidden="true" className="size-7" />,
        error: <CircleAlert aria-hidden="true" className="size-7" />,
        close: <X aria-hidden="true" className="size-6" />,
      }}
      toastOptions={{
        unstyled: true,
        closeButtonAriaLabel: "Fermer la notification",
        classNames: {
          toast:
            "relative flex w-full items-start gap-3 rounded-2xl border-2 py-4 pr-16 pl-4 font-sans text-lg leading-snug shadow-xl",
          icon: "mt-0.5 shrink-0",
          content: "flex min-w-0 flex-col gap-1",
          title: "text-xl font-bold",
          description: "text-lg",
          closeButton:
            "absolute top-2 right-2 inline-flex size-12 items-center justify-center rounded-xl hover:bg-black/5 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary",
          default: "border-line bg-white text-ink",
          info: "border-line bg-white text-ink",
          success: "border-green-800 bg-green-50 text-green-950",
          error: "border-red-800 bg-red-50 text-red-950",
        },
      }}
    />
  );
}
