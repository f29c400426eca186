/**
 * The 503 page's words while the database does not answer (issue 33, item
 * 10): "Service momentanément indisponible", try again in a few minutes or
 * call, and the telephone the page gives (`phone`: the contact feature's
 * `PhoneReveal` over the root loader's channels, from the last settings
 * read). `headingLevel` 1 for the page of its own (the root's error
 * boundary), 2 inside a page that still shows its form.
 */
import { CircleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { unavailableWords } from "~/utils/unavailable";

export function UnavailableNotice({ phone, headingLevel = 1 }: { phone?: ReactNode; headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <div
      role={headingLevel === 2 ? "alert" : undefined}
      className="mt-8 flex flex-col items-start gap-4 rounded-3xl border-2 border-red-800 bg-white p-5 sm:p-8"
    >
      <CircleAlert aria-hidden="true" className="size-12 text-red-800" />
      <Heading className={headingLevel === 1 ? "text-4xl font-bold" : "text-3xl font-bold"}>
        {unavailableWords.title}
      </Heading>
      <p className="text-xl">{unavailableWords.text}</p>
      {phone}
    </div>
  );
}
