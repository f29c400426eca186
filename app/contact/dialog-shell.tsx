/**
 * The contact dialog's heavy half, loaded on the first opening (or earlier,
 * when a contact link is hovered, focused or touched): the Radix dialog, the
 * form (itself loaded lazily), the confirmation view and the site's toast
 * area. Once loaded it stays mounted, so that a toast still shows after the
 * dialog has closed. `ContactDialogProvider` (dialog.tsx) holds the
 * state and renders this module.
 *
 * A click beside the dialog or Escape, with something typed in the form,
 * does not close it: a question asks first (« Continuer à écrire », focused,
 * or « Fermer sans envoyer »). "Annuler" and the corner button still close
 * it at once: they say what they do.
 */
import { CircleCheck } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState, type RefObject } from "react";
import type { FetcherWithComponents } from "react-router";
import { toast, useSonner } from "sonner";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "~/components/ui/dialog";
import { Toaster } from "~/components/ui/toaster";
import { CodeWordBox } from "~/trust/code-word-box";
import { loadContactForm } from "./load-form";
import { contactMessages } from "./messages";
import type { ContactActionData } from "./types";

const ContactForm = lazy(() => loadContactForm().then((module) => ({ default: module.ContactForm })));

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

const FORM_ID = "contact-dialog-form";

/** Whether the visitor typed or chose anything in `form` (the honeypot, hidden from people, aside). */
function hasTypedText(form: HTMLElement | null): boolean {
  if (!(form instanceof HTMLFormElement)) return false;
  return [...form.elements].some((element) => {
    if (element instanceof HTMLInputElement) {
      if (element.type === "hidden" || element.closest("[aria-hidden='true']")) return false;
      return element.type === "checkbox" ? element.checked : element.value.trim() !== "";
    }
    return (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) && element.value !== "";
  });
}

/**
 * Asked when the dialog would close with something typed: keep writing
 * (focused first, the safe choice) or close and lose it.
 */
function DiscardQuestion({ onKeep, onDiscard }: { onKeep: () => void; onDiscard: () => void }) {
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => keepRef.current?.focus(), []);
  return (
    <div role="alert" className="mt-5 rounded-2xl border-2 border-accent bg-accent-soft p-4 text-ink">
      <p className="text-xl font-bold">Vous avez commencé à écrire.</p>
      <p className="mt-1 text-lg">Si vous fermez cette fenêtre, ce que vous avez écrit sera perdu.</p>
      <div className="mt-3 flex flex-wrap gap-3">
        <Button ref={keepRef} type="button" onClick={onKeep}>
          Continuer à écrire
        </Button>
        <Button type="button" variant="outline" onClick={onDiscard}>
          Fermer sans envoyer
        </Button>
      </div>
    </div>
  );
}

/** What the provider passes: its fetcher, the open state, and what opened the dialog. */
export type ContactDialogShellProps = {
  fetcher: FetcherWithComponents<ContactActionData>;
  open: boolean;
  /** The answer already there when the dialog opened: it belongs to an earlier opening. */
  seen: ContactActionData | undefined;
  onOpenChange(open: boolean): void;
  openerRef: RefObject<HTMLElement | null>;
};

/** The dialog (form or confirmation) and the toast area; toasts once per answer of the fetcher. */
export default function ContactDialogShell({ fetcher, open, seen, onOpenChange, openerRef }: ContactDialogShellProps) {
  const fetcherData = fetcher.data;

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
  // While a toast shows, the dialog leaves it the top of the screen (`data-toast-room`, app/app.css).
  const toastShown = useSonner().toasts.length > 0;

  const answer = fetcherData !== seen ? fetcherData : undefined;
  const sent = answer?.status === "success";

  // A click beside the dialog or Escape with something typed asks first (issue 23): the text is not lost by mistake.
  const [askDiscard, setAskDiscard] = useState(false);
  // Every closing (Radix's, "Annuler", "Fermer sans envoyer") forgets the question.
  const changeOpen = (value: boolean) => {
    if (!value) setAskDiscard(false);
    onOpenChange(value);
  };
  const guardDismiss = (event: Event) => {
    if (sent || !hasTypedText(document.getElementById(FORM_ID))) return;
    event.preventDefault();
    setAskDiscard(true);
  };

  return (
    <>
      <Dialog open={open} onOpenChange={changeOpen}>
        <DialogContent
          data-toast-room={toastShown || undefined}
          // A click on a toast (its close button) must not close the dialog and lose what was typed.
          onInteractOutside={(event) => {
            if (event.target instanceof Element && event.target.closest("[data-sonner-toaster]"))
              return event.preventDefault();
            guardDismiss(event);
          }}
          onEscapeKeyDown={guardDismiss}
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
            <Confirmation codeWord={answer.codeWord} onClose={() => onOpenChange(false)} />
          ) : (
            <>
              <DialogTitle>Contactez-moi</DialogTitle>
              <DialogDescription>
                Dites-moi qui vous êtes et ce dont vous avez besoin&nbsp;: je vous recontacte très prochainement.
              </DialogDescription>
              <p className="mt-2 text-lg text-ink">
                Vous préférez être appelé(e)&nbsp;?{" "}
                <a href="/rappel" className="font-semibold text-primary underline underline-offset-4">
                  Rappelez-moi
                </a>
              </p>
              {askDiscard ? (
                <DiscardQuestion onKeep={() => setAskDiscard(false)} onDiscard={() => changeOpen(false)} />
              ) : null}
              <Suspense fallback={<p className="mt-6 text-lg text-muted">Chargement du formulaire…</p>}>
                <ContactForm
                  id={FORM_ID}
                  as={fetcher.Form}
                  lastResult={answer?.result}
                  pending={fetcher.state !== "idle"}
                  onCancel={() => changeOpen(false)}
                  className="mt-6"
                />
                <FocusOnMount elementId={`${FORM_ID}-firstName`} />
              </Suspense>
            </>
          )}
        </DialogContent>
      </Dialog>
      <Toaster />
    </>
  );
}

/** The success view: heading (focused, so screen readers read it), the spec's text, "Fermer". */
function Confirmation({ codeWord, onClose }: { codeWord?: string; onClose: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="flex flex-col items-start gap-4">
      <CircleCheck aria-hidden="true" className="size-14 text-green-800" />
      <DialogTitle ref={headingRef} tabIndex={-1} className="focus:outline-none">
        {contactMessages.successTitle}
      </DialogTitle>
      <DialogDescription className="mt-2 text-xl text-ink">{contactMessages.successText}</DialogDescription>
      {codeWord ? <CodeWordBox codeWord={codeWord} /> : null}
      <Button type="button" size="large" leading="text" onClick={onClose} className="mt-2 w-full min-[400px]:w-auto">
        Fermer
      </Button>
    </div>
  );
}
