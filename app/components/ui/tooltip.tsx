/**
 * Tooltip: a short hint shown on hover (after a delay) or on keyboard focus,
 * written for this site so that no positioning library loads with every
 * page (docs/decisions/007-javascript-budget.md). It behaves as the Radix
 * tooltip it replaces:
 * - hover opens after `delayDuration` (700 ms, spec section 4); moving to
 *   another trigger while a hint is open, or within `skipDelayDuration`
 *   (300 ms) of its closing, opens at once; keyboard focus opens at once;
 * - one hint at a time; Escape, a click, a pointer press elsewhere, leaving,
 *   blurring or scrolling the page closes it (WCAG 1.4.13: dismissible);
 * - the pointer may move from the trigger onto the hint, which stays open
 *   (WCAG 1.4.13: hoverable);
 * - the hint is `role="tooltip"` and describes the trigger
 *   (`aria-describedby`) while shown;
 * - placed above the trigger, 6 px away plus the arrow, centred, moved to
 *   stay on screen, or below it when there is no room above.
 * The trigger must be focusable, and the hint must repeat nothing
 * essential: touch screens do not show it.
 */
import {
  cloneElement,
  createContext,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
  type Ref,
  type RefObject,
} from "react";
import { createPortal } from "react-dom";

/** The space between trigger and hint, and the arrow's size (as Radix drew them). */
const SIDE_OFFSET = 6;
const ARROW_WIDTH = 10;
const ARROW_HEIGHT = 5;

/** One tooltip's mutable state: its pending opening, whether a press or a hover is under way, whether it is open. */
type Instance = { timer: number; pointerDown: boolean; hovered: boolean; open: boolean; setOpen(open: boolean): void };

/** Shared by the tooltips under one provider: the open one, and when the last one closed. */
type Shared = { current: Instance | null; closedAt: number };

type Timing = { delayDuration: number; skipDelayDuration: number; shared: Shared };

const TooltipContext = createContext<Timing>({
  delayDuration: 700,
  skipDelayDuration: 300,
  shared: { current: null, closedAt: -Infinity },
});

/** Sets the delays of the tooltips inside it (and lets them know of each other, for the skip delay). */
export function TooltipProvider({
  delayDuration = 700,
  skipDelayDuration = 300,
  children,
}: {
  delayDuration?: number;
  skipDelayDuration?: number;
  children: ReactNode;
}) {
  const [shared] = useState<Shared>(() => ({ current: null, closedAt: -Infinity }));
  const value = useMemo(
    () => ({ delayDuration, skipDelayDuration, shared }),
    [delayDuration, skipDelayDuration, shared],
  );
  return <TooltipContext.Provider value={value}>{children}</TooltipContext.Provider>;
}

function openTip(instance: Instance, shared: Shared) {
  window.clearTimeout(instance.timer);
  instance.timer = 0;
  if (instance.open) return;
  if (shared.current) closeTip(shared.current, shared);
  instance.open = true;
  shared.current = instance;
  instance.setOpen(true);
}

function closeTip(instance: Instance, shared: Shared) {
  window.clearTimeout(instance.timer);
  instance.timer = 0;
  if (!instance.open) return;
  instance.open = false;
  if (shared.current === instance) {
    shared.current = null;
    shared.closedAt = performance.now();
  }
  instance.setOpen(false);
}

type TriggerProps = { ref?: Ref<HTMLElement>; "aria-describedby"?: string };

/**
 * Shows `content` next to `children`: one element (not a component), which
 * gets a ref (its own is replaced) and `aria-describedby` while the hint shows.
 */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement<TriggerProps> }) {
  const { delayDuration, skipDelayDuration, shared } = useContext(TooltipContext);
  const id = useId();
  const [open, setOpen] = useState(false);
  const [trigger, setTrigger] = useState<HTMLElement | null>(null);
  const contentRef = useRef<HTMLDivElement | null>(null);

  // The trigger's listeners (native ones: they hold mutable state, which render must not touch).
  const [instance] = useState<Instance>(() => ({ timer: 0, pointerDown: false, hovered: false, open: false, setOpen }));
  useEffect(() => {
    if (!trigger) return;
    const hide = () => closeTip(instance, shared);
    const listeners: Partial<Record<keyof HTMLElementEventMap, (event: never) => void>> = {
      pointermove: (event: globalThis.PointerEvent) => {
        if (event.pointerType === "touch" || instance.hovered) return;
        instance.hovered = true;
        if (instance.open || instance.timer) return;
        const skip = shared.current !== null || performance.now() - shared.closedAt < skipDelayDuration;
        if (skip) openTip(instance, shared);
        else instance.timer = window.setTimeout(() => openTip(instance, shared), delayDuration);
      },
      pointerleave: (event: globalThis.PointerEvent) => {
        instance.hovered = false;
        window.clearTimeout(instance.timer);
        instance.timer = 0;
        if (instance.open && contentRef.current)
          followPointerToHint(trigger, contentRef.current, event.clientX, event.clientY, hide);
      },
      pointerdown: () => {
        hide();
        instance.pointerDown = true;
        document.addEventListener("pointerup", () => (instance.pointerDown = false), { once: true });
      },
      focusin: () => {
        if (!instance.pointerDown) openTip(instance, shared);
      },
      focusout: hide,
      click: hide,
    };
    const entries = Object.entries(listeners) as [string, EventListener][];
    for (const [type, listener] of entries) trigger.addEventListener(type, listener);
    return () => {
      for (const [type, listener] of entries) trigger.removeEventListener(type, listener);
      hide();
    };
  }, [trigger, instance, shared, delayDuration, skipDelayDuration]);

  // While open: Escape, a press outside, and a scroll of what holds the trigger close the hint.
  useEffect(() => {
    if (!open || !trigger) return;
    const hide = () => closeTip(instance, shared);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") hide();
    };
    const onPointerDownOutside = (event: globalThis.PointerEvent) => {
      const target = event.target as Node;
      if (!trigger.contains(target) && !contentRef.current?.contains(target)) hide();
    };
    const onScroll = (event: Event) => {
      if (event.target instanceof Node && event.target.contains(trigger)) hide();
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDownOutside);
    window.addEventListener("scroll", onScroll, { capture: true });
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDownOutside);
      window.removeEventListener("scroll", onScroll, { capture: true });
    };
  }, [open, trigger, instance, shared]);

  return (
    <>
      {cloneElement(children, {
        ref: setTrigger,
        "aria-describedby": open ? id : children.props["aria-describedby"],
      })}
      {open && trigger
        ? createPortal(
            <TooltipContent
              id={id}
              contentRef={contentRef}
              trigger={trigger}
              onPointerLeave={() => closeTip(instance, shared)}
            >
              {content}
            </TooltipContent>,
            document.body,
          )
        : null}
    </>
  );
}

/**
 * The hint, fixed on screen next to the trigger (measured before paint). Leaving
 * it with the pointer closes it, unless the pointer goes back to the trigger.
 */
function TooltipContent({
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
function followPointerToHint(trigger: HTMLElement, hint: HTMLElement, x: number, y: number, close: () => void) {
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
