/**
 * The "Contactez-moi" dialog (spec section 2 "Contact dialog", section 4,
 * section 8). `ContactDialogProvider` wraps the app and holds the dialog's
 * state; `useContactDialog().open()` opens it, and `ContactDialogLink` is a
 * plain link to `/contact` (the page that works without JavaScript) that
 * opens the dialog instead once JavaScript runs.
 *
 * This module stays small: the dialog itself (Radix), the form (Conform,
 * zod) and the toast area (sonner) are in `contact-dialog-shell.tsx`,
 * loaded on the first opening, or as soon as a contact link is hovered,
 * focused or touched, so that the first opening stays fast.
 *
 * The form posts to `/contact` through a fetcher (the page stays as it is).
 * Success: toast "Félicitations !", a confirmation view with "Fermer".
 * Save failure: toast "Erreur", the dialog stays open with every value.
 * Too many requests: the message above the buttons. Closing clears the
 * confirmation (the next opening shows an empty form) and gives the focus
 * back to what opened the dialog.
 */
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type MouseEvent,
  type ReactNode,
} from "react";
import { useFetcher } from "react-router";
import { loadContactForm } from "./load-form";
import type { ContactActionData } from "./types";

const CONTACT_PATH = "/contact";

const loadShell = () => import("./dialog-shell");
const ContactDialogShell = lazy(loadShell);

/** Starts loading the dialog and its form, e.g. when the visitor shows interest in a contact link. */
export function preloadContactDialog() {
  void loadShell();
  void loadContactForm();
}

type ContactDialogApi = { open(): void };

const ContactDialogContext = createContext<ContactDialogApi | null>(null);

/** Opens the contact dialog; outside the provider, goes to the `/contact` page. */
export function useContactDialog(): ContactDialogApi {
  return useContext(ContactDialogContext) ?? { open: () => window.location.assign(CONTACT_PATH) };
}

/**
 * A link to `/contact` that opens the dialog instead (left click or Enter,
 * with JavaScript). Ctrl/Cmd/Shift-click still opens the page in a new
 * tab. `onClick` runs first and may call `preventDefault()` to stop it.
 */
export function ContactDialogLink({ onClick, href = CONTACT_PATH, children, ...props }: ComponentProps<"a">) {
  const { open } = useContactDialog();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    open();
  };
  return (
    // Start loading the dialog as soon as the visitor shows interest.
    <a
      href={href}
      onClick={handleClick}
      onPointerEnter={preloadContactDialog}
      onFocus={preloadContactDialog}
      onTouchStart={preloadContactDialog}
      {...props}
    >
      {children}
    </a>
  );
}

/**
 * Holds the dialog's state for the whole app and, from the first opening on,
 * renders the lazily loaded dialog and toast area (kept mounted afterwards).
 */
export function ContactDialogProvider({ children }: { children: ReactNode }) {
  const fetcher = useFetcher<ContactActionData>({ key: "contact-dialog" });
  // `seen`: the answer already there when the dialog opened; it belongs to an earlier opening.
  const [state, setState] = useState<{ open: boolean; seen?: ContactActionData; mounted: boolean }>({
    open: false,
    mounted: false,
  });
  const openerRef = useRef<HTMLElement | null>(null);
  const fetcherData = fetcher.data;

  const open = useCallback(() => {
    openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setState({ open: true, seen: fetcherData, mounted: true });
  }, [fetcherData]);
  const api = useMemo(() => ({ open }), [open]);
  const onOpenChange = useCallback((value: boolean) => setState((current) => ({ ...current, open: value })), []);

  return (
    <ContactDialogContext.Provider value={api}>
      {children}
      {state.mounted ? (
        <Suspense fallback={null}>
          <ContactDialogShell
            fetcher={fetcher}
            open={state.open}
            seen={state.seen}
            onOpenChange={onOpenChange}
            openerRef={openerRef}
          />
        </Suspense>
      ) : null}
    </ContactDialogContext.Provider>
  );
}
