/**
 * The code word as a confirmation shows it (issue 23, item 2): the two
 * words, large, and what they are for, with a link to `/confiance`.
 * Browser-safe (the word comes from the server's answer).
 */
import { ShieldCheck } from "lucide-react";
import { cn } from "~/utils/cn";

/**
 * `passOnTo`: the first name of the person a relative registered; the box
 * then asks to pass the word on to them, since it is them the owner calls.
 */
export function CodeWordBox({
  codeWord,
  className,
  passOnTo,
}: {
  codeWord: string;
  className?: string;
  passOnTo?: string;
}) {
  return (
    <div className={cn("w-full rounded-2xl border-2 border-primary bg-white p-5 text-ink", className)}>
      <p className="flex items-center gap-3 text-xl font-bold">
        <ShieldCheck aria-hidden="true" className="size-7 shrink-0 text-primary" />
        Votre mot de code
      </p>
      <p className="mt-3 text-3xl font-bold break-words text-primary-strong" data-testid="code-word">
        {`«\u00a0${codeWord}\u00a0»`}
      </p>
      {passOnTo ? (
        <p className="mt-3 text-lg font-semibold" data-testid="code-word-pass-on">
          {`Transmettez ce mot de code à ${passOnTo}\u00a0: c’est à ${passOnTo} que je le dirai en appelant.`}
        </p>
      ) : null}
      <p className="mt-3 text-lg">
        Notez-le. Quand je vous appelle, je vous le dis au début de l’appel&nbsp;: vous savez ainsi que c’est bien moi.
        Quelqu’un qui ne le connaît pas n’est pas moi.{" "}
        <a href="/confiance" className="font-semibold text-primary underline underline-offset-4">
          Ce que je ne vous demanderai jamais
        </a>
      </p>
    </div>
  );
}
