/**
 * The newsletter box (home page, `/blog`, the end of each article, and
 * `/newsletter`): an e-mail field that posts to `POST /newsletter`. Without
 * JavaScript the browser posts and `/newsletter` shows the answer; with it
 * the answer shows in place (a fetcher), and the field's error beside it.
 * An invalid address: with JavaScript, its message beside the field
 * (announced) and the focus on the field; without JavaScript the
 * `/newsletter` page gives its box the answer (`pageAnswer`) and the error
 * summary every public form has (`summary`, an `ErrorSummary` that takes
 * the focus on load). The summary is the page's, not this module's: the
 * box is on the home page, whose script is at its budget
 * (tests/budgets), and a fetcher's answer needs no summary for one field.
 */
import { Mail } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { NEWSLETTER_HONEYPOT } from "./fields";
import type { SubscribeActionData } from "./types";

/**
 * The box's words, from the loader (`newsletterBoxWords()` in
 * app/home/content.server.ts: app/content/home.ts `blogSection.newsletter`
 * and the consent text), so that they stay out of the page's JavaScript.
 */
export interface NewsletterBoxWords {
  title: string;
  text: string;
  placeholder: string;
  button: string;
  note: string;
  consent: string;
}

/** The id of the e-mail field of the box of `source`, for the error summary's link. */
export const newsletterEmailId = (source: string) => `newsletter-${source}-email`;

export function NewsletterBox({
  newsletter,
  source,
  headingLevel = 3,
  pageAnswer,
  summary,
}: {
  newsletter: NewsletterBoxWords;
  /** Where the box is (stored with the subscription): home, blog, article, newsletter. */
  source: string;
  headingLevel?: 2 | 3;
  /** The `/newsletter` page's answer to a post made without JavaScript (an invalid address, or one not stored). */
  pageAnswer?: SubscribeActionData;
  /** The error summary of that answer, at the top of the form. */
  summary?: ReactNode;
}) {
  const fetcher = useFetcher<SubscribeActionData>();
  const answer = fetcher.data ?? pageAnswer;
  const id = `newsletter-${source}`;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  // Any refusal (an invalid address, too many requests, a database error) shows beside the field.
  const refusal = answer && answer.status !== "received" ? answer.message : undefined;
  const invalid = answer?.status === "invalid";
  const emailRef = useRef<HTMLInputElement>(null);
  // The fetcher's answer: an invalid address puts the focus back in the field, its message read with it.
  useEffect(() => {
    if (fetcher.data?.status === "invalid") emailRef.current?.focus();
  }, [fetcher.data]);
  return (
    <div className="mx-auto mt-14 max-w-3xl rounded-3xl bg-secondary-soft p-6 text-center shadow-md sm:p-10">
      <Mail aria-hidden="true" className="mx-auto size-10 text-secondary-strong" />
      <Heading className="mt-3 text-2xl font-bold sm:text-3xl">{newsletter.title}</Heading>
      <p className="mt-3 text-ink">{newsletter.text}</p>
      {answer?.status === "received" ? (
        <p role="status" className="mt-6 rounded-xl border-2 border-secondary bg-white p-4 text-left text-lg text-ink">
          {answer.message}
        </p>
      ) : (
        <fetcher.Form
          method="post"
          action="/newsletter"
          className="mt-6 text-left"
          aria-describedby={`${id}-note`}
          noValidate
        >
          {summary}
          <input type="hidden" name="source" value={source} />
          {/* The honeypot: not shown, not in the accessibility tree; a bot that fills every field fills it. */}
          <input name={NEWSLETTER_HONEYPOT} hidden tabIndex={-1} autoComplete="off" />
          <label htmlFor={newsletterEmailId(source)} className="block font-semibold">
            Adresse e-mail
          </label>
          <div className="mt-2 flex flex-col gap-3 sm:flex-row">
            <input
              ref={emailRef}
              id={newsletterEmailId(source)}
              name="email"
              type="email"
              required
              autoComplete="email"
              placeholder={newsletter.placeholder}
              defaultValue={answer?.email}
              aria-invalid={invalid || undefined}
              aria-describedby={refusal ? `${id}-error` : undefined}
              className="min-h-12 flex-1 rounded-xl border-2 border-muted bg-white px-4 text-lg text-ink placeholder:text-muted aria-invalid:border-red-700"
            />
            <button
              type="submit"
              disabled={fetcher.state !== "idle"}
              className={buttonVariants({ variant: "secondary" })}
            >
              {newsletter.button}
            </button>
          </div>
          {refusal ? (
            // Announced, but for an answer to a post made without JavaScript: the summary above says it.
            <p
              id={`${id}-error`}
              role={pageAnswer ? undefined : "alert"}
              className="mt-2 text-lg font-semibold text-red-800"
            >
              {refusal}
            </p>
          ) : null}
        </fetcher.Form>
      )}
      <p id={`${id}-note`} className="mt-3 text-lg text-ink">
        {newsletter.note} {newsletter.consent}
      </p>
    </div>
  );
}
