/**
 * The "Contactez-moi" dialog (spec section 2 "Contact dialog", section 4,
 * section 8). `ContactDialogProvider` wraps the app and holds the dialog;
 * `useContactDialog().open()` opens it, and `ContactDialogLink` is a plain
 * link to `/contact` (the page that works without JavaScript) that opens
 * the dialog instead once JavaScript runs.
 *
 * The form posts to `/contact` through a fetcher (the page stays as it is).
 * Success: toast "Félicitations !", a confirmation view with "Fermer".
 * Save failure: toast "Erreur", the dialog stays open with every value.
 * Too many requests: the message above the buttons. Closing clears the
 * confirmation (the next opening shows an empty form) and gives the focus
 * back to what opened the dialog.
 */
import { CircleCheck } from "lucide-react";
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type MouseEvent,
  type ReactNode,
} from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { contactMessages } from "~/contact/messages";
import type { ContactActionData } from "~/contact/types";
// The form (Conform, zod) loads when the dialog is first wanted, not with every page.
const loadContactForm = () => import("./contact-form");
const ContactForm = lazy(() => loadContactForm().then((module) => ({ default: module.ContactForm })));
import { Button } from "./ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "./ui/dialog";

const CONTACT_PATH = "/contact";

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
    // Start loading the form as soon as the visitor shows interest.
    <a href={href} onClick={handleClick} onPointerEnter={preload} onFocus={preload} onTouchStart={preload} {...props}>
      {children}
    </a>
  );
}

const preload = () => void loadContactForm();

/**
 * Focuses the form's first field once the (lazily loaded) form is there, as
 * Radix would have on opening had the form been present then.
 */
function FocusOnMount({ elementId }: { elementId: string }) {
  useEffect(() => {
    document.getElementById(elementId)?.focus();
  }, [elementId]);
  return null;
}

/** Holds the dialog's state and renders it once for the whole app. */
export function ContactDialogProvider({ children }: { children: ReactNode }) {
  const fetcher = useFetcher<ContactActionData>({ key: "contact-dialog" });
  // `seen`: the answer already there when the dialog opened; it belongs to an earlier opening.
  const [state, setState] = useState<{ open: boolean; seen?: ContactActionData }>({ open: false });
  const openerRef = useRef<HTMLElement | null>(null);
  const fetcherData = fetcher.data;

  const open = useCallback(() => {
    openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setState({ open: true, seen: fetcherData });
  }, [fetcherData]);
  const api = useMemo(() => ({ open }), [open]);

  // Toasts, once per answer (also when the answer arrives after the dialog was closed).
  const toasted = useRef<ContactActionData | undefined>(undefined);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcherData || toasted.current === fetcherData) return;
    toasted.current = fetcherData;
    if (fetcherData.status === "success") {
      toast.success(contactMessages.successTitle, { description: contactMessages.successText });
    } else if (fetcherData.status === "error") {
      toast.error("Erreur", { description: contactMessages.saveError });
    }
  }, [fetcher.state, fetcherData]);

  const answer = fetcherData !== state.seen ? fetcherData : undefined;
  const sent = answer?.status === "success";

  return (
    <ContactDialogContext.Provider value={api}>
      {children}
      <Dialog open={state.open} onOpenChange={(value) => setState((current) => ({ ...current, open: value }))}>
        <DialogContent
          // A click on a toast (its close button) must not close the dialog and lose what was typed.
          onInteractOutside={(event) => {
            if (event.target instanceof Element && event.target.closest("[data-sonner-toaster]"))
              event.preventDefault();
          }}
          onCloseAutoFocus={(event) => {
            const opener = openerRef.current;
            // Radix would focus nothing (the dialog has no trigger of its own): back to the opener.
            if (opener?.isConnected && opener.checkVisibility()) {
              event.preventDefault();
              opener.focus({ preventScroll: true });
            }
          }}
        >
          {sent ? (
            <Confirmation onClose={() => setState((current) => ({ ...current, open: false }))} />
          ) : (
            <>
              <DialogTitle>Contactez-moi</DialogTitle>
              <DialogDescription>
                Dites-moi qui vous êtes et ce dont vous avez besoin&nbsp;: je vous recontacte très prochainement.
              </DialogDescription>
              <Suspense fallback={<p className="mt-6 text-lg text-muted">Chargement du formulaire…</p>}>
                <ContactForm
                  id="contact-dialog-form"
                  as={fetcher.Form}
                  lastResult={answer?.result}
                  pending={fetcher.state !== "idle"}
                  onCancel={() => setState((current) => ({ ...current, open: false }))}
                  className="mt-6"
                />
                <FocusOnMount elementId="contact-dialog-form-firstName" />
              </Suspense>
            </>
          )}
        </DialogContent>
      </Dialog>
    </ContactDialogContext.Provider>
  );
}

/** The success view: heading (focused, so screen readers read it), the spec's text, "Fermer". */
function Confirmation({ onClose }: { onClose: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="flex flex-col items-start gap-4">
      <CircleCheck aria-hidden="true" className="size-14 text-green-800" />
      <DialogTitle ref={headingRef} tabIndex={-1} className="focus:outline-none">
        {contactMessages.successTitle}
      </DialogTitle>
      <DialogDescription className="text-xl text-ink">{contactMessages.successText}</DialogDescription>
      <Button type="button" size="large" onClick={onClose} className="mt-2 w-full min-[400px]:w-auto">
        Fermer
      </Button>
    </div>
  );
}
