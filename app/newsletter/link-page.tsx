/**
 * The page a link of a newsletter mail opens (confirm, unsubscribe): it
 * changes nothing by itself (mail scanners follow links); a button posts,
 * and the page then says what happened. Without JavaScript too.
 */
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { NEWSLETTER_HONEYPOT } from "./fields";

export function LinkPage({
  title,
  children,
  button,
  done,
}: {
  title: string;
  children: ReactNode;
  /** The button's label; absent: no button (the link is not valid, or it is done). */
  button?: string;
  /** What happened, once the button was pressed. */
  done?: ReactNode;
}) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold">{title}</h1>
      {done ? (
        <div role="status" className="mt-6 space-y-4 text-xl text-ink">
          {done}
        </div>
      ) : (
        <div className="mt-6 space-y-4 text-xl text-ink">{children}</div>
      )}
      {button && !done ? (
        <Form method="post" className="mt-8">
          <input type="hidden" name={NEWSLETTER_HONEYPOT} value="" />
          <Button type="submit" size="large">
            {button}
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
