/**
 * The tooltip's hint (see `tooltip.tsx`), loaded the first time a pointer
 * moves over a trigger or a trigger gets the focus, so that this code stays
 * out of the JavaScript every page loads (decision 007): the hint itself,
 * its placement, and the "hoverable" rule that keeps it open while the
 * pointer travels from the trigger onto it (WCAG 1.4.13).
 */
import { useLayoutEffect, useState, type ReactNode, type RefObject } from "react";

/** The space between trigger and hint, and the arrow's size (as Radix drew them). */
const SIDE_OFFSET = 6;
const ARROW_WIDTH = 10;
const ARROW_HEIGHT = 5;

/**
 * The hint, fixed on screen next to the trigger (measured before paint). Leaving
 * it with the pointer closes it, unless the pointer goes back to the trigger.
 */
export function TooltipContent({
  id,
  contentRef,
  trigger,
  onPointerLeave,
  children,
}: {
  id: string;
  contentRef: RefObject<HTMLDivElement | null>;
  trigger: HTMLElement;
  onPointerLeave: () => void;
  children: ReactNode;
}) {
  const [place, setPlace] = useState<Placement | null>(null);
  useLayoutEffect(() => {
    if (contentRef.current)
      setPlace(placeBeside(trigger.getBoundingClientRect(), contentRef.current.getBoundingClientRect()));
  }, [trigger, contentRef]);
  const below = place?.side === "bottom";
  return (
    <div
      ref={contentRef}
      id={id}
      role="tooltip"
      data-side={place?.side ?? "top"}
      onPointerLeave={(event) => {
        if (!trigger.contains(event.relatedTarget as Node | null)) onPointerLeave();
      }}
      style={{
        position: "fixed",
        left: 0,
        top: 0,
        transform: place ? `translate(${place.x}px, ${place.y}px)` : undefined,
        visibility: place ? undefined : "hidden",
      }}
      className="z-50 max-w-xs rounded-lg bg-ink px-3 py-2 text-lg leading-snug text-white shadow-lg"
    >
      {children}
      <span
        style={{
          position: "absolute",
          left: place?.arrowX ?? 0,
          ...(below
            ? { top: 0, transformOrigin: "center 0", transform: "rotate(180deg)" }
            : { bottom: 0, transform: "translateY(100%)" }),
        }}
      >
        <svg
          className="block fill-ink"
          width={ARROW_WIDTH}
          height={ARROW_HEIGHT}
          viewBox="0 0 30 10"
          preserveAspectRatio="none"
          aria-hidden="true"
        >
          <polygon points="0,0 30,0 15,10" />
        </svg>
      </span>
    </div>
  );
}

type Placement = { side: "top" | "bottom"; x: number; y: number; arrowX: number };

/**
 * Where the hint goes: above the trigger (or below when it overflows above
 * and less below), centred on it, then moved sideways to stay inside the
 * viewport, on whole device pixels; the arrow points at the trigger's centre.
 */
export function placeBeside(
  trigger: Pick<DOMRect, "left" | "top" | "bottom" | "width">,
  content: Pick<DOMRect, "width" | "height">,
  viewport = {
    width: document.documentElement.clientWidth,
    height: document.documentElement.clientHeight,
    pixelRatio: window.devicePixelRatio || 1,
  },
): Placement {
  const round = (value: number) => Math.round(value * viewport.pixelRatio) / viewport.pixelRatio;
  const gap = SIDE_OFFSET + ARROW_HEIGHT;
  const above = trigger.top - gap - content.height;
  const below = trigger.bottom + gap;
  const overflowAbove = Math.max(0, -above);
  const overflowBelow = Math.max(0, below + content.height - viewport.height);
  const side = overflowAbove > 0 && overflowBelow < overflowAbove ? "bottom" : "top";
  const centre = trigger.left + trigger.width / 2;
  const x = round(Math.max(0, Math.min(centre - content.width / 2, viewport.width - content.width)));
  const arrowX = Math.max(0, Math.min(centre - x - ARROW_WIDTH / 2, content.width - ARROW_WIDTH));
  return { side, x, y: round(side === "top" ? above : below), arrowX };
}

/**
 * After the pointer left the trigger of an open hint: keeps the hint open
 * while the pointer stays on the trigger, the hint, or the band between
 * them (the trigger's edge to the hint's facing edge), and closes it as
 * soon as the pointer goes elsewhere.
 */
export function followPointerToHint(trigger: HTMLElement, hint: HTMLElement, x: number, y: number, close: () => void) {
  const inside = (px: number, py: number) => {
    const t = trigger.getBoundingClientRect();
    const h = hint.getBoundingClientRect();
    const inRect = (r: DOMRect) => px >= r.left && px <= r.right && py >= r.top && py <= r.bottom;
    if (inRect(t) || inRect(h)) return true;
    // The band: a trapezoid from the trigger's edge facing the hint to the hint's facing edge.
    const hintAbove = h.bottom <= t.top;
    const [near, far] = hintAbove ? [t.top, h.bottom] : [t.bottom, h.top];
    if (py < Math.min(near, far) || py > Math.max(near, far)) return false;
    const progress = near === far ? 0 : (py - near) / (far - near);
    const left = t.left + (h.left - t.left) * progress;
    const right = t.right + (h.right - t.right) * progress;
    return px >= left && px <= right;
  };
  if (!inside(x, y)) {
    close();
    return;
  }
  const onMove = (event: globalThis.PointerEvent) => {
    if (trigger.contains(event.target as Node)) return stop();
    if (hint.contains(event.target as Node)) return stop();
    if (!inside(event.clientX, event.clientY)) {
      stop();
      close();
    }
  };
  const stop = () => document.removeEventListener("pointermove", onMove);
  document.addEventListener("pointermove", onMove);
}
