/**
 * The confirmation a public form's page shows after a successful post (the
 * `/contact` page, `/rappel`): a green panel with a check mark, the heading
 * (with JavaScript it takes the focus, so that it is read at once), the
 * text, what the form adds (the code word), and "Retour à l’accueil".
 */
import { CircleCheck } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { buttonVariants } from "~/components/ui/button";

export function ConfirmationPanel({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="flex flex-col items-start gap-5 rounded-3xl border-2 border-green-800 bg-green-50 p-5 sm:p-8">
      <CircleCheck aria-hidden="true" className="size-14 text-green-800" />
      <h1 ref={headingRef} tabIndex={-1} className="text-4xl font-bold text-ink focus:outline-none">
        {title}
      </h1>
      <p className="text-xl text-ink">{text}</p>
      {children}
      <a href="/" className={buttonVariants({ size: "large" })}>
        Retour à l’accueil
      </a>
    </div>
  );
}
