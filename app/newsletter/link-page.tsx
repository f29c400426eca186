/**
 * The page a link of a newsletter mail opens (confirm, unsubscribe), in its
 * three states: it asks (a button that posts: the page changes nothing by
 * itself, since mail scanners follow links), it is done, or the link is not
 * valid. Without JavaScript too. A route passes its words; the state comes
 * from the route's loader (`{ valid }`) and action (`{ outcome }`, from
 * `linkAction`).
 */
import type { ReactNode } from "react";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { NEWSLETTER_HONEYPOT } from "./fields";

/** A state's heading and paragraphs. */
export interface LinkPageState {
  title: string;
  /** One or more paragraphs. */
  text: ReactNode;
}

/** The words of a link page, state by state. */
export interface LinkPageWords {
  /** The link is valid and not used yet; `button` posts. */
  ask: LinkPageState & { button: string };
  /** The button was pressed and did what the link is for. */
  done: LinkPageState;
  /** The link is unknown, expired, copied in part or used, or the post was refused. */
  invalid: LinkPageState;
}

/**
 * Draws the link page in the state the route's data says: `done` when the
 * action's outcome is `success`, `invalid` when the loader found the link
 * not valid or the action answered anything else, `ask` otherwise.
 */
export function LinkPage({ success, words }: { success: string; words: LinkPageWords }) {
  const { valid } = useLoaderData<{ valid: boolean }>();
  const answer = useActionData<{ outcome: string }>();
  const state = answer?.outcome === success ? "done" : !valid || answer ? "invalid" : "ask";
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold">{words[state].title}</h1>
      <div role={state === "done" ? "status" : undefined} className="mt-6 space-y-4 text-xl text-ink">
        {words[state].text}
      </div>
      {state === "ask" ? (
        <Form method="post" className="mt-8">
          <input type="hidden" name={NEWSLETTER_HONEYPOT} value="" />
          <Button type="submit" size="large">
            {words.ask.button}
          </Button>
        </Form>
      ) : null}
      <p className="mt-10">
        <Link to="/" className={buttonVariants({ variant: "outline" })}>
          Retour à l’accueil
        </Link>
      </p>
    </section>
  );
}
