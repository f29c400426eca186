/**
 * The owner's telephone one tap away, without putting the number in the
 * published pages as plain text (decision 001, kept; decision 020):
 *
 * - `PhoneReveal`: a button "Afficher le numéro" (or the header's "Appeler"
 *   icon button); one tap shows the number as a `tel:` link ("Appeler le
 *   +41 …"), which a second tap dials, and which can be read aloud or
 *   written down. The focus moves to the link. Without JavaScript the
 *   button is the submit button of a GET form to `/coordonnees#contact`, the
 *   server-rendered page where the number is shown as a `tel:` link.
 * - `usePhoneChannels()`: the encoded contact channels that the root loader
 *   gives every page (`app/contact/channels.server.ts`), so that any page
 *   can show the control without a loader of its own.
 */
import { Phone } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import type { ContactChannels } from "~/content/identity";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/utils/cn";
import { decodeContact, REVEALED_PAGE } from "./obfuscate";

/** The owner's encoded contact channels, from the root loader (undefined on an error page without it). */
export function usePhoneChannels(): string | undefined {
  const root = useRouteLoaderData("root") as { header?: { channels?: string } } | undefined;
  return root?.header?.channels;
}

/** The number as a `tel:` link, in large bold text: "Appeler le +41 …". */
export function PhoneLink({
  channels,
  linkRef,
  className,
}: {
  channels: string;
  linkRef?: React.Ref<HTMLAnchorElement>;
  className?: string;
}) {
  const { phone, phoneDisplay } = decodeContact<ContactChannels>(channels);
  return (
    <a
      ref={linkRef}
      href={`tel:${phone}`}
      className={cn(buttonVariants({ size: "large" }), "whitespace-normal", className)}
    >
      <Phone aria-hidden="true" className="size-6 shrink-0" />
      <span>
        Appeler le <span className="inline-block">{phoneDisplay}</span>
      </span>
    </a>
  );
}

/**
 * "Afficher le numéro": one tap shows the owner's number as a `tel:` link
 * in place of the button (the focus follows). `idPrefix` keeps the ids
 * unique on the page; `label` is the button's text.
 */
export function PhoneReveal({
  channels,
  idPrefix,
  label = "Afficher le numéro",
  className,
}: {
  channels: string;
  idPrefix: string;
  label?: string;
  className?: string;
}) {
  const [revealed, setRevealed] = useState(false);
  const linkRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (revealed) linkRef.current?.focus();
  }, [revealed]);
  return (
    <div id={`${idPrefix}-phone`} aria-live="polite" className={className}>
      {revealed ? (
        <PhoneLink channels={channels} linkRef={linkRef} />
      ) : (
        <PhoneRevealForm onReveal={() => setRevealed(true)}>
          <button type="submit" className={buttonVariants({ size: "large", variant: "outline" })}>
            <Phone aria-hidden="true" className="size-6" />
            {label}
          </button>
        </PhoneRevealForm>
      )}
    </div>
  );
}

/**
 * The form around a reveal button: a GET to `/coordonnees#contact` without
 * JavaScript; with it, `onReveal` instead (the number shown in place).
 */
export function PhoneRevealForm({
  onReveal,
  className,
  children,
}: {
  onReveal: () => void;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <form
      method="get"
      action={REVEALED_PAGE}
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        onReveal();
      }}
    >
      {children}
    </form>
  );
}
