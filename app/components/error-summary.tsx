/**
 * The error summary at the top of every public form (issue 24, item 7):
 * "Il y a N erreur(s) dans le formulaire" and one link per error, to the
 * field (`href="#field-id"`) with the field's French message. Nothing when
 * the submission has no error in its fields. The form's own errors (too
 * many requests, a failed save) stay in their alert above the buttons
 * (`FormErrors`), as GOV.UK keeps the summary for what the visitor can
 * correct: listed here too, each would be announced twice.
 *
 * It follows GOV.UK Design System's error summary pattern
 * (https://design-system.service.gov.uk/components/error-summary/): a
 * container that takes the focus (`tabindex="-1"`), an inner
 * `role="alert"`, a heading, a list of links in the form's order; a link
 * moves the focus to its field and scrolls the field's label into view.
 * Where the focus goes: to the summary, always, as GOV.UK does (not to the
 * first field):
 * - without JavaScript, the server's answer renders it with `autofocus`
 *   (a global attribute, valid on any element): the browser focuses it on
 *   load and scrolls to it, so the visitor hears and sees the count first;
 * - with JavaScript, after each failed submit (the browser's check or the
 *   server's answer, `focusKey` changes), an effect focuses it, after
 *   Conform has focused the first invalid field.
 * Without JavaScript a link is a plain fragment link: the browser scrolls
 * to the field and focuses it. (The newsletter box, one field answered in
 * place by a fetcher, shows it only on the `/newsletter` page's answer to a
 * post made without JavaScript: see app/newsletter/subscribe-box.tsx.)
 */
import { useEffect, useRef, type MouseEvent } from "react";
import { cn } from "~/utils/cn";
import { useHydrated } from "~/utils/use-hydrated";

/** One error of the summary: where its link goes (`#` and the field's id) and the French message. */
export interface SummaryError {
  href: string;
  message: string;
}

/** What the summary needs of a field (Conform's metadata, or a form's own state): its id and errors. */
export interface SummaryField {
  /** The id the link goes to: the control's (for radios, the first radio's). */
  id: string;
  errors?: string[];
}

/**
 * The summary's list: the messages of `fields` that have errors, in the
 * order given (the form's reading order), one entry per message.
 */
export function summaryErrors(fields: readonly SummaryField[]): SummaryError[] {
  return fields.flatMap((field) => (field.errors ?? []).map((message) => ({ href: `#${field.id}`, message })));
}

/** "Il y a 1 erreur dans le formulaire", "Il y a 3 erreurs dans le formulaire". */
export function summaryTitle(count: number): string {
  return `Il y a ${count} erreur${count > 1 ? "s" : ""} dans le formulaire`;
}

/**
 * With JavaScript, a link focuses its field itself and scrolls its label (or
 * its group's legend) into view, as GOV.UK's script does: the browser would
 * scroll the bare control to the top, its label hidden above.
 */
function focusTarget(event: MouseEvent<HTMLAnchorElement>) {
  const id = event.currentTarget.hash.slice(1);
  const target = id ? document.getElementById(decodeURIComponent(id)) : null;
  if (!target) return;
  event.preventDefault();
  const label =
    target.closest("fieldset")?.querySelector("legend") ??
    document.querySelector(`label[for="${CSS.escape(target.id)}"]`);
  (label ?? target).scrollIntoView({ block: "start" });
  target.focus({ preventScroll: true });
}

export function ErrorSummary({
  id,
  errors,
  focusKey,
  headingLevel = 2,
  className,
}: {
  /** Unique on the page: the heading's id is `{id}-title`. */
  id: string;
  errors: readonly SummaryError[];
  /** Changes at each failed submit: the summary then takes the focus again (with JavaScript). */
  focusKey?: unknown;
  /** The heading's level, below the form's own heading. */
  headingLevel?: 2 | 3 | 4;
  className?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const hydrated = useHydrated();
  const shown = errors.length > 0;
  useEffect(() => {
    if (shown) ref.current?.focus();
    // Only a new submission moves the focus: not a correction typed in a field.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusKey]);
  if (!shown) return null;
  const Heading = (["h2", "h3", "h4"] as const)[headingLevel - 2]!;
  return (
    <div
      ref={ref}
      id={id}
      tabIndex={-1}
      // A named group: focused, it is announced by its heading (the Nu checker refuses a name on a bare div).
      role="group"
      // Focused on load without JavaScript (see the module's comment). Only in the server's HTML: in the
      // browser React would focus it again each time it reappears, a correction typed in a field included.
      // eslint-disable-next-line jsx-a11y/no-autofocus
      autoFocus={!hydrated}
      aria-labelledby={`${id}-title`}
      className={cn(
        "scroll-mt-4 rounded-2xl border-4 border-red-800 bg-white p-4 text-ink focus:outline-4 focus:outline-offset-4 focus:outline-primary sm:p-6",
        className,
      )}
    >
      <div role="alert">
        {/* No icon, as GOV.UK's: the red frame and the heading say it; and the home page's script stays in budget. */}
        <Heading id={`${id}-title`} className="text-2xl font-bold text-red-800">
          {summaryTitle(errors.length)}
        </Heading>
        <ul className="mt-3 flex flex-col gap-2 text-lg">
          {errors.map((error, index) => (
            <li key={`${error.href}-${index}`}>
              <a
                href={error.href}
                onClick={focusTarget}
                className="inline-block min-h-11 py-1 font-semibold break-words text-red-800 underline underline-offset-4 hover:decoration-2"
              >
                {error.message}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
