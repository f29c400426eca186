/**
 * Contact details kept out of the page until the visitor asks (anti-spam,
 * `app/contact/obfuscate.ts`): the "Révéler" / "Masquer" toggle, the mask
 * shown meanwhile, and `RevealableEmail`, the owner's e-mail address behind
 * that toggle (legal pages).
 *
 * "Révéler" is the submit button of a GET form to `/coordonnees`, the
 * server-rendered view with the details shown: that is the no-JavaScript
 * path. With JavaScript the same button toggles in place (`aria-pressed`,
 * label "Masquer").
 */
import { Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import type { ContactChannels } from "~/content/identity";
import { cn } from "~/utils/cn";
import { decodeContact, REVEALED_PAGE } from "./obfuscate";
import { buttonVariants } from "~/components/ui/button";

/** Two texts of the toggle, one for each state: shown while the button reveals, and once it hides. */
export type RevealLabels = { reveal: string; hide: string };

/** The "Révéler" / "Masquer" toggle with its hint above it, both centred or both at the start. */
export function RevealToggle({
  revealed,
  onToggle,
  hints,
  labels,
  hintId,
  hideAction = "/#contact",
  size = "large",
  align = "start",
  className,
}: {
  revealed: boolean;
  onToggle: () => void;
  /** The hint that describes the button: why the details are hidden (`reveal`), how to hide them again (`hide`). */
  hints: RevealLabels;
  /** The button's two labels ("Révéler", "Masquer": `contactSection` in `app/content/home.ts`). */
  labels: RevealLabels;
  /** Id of the hint, unique on the page. */
  hintId: string;
  /** Where "Masquer" leads without JavaScript (on `/coordonnees`, where the details are shown). */
  hideAction?: string;
  size?: "default" | "large";
  align?: "start" | "center";
  className?: string;
}) {
  return (
    <form
      method="get"
      action={revealed ? hideAction : REVEALED_PAGE}
      onSubmit={(event) => {
        event.preventDefault();
        onToggle();
      }}
      className={cn("flex flex-col gap-3", align === "center" ? "items-center text-center" : "items-start", className)}
    >
      <p id={hintId} className="text-ink">
        {revealed ? hints.hide : hints.reveal}
      </p>
      <button type="submit" aria-pressed={revealed} aria-describedby={hintId} className={buttonVariants({ size })}>
        {revealed ? <EyeOff aria-hidden="true" className="size-6" /> : <Eye aria-hidden="true" className="size-6" />}
        {revealed ? labels.hide : labels.reveal}
      </button>
    </form>
  );
}

/** The placeholder shown instead of a hidden detail; screen readers hear `label`. */
export function Masked({ mask = "••• ••• •• ••", label = "masqué" }: { mask?: string; label?: string }) {
  return (
    <span className="font-bold tracking-widest text-muted">
      <span aria-hidden="true">{mask}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}

/**
 * The owner's e-mail address, masked until "Révéler": then a `mailto:`
 * link. `channels` is the loader's `encodedContactChannels()`.
 */
export function RevealableEmail({
  channels,
  label,
  mask,
  maskLabel,
  hints,
  labels,
  idPrefix,
}: {
  channels: string;
  /** Text before the address, e.g. "E-mail". */
  label: string;
  mask: string;
  /** What screen readers hear instead of the mask, e.g. "masquée". */
  maskLabel: string;
  hints: RevealLabels;
  labels: RevealLabels;
  /** Prefix of the element ids, unique on the page. */
  idPrefix: string;
}) {
  const [revealed, setRevealed] = useState(false);
  const email = revealed ? decodeContact<ContactChannels>(channels).email : null;
  return (
    <div>
      <p aria-live="polite">
        <span className="font-semibold">{label}&nbsp;: </span>
        {email ? (
          <a href={`mailto:${email}`} className="font-bold break-all text-primary underline underline-offset-4">
            {email}
          </a>
        ) : (
          <Masked mask={mask} label={maskLabel} />
        )}
      </p>
      <RevealToggle
        revealed={revealed}
        onToggle={() => setRevealed((value) => !value)}
        hints={hints}
        labels={labels}
        hintId={`${idPrefix}-reveal-hint`}
        size="default"
        className="mt-4"
      />
    </div>
  );
}
