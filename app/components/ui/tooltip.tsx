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
 *
 * The hint and its placement are in `tooltip-content.tsx`, loaded when a
 * pointer first moves over a trigger (the 700 ms delay covers the loading)
 * or a trigger gets the focus; this module holds the triggers' behaviour.
 */
import {
  cloneElement,
  createContext,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
  type Ref,
} from "react";
import { createPortal } from "react-dom";
import type * as Hint from "./tooltip-content";

/** The hint's module, once loaded (the pointer-leave rule needs it synchronously). */
let hintModule: typeof Hint | undefined;

let hintLoading: Promise<typeof Hint> | undefined;

/**
 * Loads the hint's module (`tooltip-content.tsx`) once; called each time a
 * trigger is approached. A failed load (network) is tried again next time.
 */
const loadHint = () =>
  (hintLoading ??= import("./tooltip-content").then(
    (module) => (hintModule = module),
    (error: unknown) => {
      hintLoading = undefined;
      throw error;
    },
  ));

const TooltipContent = lazy(() => loadHint().then((module) => ({ default: module.TooltipContent })));

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
        void loadHint();
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
        if (!instance.open) return;
        // Hint not shown yet (its module still loading): nothing to move onto.
        if (hintModule && contentRef.current)
          hintModule.followPointerToHint(trigger, contentRef.current, event.clientX, event.clientY, hide);
        else hide();
      },
      pointerdown: () => {
        hide();
        instance.pointerDown = true;
        document.addEventListener("pointerup", () => (instance.pointerDown = false), { once: true });
      },
      focusin: () => {
        void loadHint();
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
            <Suspense fallback={null}>
              <TooltipContent
                id={id}
                contentRef={contentRef}
                trigger={trigger}
                onPointerLeave={() => closeTip(instance, shared)}
              >
                {content}
              </TooltipContent>
            </Suspense>,
            document.body,
          )
        : null}
    </>
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
