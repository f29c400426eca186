/**
 * "Un empêchement ?" on a registration's page: "Annuler mon inscription",
 * a link (`?annuler#annuler`) that asks once; its "Oui, annuler" posts
 * `intent=cancel` to `path` (mail scanners that follow links change
 * nothing), "Non, garder mon inscription" goes back. A person on the
 * waiting list (`waiting`) holds no seat: nobody is told theirs goes to
 * someone else, and may leave the list until the course begins. A
 * confirmed seat says until when it may be cancelled here (`deadline`,
 * decision 052); past it, the section says to telephone, with the owner's
 * number, and has no button.
 */
import { Form, Link } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { ofName } from "~/utils/format";
import { BOOKING_HONEYPOT_FIELD } from "./schema";

/** A confirmed seat's cancellation deadline: the moment in words, whether it passed, the owner's telephone. */
export interface DeadlineShown {
  until: string;
  passed: boolean;
  phone: string;
  /** E.164, for the `tel:` link. */
  tel: string;
}

export function CancelRegistration({
  path,
  attendee,
  asking,
  waiting = false,
  deadline,
}: {
  path: string;
  attendee: string;
  asking: boolean;
  waiting?: boolean;
  deadline?: DeadlineShown;
}) {
  if (!waiting && deadline?.passed) {
    return (
      <section aria-labelledby="annuler" className="mt-12 rounded-2xl border-2 border-line p-5 print:hidden">
        <h2 id="annuler" className="scroll-mt-24 text-2xl font-bold">
          Un empêchement&nbsp;?
        </h2>
        <p className="mt-2 text-xl">
          L’annulation en ligne était possible jusqu’au {deadline.until}. Appelez-moi au{" "}
          <a href={`tel:${deadline.tel}`} className="font-semibold whitespace-nowrap">
            {deadline.phone}
          </a>
          &nbsp;: je m’en occupe.
        </p>
      </section>
    );
  }
  const until =
    !waiting && deadline ? <p className="mt-2 text-xl">Annulation possible jusqu’au {deadline.until}.</p> : null;
  return (
    <section aria-labelledby="annuler" className="mt-12 rounded-2xl border-2 border-line p-5 print:hidden">
      <h2 id="annuler" className="scroll-mt-24 text-2xl font-bold">
        Un empêchement&nbsp;?
      </h2>
      {until}
      {asking ? (
        <>
          <p className="mt-2 text-xl font-semibold">
            {waiting
              ? `Voulez-vous vraiment retirer ${attendee} de la liste d’attente\u00a0?`
              : `Voulez-vous vraiment annuler l’inscription ${ofName(attendee)}\u00a0? Sa place ira à une autre personne.`}
          </p>
          <div className="mt-4 flex flex-wrap gap-3">
            <Form method="post" action={path}>
              <input type="hidden" name="intent" value="cancel" />
              <input type="hidden" name={BOOKING_HONEYPOT_FIELD} value="" />
              <Button type="submit" variant="outline" size="large" className="border-red-800 text-red-800">
                Oui, annuler
              </Button>
            </Form>
            <Link to={path} className={buttonVariants({ size: "large" })}>
              Non, garder mon inscription
            </Link>
          </div>
        </>
      ) : (
        <>
          <p className="mt-2 text-xl">
            {waiting
              ? "Vous ne souhaitez plus attendre une place\u00a0? Annulez votre inscription sur la liste d’attente."
              : "Annulez votre inscription\u00a0: votre place ira à une autre personne."}
          </p>
          <Link
            to={`${path}?annuler#annuler`}
            className={`${buttonVariants({ variant: "outline", size: "large" })} mt-4`}
          >
            Annuler mon inscription
          </Link>
        </>
      )}
    </section>
  );
}
